package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxFuzzBytes caps fuzz inputs; the invariants do not depend on length.
const maxFuzzBytes = 16 << 10

func seedSamples(f *testing.F) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.txt"))
	if err != nil {
		f.Fatal(err)
	}
	seeds := []string{"", "don't l’eau state-of-the-art", "L’Homme qu'il dell'acqua l'\xff IŞIK", "ab\xffcd\xc3", "か\u3099き\u30fc", "می\u200cخواهم", "\u0301x'"}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(data))
	}
	return seeds
}

func FuzzTokenize(f *testing.F) {
	for _, s := range seedSamples(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > maxFuzzBytes {
			t.Skip()
		}
		toks := Tokenize(text)
		checkTokens(t, text, toks)
		// A token is a fixed point: tokenizing its text gives it back whole.
		for _, tok := range toks {
			again := Tokenize(tok.Text)
			if len(again) != 1 || again[0].Text != tok.Text {
				t.Fatalf("Tokenize(%q) = %+v, want the token itself", tok.Text, again)
			}
		}
	})
}

func FuzzNormalizer(f *testing.F) {
	langs := []string{"en", "de", "ru", "el", "ja", "tr", "ar", "", "fr", "it"}
	for i, s := range seedSamples(f) {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, text string, flags uint8) {
		if len(text) > maxFuzzBytes {
			t.Skip()
		}
		opts := Options{
			IgnoreCase: flags&1 != 0,
			Stopwords:  flags&2 != 0,
			Stemming:   flags&4 != 0,
			Language:   langs[int(flags>>3)%len(langs)],
		}
		n := NewNormalizer(opts)
		ts := n.Terms(text)
		toks := Tokenize(text)
		if len(ts) > len(toks) {
			t.Fatalf("%d terms from %d tokens", len(ts), len(toks))
		}
		lastPos := -1
		for _, term := range ts {
			if term.Pos <= lastPos || text[term.Start:term.End] != term.Text {
				t.Fatalf("term %+v: bad position or offsets", term)
			}
			lastPos = term.Pos
			if term.Term == "" || !utf8.ValidString(term.Term) {
				t.Fatalf("term %+v: empty or invalid UTF-8", term)
			}
			if (opts.IgnoreCase || opts.Stemming) && strings.ToLower(term.Term) != term.Term {
				t.Fatalf("term %+v is not lower case", term)
			}
			// Normalising is deterministic, cache or not.
			if again, ok := n.Normalize(term.Text); !ok || again != term.Term {
				t.Fatalf("Normalize(%q) = %q, %v; Terms gave %q", term.Text, again, ok, term.Term)
			}
		}
		if !opts.Stopwords && len(ts) != len(toks) {
			t.Fatalf("without stop-words %d terms from %d tokens", len(ts), len(toks))
		}
	})
}
