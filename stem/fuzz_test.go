package stem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxFuzzBytes caps fuzz inputs: Detect only reads a prefix anyway and
// stemming is per word.
const maxFuzzBytes = 16 << 10

func seedLangs(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.txt"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("")
	f.Add("\xff\xfe日本")
}

func isCode(s string) bool {
	return len(s) == 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z'
}

func FuzzDetect(f *testing.F) {
	seedLangs(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > maxFuzzBytes {
			t.Skip()
		}
		d := Detector{}.Detect(text)
		if lang, reliable := Detect(text); lang != d.Lang || reliable != d.Reliable {
			t.Fatalf("Detect(%q) = %q, %v; Detector{}.Detect = %+v", text, lang, reliable, d)
		}
		if !isCode(d.Lang) {
			t.Fatalf("Detect(%q).Lang = %q, not an ISO 639-1 code", text, d.Lang)
		}
		if !d.Reliable && d.Lang != DefaultLanguage {
			t.Fatalf("unreliable detection %+v must report the default", d)
		}
		if d.Confidence < 0 || d.Confidence > 1 {
			t.Fatalf("confidence %v out of range", d.Confidence)
		}
	})
}

func FuzzStem(f *testing.F) {
	for _, w := range []string{"flooding", "Häuser", "затоплены", "sokakları", "المدرسة", "வீடுகள்", "\xff", ""} {
		for _, lang := range Languages() {
			f.Add(lang, w)
		}
	}
	f.Fuzz(func(t *testing.T, lang, word string) {
		if len(word) > maxFuzzBytes {
			t.Skip()
		}
		s := For(lang)
		if s == nil {
			return
		}
		got := s.Stem(word)
		if !utf8.ValidString(got) {
			t.Fatalf("Stem(%q) = %q, invalid UTF-8", word, got)
		}
		if s.Stem(word) != got {
			t.Fatalf("Stem(%q) is not deterministic", word)
		}
	})
}

func FuzzElisionStrip(f *testing.F) {
	for _, w := range []string{"l'homme", "L’Europe", "jusqu'ici", "dell'acqua", "aujourd'hui", "l'", "'", "d’\xff", "quoiqu’", ""} {
		for _, lang := range []string{"fr", "it", "ca", "ga", "en"} {
			f.Add(lang, w)
		}
	}
	f.Fuzz(func(t *testing.T, lang, word string) {
		if len(word) > maxFuzzBytes {
			t.Skip()
		}
		got := Elisions(lang).Strip(word)
		if got == word {
			return
		}
		prefix, ok := strings.CutSuffix(word, got)
		if !ok || got == "" {
			t.Fatalf("Strip(%q) = %q, not a non-empty suffix", word, got)
		}
		elided, ok := strings.CutSuffix(prefix, "'")
		if !ok {
			elided, ok = strings.CutSuffix(prefix, "\u2019")
		}
		_, listed := Elisions(lang).prefixes[strings.ToLower(elided)]
		if !ok || !listed || strings.ContainsAny(elided, "'\u2019") {
			t.Fatalf("Strip(%q) = %q removed %q, not a listed prefix and its apostrophe", word, got, prefix)
		}
	})
}
