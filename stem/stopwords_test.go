package stem

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStopwords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang     string
		stop     []string
		notStop  []string
		minWords int
	}{
		{"en", []string{"the", "of", "and", "don't", "yourselves"}, []string{"house", "god", "flood", "The"}, 150},
		{"de", []string{"der", "und", "über"}, []string{"haus"}, 200},
		{"fr", []string{"le", "la", "étaient"}, []string{"maison"}, 100},
		{"ru", []string{"и", "в", "не"}, []string{"река"}, 100},
		{"es", []string{"el", "las", "estaban"}, []string{"casa"}, 200},
		{"tr", []string{"ve", "için"}, []string{"ev"}, 40},
		{"ro", []string{"și", "şi", "pentru"}, []string{"casă"}, 200},
		{"ga", []string{"agus", "an"}, []string{"teach"}, 100},
		{"ar", []string{"في", "من"}, []string{"مدرسة"}, 300},
		{"ta", []string{"ஒரு", "மற்றும்"}, []string{"வீடு"}, 100},
		{"nb", []string{"og", "ikke"}, []string{"hus"}, 150},
		{"NO", []string{"og"}, nil, 150},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			t.Parallel()
			s := Stopwords(tt.lang)
			if s.Len() < tt.minWords {
				t.Fatalf("Len() = %d, want ≥ %d", s.Len(), tt.minWords)
			}
			for _, w := range tt.stop {
				if !s.Contains(w) {
					t.Errorf("Contains(%q) = false", w)
				}
			}
			for _, w := range tt.notStop {
				if s.Contains(w) {
					t.Errorf("Contains(%q) = true", w)
				}
			}
		})
	}
}

func TestStopwordsEveryStemmerLanguage(t *testing.T) {
	t.Parallel()
	for _, code := range Languages() {
		s := Stopwords(code)
		if s.Len() == 0 {
			t.Errorf("Stopwords(%q) is empty", code)
			continue
		}
		for _, w := range s.Words() {
			if w == "" || w != strings.ToLower(w) || !utf8.ValidString(w) || strings.ContainsAny(w, " \t|") {
				t.Errorf("Stopwords(%q) holds a malformed word %q", code, w)
			}
		}
	}
	if Stopwords("nb") != Stopwords("nn") {
		t.Error("Norwegian codes should share one parsed list")
	}
}

func TestStopwordsUnknownNilSafe(t *testing.T) {
	t.Parallel()
	s := Stopwords("el")
	if s != nil {
		t.Fatalf("Stopwords(el) = %v, want nil", s)
	}
	if s.Contains("και") || s.Len() != 0 || s.Words() != nil {
		t.Error("nil StopList methods must report an empty list")
	}
}

func TestParseStopList(t *testing.T) {
	t.Parallel()
	s := parseStopList(" | header comment\nThe   | article\n\n  | indented comment\nof\nof\ni'm\n")
	if got := strings.Join(s.Words(), ","); got != "i'm,of,the" {
		t.Errorf("Words() = %q", got)
	}
}
