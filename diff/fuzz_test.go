package diff

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// maxFuzzLen caps each fuzzed text, so that an input runs in milliseconds.
const maxFuzzLen = 4 << 10

// fuzzSeeds are old/new pairs covering the cases of TestCompute; more are in
// testdata/fuzz/FuzzRoundTrip.
var fuzzSeeds = [][2]string{
	{"", "first line\nsecond line\n"},
	{"the big dog barks", "the small dog barks"},
	{"X foo Z bar Y", "X Z Y"},
	{"one\n\ntwo\n", "one\n\nnew\n\ntwo\n"},
	{"hello world\r\nfoo bar\r\n", "hello world\nfoo bar\n"},
	{"東京は晴れです。", "東京は雨です。"},
	{"Το γρήγορο καφέ αλεπού\n", "Το αργό καφέ αλεπού\n"},
	{"crest of 19.1 feet, don't go", "crest of 19.7 feet; don't go"},
	{"a\xffb c\n", "a\xfeb c\n"},
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1], false)
	}
	alerts := readAlerts(f)
	f.Add(alerts[:2000], mutate(alerts[:2000], 1, 0.05), false)
	f.Add(alerts[:2000], mutate(alerts[:2000], 1, 0.05), true)
	f.Fuzz(func(t *testing.T, old, new string, linesOnly bool) {
		if len(old) > maxFuzzLen || len(new) > maxFuzzLen {
			t.Skip()
		}
		diffs := Compute(old, new, &Options{LinesOnly: linesOnly})
		check(t, old, new, diffs)
		if (old == new) != (len(diffs) == 0) {
			t.Fatalf("%d diffs for equal=%v texts", len(diffs), old == new)
		}
		for _, d := range diffs {
			if s := d.Snippet(10); !utf8.ValidString(s) {
				t.Fatalf("invalid snippet %q", s)
			}
		}
	})
}

func FuzzSnippet(f *testing.F) {
	f.Add("The quick brown fox jumps over the lazy dog.", 16, 19, 8)
	f.Add("first line\n\nsecond   line\r\nthird", 12, 18, 8)
	f.Add("東京都は今日晴れです", 9, 12, 2)
	f.Add("ok \xff\xfe bad \xe2\x82", 1, 100, 3)
	f.Add("Сильный ветер ожидается", -3, 5, 0)
	f.Fuzz(func(t *testing.T, text string, start, end, n int) {
		if len(text) > maxFuzzLen {
			t.Skip()
		}
		n %= 1000
		got := Snippet(text, start, end, n)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 %q", got)
		}
		if got != strings.TrimSpace(got) || strings.Contains(got, "  ") || strings.ContainsAny(got, "\n\r\t") {
			t.Fatalf("not one clean line: %q", got)
		}
		if n <= 0 {
			n = DefaultSnippetChars
		}
		start = min(max(start, 0), len(text))
		end = min(max(end, start), len(text))
		if limit := utf8.RuneCountInString(text[start:end]) + 2*n + 2; utf8.RuneCountInString(got) > limit {
			t.Fatalf("%d runes, more than %d", utf8.RuneCountInString(got), limit)
		}
	})
}
