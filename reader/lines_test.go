package reader

import (
	"testing"
	"unicode"
)

// TestIsSpace checks the spelled-out table against package unicode.
func TestIsSpace(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u200b' || r == '\ufeff'
		if got := isSpace(r); got != want {
			t.Errorf("isSpace(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestLineWriter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		parts []string // "\x00" ends a line
		want  string
	}{
		{"collapse", []string{"  a \t b  "}, "a b"},
		{"join parts", []string{"a", "b", " c"}, "ab c"},
		{"break", []string{"a", "\x00", "b"}, "a\nb"},
		{"no empty lines", []string{"\x00", "\x00", " ", "\x00", "a", "\x00", "\x00", "b", "\x00"}, "a\nb"},
		{"unicode spaces", []string{"a\u00a0b\u3000c\u2003d\u200be"}, "a b c d e"},
		{"invalid bytes", []string{"a\xffb \xfe"}, "a\uFFFDb \uFFFD"},
		{"non-Latin runs", []string{"Καλημέρα  κόσμε", "\x00", "日本語"}, "Καλημέρα κόσμε\n日本語"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var w lineWriter
			for _, p := range tt.parts {
				if p == "\x00" {
					w.breakLine()
					continue
				}
				w.WriteString(p)
			}
			if got := w.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
