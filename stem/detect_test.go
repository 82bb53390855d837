package stem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func readLang(t testing.TB, code string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "lang", code+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDetectSamples(t *testing.T) {
	t.Parallel()
	// Every sample under testdata/lang is named after its language.
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.txt"))
	if err != nil || len(files) < 10 {
		t.Fatalf("samples: %v, %d files", err, len(files))
	}
	for _, f := range files {
		code := strings.TrimSuffix(filepath.Base(f), ".txt")
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			got := Detector{}.Detect(readLang(t, code))
			if got.Lang != code || !got.Reliable {
				t.Errorf("Detect = %+v, want %q reliable", got, code)
			}
			if got.ISO6393 == "" || got.Confidence <= 0.8 {
				t.Errorf("Detect = %+v, want ISO 639-3 code and confidence > 0.8", got)
			}
		})
	}
}

func TestDetectFallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    Detector
		text string
		want Detection
	}{
		{"empty", Detector{}, "", Detection{Lang: "en"}},
		{"digits and punctuation", Detector{}, "12:30 — 42%!", Detection{Lang: "en"}},
		{"custom default", Detector{Default: "de"}, "", Detection{Lang: "de"}},
		{"invalid UTF-8", Detector{}, "\xff\xfe\xfd", Detection{Lang: "en"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.d.Detect(tt.text); got != tt.want {
				t.Errorf("Detect(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestDetectUnreliableUsesDefault(t *testing.T) {
	t.Parallel()
	// Two words of Latin script are too few to tell Dutch from English.
	got := Detector{Default: "fr"}.Detect("Hello world")
	if got.Reliable || got.Lang != "fr" {
		t.Errorf("Detect = %+v, want unreliable with default fr", got)
	}
	if got.ISO6393 == "" {
		t.Errorf("Detect = %+v, want the discarded guess in ISO6393", got)
	}
}

func TestDetectTrustScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		trust      bool
		want       string
	}{
		// Short Russian text: whatlanggo guesses Russian without confidence.
		{"cyrillic kept", "Сильные наводнения в городе и в области сегодня.", true, "ru"},
		{"cyrillic default", "Сильные наводнения в городе и в области сегодня.", false, "en"},
		// Latin script is shared by too many languages to trust a guess.
		{"latin default", "Hello world", true, "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Detector{TrustScript: tt.trust}.Detect(tt.text)
			if got.Lang != tt.want || got.Reliable {
				t.Errorf("Detect = %+v, want unreliable %q", got, tt.want)
			}
		})
	}
}

func TestDetectNoISO6391(t *testing.T) {
	t.Parallel()
	// Cebuano has no ISO 639-1 code: whatever whatlanggo says, Lang must
	// stay a two-letter code.
	text := "Ang mga tawo nga nagpuyo sa baybayon nangandam alang sa bagyo nga moabot karong gabii. " +
		"Gisirado sa lungsod ang mga eskwelahan ug giablihan ang mga simbahan para sa mga pamilya."
	got := Detector{}.Detect(text)
	if len(got.Lang) != 2 {
		t.Errorf("Detect = %+v, want a two-letter code", got)
	}
	if got.ISO6393 == "ceb" && got.Reliable {
		t.Errorf("Detect = %+v: ceb has no ISO 639-1 code and must not be reliable", got)
	}
}

func TestDetectKanaBeatsHan(t *testing.T) {
	t.Parallel()
	// Mostly kanji with a little kana is Japanese, not Chinese.
	got := Detector{}.Detect("日本国憲法第九条は戦争放棄を定める")
	if got.Lang != "ja" || got.ISO6393 != "jpn" {
		t.Errorf("Detect = %+v, want ja/jpn", got)
	}
}

func TestDetectExaminesPrefixOnly(t *testing.T) {
	t.Parallel()
	text := readLang(t, "en") + strings.Repeat(readLang(t, "ru"), 50)
	if got := (Detector{MaxBytes: 300}).Detect(text); got.Lang != "en" {
		t.Errorf("prefix 300: Detect = %+v, want en", got)
	}
	if got := (Detector{MaxBytes: 1 << 20}).Detect(text); got.Lang != "ru" {
		t.Errorf("whole text: Detect = %+v, want ru", got)
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	s := "aé日😀" // 1, 2, 3 and 4 byte runes
	for n := 0; n <= len(s)+1; n++ {
		p := prefix(s, n)
		if len(p) > n || !utf8.ValidString(p) || !strings.HasPrefix(s, p) {
			t.Errorf("prefix(%q, %d) = %q", s, n, p)
		}
		if n >= len(s) && p != s {
			t.Errorf("prefix(%q, %d) = %q, want all", s, n, p)
		}
	}
	// Cutting inside a run of invalid continuation bytes still terminates
	// and keeps at most n bytes.
	bad := "ab" + strings.Repeat("\x80", 10)
	if p := prefix(bad, 8); len(p) > 8 || !strings.HasPrefix(bad, p) {
		t.Errorf("prefix(bad, 8) = %q", p)
	}
}
