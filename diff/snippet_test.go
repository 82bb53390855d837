package diff

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSnippet(t *testing.T) {
	t.Parallel()
	const en = "The quick brown fox jumps over the lazy dog near the river bank."
	fox := strings.Index(en, "fox")
	tests := []struct {
		name       string
		text       string
		start, end int
		n          int
		want       string
	}{
		{"whole short text", en, fox, fox + 3, 100, en},
		{"cut at word boundaries", en, fox, fox + 3, 8, "brown fox jumps"},
		{"partial words dropped", en, fox, fox + 3, 9, "brown fox jumps"},
		{"window ends exactly at a word", en, fox, fox + 3, 11, "brown fox jumps over"},
		{"n = 1 keeps only the span", en, fox, fox + 3, 1, "fox"},
		{"n <= 0 means the default", en, fox, fox + 3, 0, en},
		{"span at the start", en, 0, 3, 6, "The quick"},
		{"span at the end", en, len(en) - 5, len(en), 6, "river bank."},
		{"empty span", en, fox, fox, 4, "fox"},
		{"newlines collapsed", "first line\n\nsecond   line\r\nthird", 12, 18, 8, "line second line"},
		{"leading and trailing space trimmed", "  word  ", 2, 6, 10, "word"},
		{"offsets clamped", "abc def", -5, 100, 3, "abc def"},
		{"end before start", "abc def ghi", 4, 1, 3, "def"},
		{"offsets inside a rune widened", "αβγ δεζ", 1, 3, 0, "αβγ δεζ"},
		{"Greek counts runes", "Το γρήγορο καφέ αλεπού πηδάει", strings.Index("Το γρήγορο καφέ αλεπού πηδάει", "καφέ"), strings.Index("Το γρήγορο καφέ αλεπού πηδάει", "καφέ") + len("καφέ"), 8, "γρήγορο καφέ αλεπού"},
		{"Russian partial word dropped", "Сильный ветер ожидается завтра", strings.Index("Сильный ветер ожидается завтра", "ожидается"), strings.Index("Сильный ветер ожидается завтра", "ожидается") + len("ожидается"), 4, "ожидается"},
		{"Japanese cuts between ideographs", "東京都は今日晴れです", 9, 12, 2, "京都は今日"},
		{"invalid UTF-8 replaced", "ok \xff\xfe bad", 0, 2, 20, "ok \uFFFD\uFFFD bad"},
		{"empty text", "", 0, 0, 10, ""},
		{"apostrophe word kept whole", "they don't know", 11, 15, 6, "don't know"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Snippet(tt.text, tt.start, tt.end, tt.n)
			if got != tt.want {
				t.Errorf("Snippet(%q, %d, %d, %d) = %q, want %q", tt.text, tt.start, tt.end, tt.n, got, tt.want)
			}
		})
	}
}

func TestDiffSnippet(t *testing.T) {
	t.Parallel()
	old := "Flood warning for the Humboldt River\nuntil 815 PM PDT Monday.\n"
	new := "Flood warning for the Humboldt River\nuntil 900 PM PDT Tuesday.\n"
	diffs := Compute(old, new, &Options{SnippetChars: 12})
	check(t, old, new, diffs)
	want := []struct {
		text, snippet, snippet4 string
	}{
		{"815", "River until 815 PM PDT", "815 PM"},
		{"900", "River until 900 PM PDT", "900 PM"},
		{"Monday", "815 PM PDT Monday.", "PDT Monday."},
		{"Tuesday", "900 PM PDT Tuesday.", "PDT Tuesday."},
	}
	if len(diffs) != len(want) {
		t.Fatalf("got %q", frags(diffs))
	}
	for i, w := range want {
		d := diffs[i]
		if d.Text != w.text {
			t.Errorf("diff %d text %q, want %q", i, d.Text, w.text)
		}
		if got := d.Snippet(0); got != w.snippet {
			t.Errorf("diff %d Snippet(0) = %q, want %q (Options.SnippetChars)", i, got, w.snippet)
		}
		if got := d.Snippet(4); got != w.snippet4 {
			t.Errorf("diff %d Snippet(4) = %q, want %q", i, got, w.snippet4)
		}
	}

	t.Run("not from Compute", func(t *testing.T) {
		t.Parallel()
		d := Diff{Event: Added, Text: "  hand\nmade  ", Start: 3, End: 16}
		if got := d.Snippet(5); got != "hand made" {
			t.Errorf("Snippet = %q", got)
		}
	})
	t.Run("fields changed", func(t *testing.T) {
		t.Parallel()
		d := diffs[0]
		d.Text = "other"
		if got := d.Snippet(30); got != "other" {
			t.Errorf("Snippet = %q", got)
		}
	})
}

func TestSnippetRealText(t *testing.T) {
	t.Parallel()
	text := readAlerts(t)
	for _, n := range []int{1, 5, 50} {
		for start := 0; start < len(text); start += 997 {
			end := min(len(text), start+13)
			got := Snippet(text, start, end, n)
			if !utf8.ValidString(got) || got != strings.TrimSpace(got) || strings.ContainsAny(got, "\n\t\r") || strings.Contains(got, "  ") {
				t.Fatalf("Snippet(%d, %d, %d) = %q: not one clean line", start, end, n, got)
			}
			if utf8.RuneCountInString(got) > 2*n+utf8.RuneCountInString(text[start:end])+2 {
				t.Fatalf("Snippet(%d, %d, %d) = %q: too long", start, end, n, got)
			}
			if span := clean(text[start:end]); !strings.Contains(got, strings.Trim(span, " ")) {
				t.Fatalf("Snippet(%d, %d, %d) = %q: lost the span %q", start, end, n, got, span)
			}
		}
	}
}
