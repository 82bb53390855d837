package diff

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// readAlerts returns testdata/alerts.txt: real alert texts, 73 KB.
func readAlerts(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile("testdata/alerts.txt")
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// page builds a deterministic page text of about size bytes from the
// vocabulary of alerts.txt: paragraphs of 1 to 6 lines of 8 to 20 words.
func page(tb testing.TB, seed uint64, size int) string {
	tb.Helper()
	words := strings.Fields(readAlerts(tb))
	rnd := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for b.Len() < size {
		for range 1 + rnd.IntN(6) {
			for i := range 8 + rnd.IntN(13) {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[rnd.IntN(len(words))])
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// mutate replaces about frac of the words of text by other words of it,
// keeping every separator.
func mutate(text string, seed uint64, frac float64) string {
	words := strings.Fields(text)
	rnd := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	start := -1
	for i, r := range text + " " {
		space := r == ' ' || r == '\n'
		switch {
		case !space && start < 0:
			start = i
		case space && start >= 0:
			if rnd.Float64() < frac {
				b.WriteString(words[rnd.IntN(len(words))])
			} else {
				b.WriteString(text[start:i])
			}
			start = -1
		}
		if space && i < len(text) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reverseParagraphs returns text with its paragraphs (separated by blank
// lines) in reverse order.
func reverseParagraphs(text string) string {
	p := strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n")
	slices.Reverse(p)
	return strings.Join(p, "\n\n") + "\n\n"
}

// templated returns a page of about size bytes where every third line is
// the same in all pages of the same template seed (navigation, headings)
// and the other lines come from page(tb, seed, ...).
func templated(tb testing.TB, template, seed uint64, size int) string {
	tb.Helper()
	tmpl := strings.Split(page(tb, template, size), "\n")
	own := strings.Split(page(tb, seed, size), "\n")
	var b strings.Builder
	for i := 0; b.Len() < size && i < len(tmpl) && i < len(own); i++ {
		line := own[i]
		if i%3 == 0 {
			line = tmpl[i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
