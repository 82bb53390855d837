package textseg

import (
	"fmt"
	"testing"
)

// words returns the words of text by NextWord.
func words(text string) []string {
	var out []string
	for i := 0; ; {
		start, end := NextWord(text, i)
		if start == len(text) {
			return out
		}
		out = append(out, text[start:end])
		i = end
	}
}

var wordTests = []struct {
	name, text string
	want       []string
}{
	{"empty", "", nil},
	{"ascii", "Hello, world!", []string{"Hello", "world"}},
	{"apostrophe", "don't stop", []string{"don't", "stop"}},
	{"digits and apostrophe", "the 70's hits", []string{"the", "70's", "hits"}},
	{"typographic apostrophe", "it\u2019s", []string{"it\u2019s"}},
	{"trailing apostrophe", "dogs' toys", []string{"dogs", "toys"}},
	{"period and comma split", "3.14 1,000 e.g", []string{"3", "14", "1", "000", "e", "g"}},
	{"underscore splits", "max_speed", []string{"max", "speed"}},
	{"combining mark", "cafe\u0301 noir", []string{"cafe\u0301", "noir"}},
	{"persian zwnj", "می\u200cخواهم", []string{"می\u200cخواهم"}},
	{"trailing zwnj", "ab\u200c cd", []string{"ab", "cd"}},
	{"han and kana one per character", "東京はテレビ", []string{"東", "京", "は", "テ", "レ", "ビ"}},
	{"prolonged sound mark", "コーヒー", []string{"コ", "ー", "ヒ", "ー"}},
	{"kana with dakuten", "か\u3099き", []string{"か\u3099", "き"}},
	{"latin then han", "abc東京", []string{"abc", "東", "京"}},
	{"invalid bytes separate", "a\xffb", []string{"a", "b"}},
	{"devanagari vowel signs", "हिन्दी भाषा", []string{"हिन्दी", "भाषा"}},
	{"other digits", "٣٤ x²", []string{"٣٤", "x"}},
}

func TestNextWord(t *testing.T) {
	t.Parallel()
	for _, tt := range wordTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := words(tt.text); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Errorf("words(%q) = %q, want %q", tt.text, got, tt.want)
			}
			checkInside(t, tt.text)
		})
	}
}

// checkInside asserts that Inside is true exactly at the offsets strictly
// inside the words that NextWord finds.
func checkInside(t *testing.T, text string) {
	t.Helper()
	inside := make([]bool, len(text)+1)
	for i := 0; ; {
		start, end := NextWord(text, i)
		if start == len(text) {
			break
		}
		if end <= start {
			t.Fatalf("NextWord(%q, %d) = %d, %d: empty word", text, i, start, end)
		}
		for p := start + 1; p < end; p++ {
			inside[p] = true
		}
		i = end
	}
	for p := 0; p <= len(text); p++ {
		if p < len(text) && p > 0 && text[p]&0xC0 == 0x80 {
			continue // inside a rune: not a boundary anyone asks about
		}
		if got := Inside(text, p); got != inside[p] {
			t.Fatalf("Inside(%q, %d) = %v, want %v (%q|%q)", text, p, got, inside[p], text[:p], text[p:])
		}
	}
}

func FuzzInside(f *testing.F) {
	for _, tt := range wordTests {
		f.Add(tt.text)
	}
	f.Add("a'\u0301b \u0301x ’’a 東\u0301\u200cb a.b,c")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<10 {
			t.Skip()
		}
		checkInside(t, text)
	})
}
