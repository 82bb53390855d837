package stem

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestStem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, word, want string
	}{
		{"en", "flooding", "flood"},
		{"en", "Flooded", "flood"},
		{"en", "houses", "hous"},
		{"en", "house", "hous"},
		{"en", "generously", "generous"}, // Porter2, not Porter ("gener")
		{"en", "gods", "god"},
		{"EN-gb", "running", "run"},
		{"de", "Häuser", "haus"},
		{"de", "Überschwemmungen", "uberschwemm"},
		{"fr", "inondées", "inond"},
		{"es", "inundadas", "inund"},
		{"it", "allagate", "allag"},
		{"pt", "inundadas", "inund"},
		{"nl", "vrijwilligers", "vrijwilliger"},
		{"sv", "familjer", "familj"},
		{"da", "familierne", "famili"},
		{"nb", "familiene", "famili"},
		{"no", "familiene", "famili"},
		{"fi", "kaupungin", "kaupung"},
		{"hu", "városban", "város"},
		{"ro", "orașului", "oraș"},
		{"ru", "затоплены", "затопл"},
		{"ru", "Реки", "рек"},
		{"tr", "sokakları", "sokak"},
		{"tr", "IŞIKLARI", "ışık"}, // Turkish casing: I is ı, not i
		{"tr", "İSTANBUL", "istanbul"},
		{"ga", "bhfocail", "focail"},
		{"ar", "المدرسة", "مدرس"},
		{"ta", "வீடுகள்", "வீடு"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.word, func(t *testing.T) {
			t.Parallel()
			s := For(tt.lang)
			if s == nil {
				t.Fatalf("For(%q) = nil", tt.lang)
			}
			if got := s.Stem(tt.word); got != tt.want {
				t.Errorf("Stem(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}

func TestLowerFunc(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, text, want string
	}{
		{"tr", "IŞIK İSTANBUL", "ışık istanbul"},
		{"TR-tr", "Iİ", "ıi"},
		{"az", "İLDIRIM", "ildırım"},
		{"en", "IŞIK", "işik"},
		{"", "Iİ", "ii"},
		{"tr", "\xffI", "\ufffdı"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.text, func(t *testing.T) {
			t.Parallel()
			if got := LowerFunc(tt.lang)(tt.text); got != tt.want {
				t.Errorf("LowerFunc(%q)(%q) = %q, want %q", tt.lang, tt.text, got, tt.want)
			}
		})
	}
}

func TestForUnsupported(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"", "el", "ja", "zh", "xx", "english", "porter"} {
		if s := For(lang); s != nil {
			t.Errorf("For(%q) = %T, want nil", lang, s)
		}
	}
}

func TestLanguages(t *testing.T) {
	t.Parallel()
	got := Languages()
	want := []string{"ar", "da", "de", "en", "es", "fi", "fr", "ga", "hu", "it", "nb", "nl", "nn", "no", "pt", "ro", "ru", "sv", "ta", "tr"}
	if !slices.Equal(got, want) {
		t.Errorf("Languages() = %v, want %v", got, want)
	}
	for _, code := range got {
		if For(code) == nil {
			t.Errorf("For(%q) = nil for a listed language", code)
		}
	}
}

func TestStemLongAndInvalid(t *testing.T) {
	t.Parallel()
	s := For("en")
	long := strings.Repeat("Ab", MaxStemBytes)
	if got := s.Stem(long); got != strings.ToLower(long) {
		t.Errorf("long word was changed beyond lower-casing: %q", got)
	}
	for _, w := range []string{"", "\xff", "a\xffings", "ing", "'s", "😀😀"} {
		_ = s.Stem(w) // must not panic
	}
}

// TestStemmersIndependent checks that stemmers from For share no state: one
// per goroutine is the documented way to use them concurrently.
func TestStemmersIndependent(t *testing.T) {
	t.Parallel()
	words := strings.Fields(strings.ToLower(readLang(t, "en")))
	want := make([]string, len(words))
	ref := For("en")
	for i, w := range words {
		want[i] = ref.Stem(w)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s := For("en")
			for i, w := range words {
				if got := s.Stem(w); got != want[i] {
					t.Errorf("Stem(%q) = %q, want %q", w, got, want[i])
				}
			}
		})
	}
	wg.Wait()
}
