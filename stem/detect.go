package stem

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// DefaultLanguage is the language a Detector reports when it cannot tell:
// English.
const DefaultLanguage = "en"

// DefaultDetectBytes is how many leading bytes of a text a Detector examines
// by default. whatlanggo's cost grows with the number of distinct trigrams
// (about 0.4 ms fixed plus 0.3 ms per KiB of Latin text on one core), so the
// prefix is bounded to keep Detect near 1 ms, well under 2 ms; 3 KiB (some
// 500 words) is plenty to tell languages apart.
const DefaultDetectBytes = 3072

// Detection is the outcome of language detection.
type Detection struct {
	// Lang is the ISO 639-1 code of the language ("en", "el", "ru", "ja"),
	// or the Detector's Default when detection was unreliable or the language
	// has no ISO 639-1 code.
	Lang string
	// Reliable reports whether Lang was detected with confidence above
	// whatlanggo's threshold (0.8). When false, Lang is the default.
	Reliable bool
	// Confidence is whatlanggo's confidence in [0, 1] for its best guess,
	// reported even when the guess was discarded.
	Confidence float64
	// ISO6393 is the ISO 639-3 code of whatlanggo's best guess ("eng",
	// "ceb"), even when unreliable; "" when no script was recognised. It
	// names languages that Lang cannot (those without an ISO 639-1 code).
	ISO6393 string
}

// Detector detects the language of texts. The zero value is ready to use.
type Detector struct {
	// Default is the ISO 639-1 code reported for texts whose language is
	// unknown or unreliably detected. Defaults to DefaultLanguage ("en").
	Default string
	// MaxBytes is the length of the prefix examined, cut back to a rune
	// boundary. Defaults to DefaultDetectBytes.
	MaxBytes int
	// TrustScript keeps an unreliable guess, instead of Default, when the
	// text is not written in the Latin script. The script narrows the
	// choice to a few related languages (Russian or Ukrainian, say), and a
	// near miss among them stems far better than a default language whose
	// stemmer cannot read the script at all. Reliable stays false.
	TrustScript bool
}

// Detect returns the ISO 639-1 code of the language of text and whether
// the detection is reliable, with the Detector's zero value: when it is
// not, lang is DefaultLanguage. Use a Detector for another default, the
// confidence, or the discarded guess.
func Detect(text string) (lang string, reliable bool) {
	d := Detector{}.Detect(text)
	return d.Lang, d.Reliable
}

// Detect reports the language of the first MaxBytes bytes of text, using
// whatlanggo and mapping its ISO 639-3 codes to ISO 639-1. Unreliable or
// unknown results, and languages without an ISO 639-1 code, yield
// Lang = d.Default with Reliable false. Text made of Han characters and any
// Hiragana or Katakana is reported as Japanese ("ja"). Detect never panics,
// whatever the input (invalid UTF-8 included).
func (d Detector) Detect(text string) Detection {
	def := d.Default
	if def == "" {
		def = DefaultLanguage
	}
	limit := d.MaxBytes
	if limit <= 0 {
		limit = DefaultDetectBytes
	}
	text = prefix(text, limit)

	info := whatlanggo.Detect(text)
	det := Detection{Lang: def, Confidence: info.Confidence}
	if info.Lang < 0 {
		return det
	}
	det.ISO6393 = info.Lang.Iso6393()
	code := iso6391()[info.Lang]
	if code == "zh" && hasKana(text) {
		// whatlanggo counts scripts and can let Han outvote kana in Japanese
		// text; Chinese is never written with kana.
		code, det.ISO6393 = "ja", whatlanggo.Jpn.Iso6393()
	}
	switch {
	case code == "":
	case info.IsReliable():
		det.Lang, det.Reliable = code, true
	case d.TrustScript && info.Script != nil && info.Script != unicode.Latin:
		det.Lang = code
	}
	return det
}

// prefix returns at most n leading bytes of s, cut back so that no
// multi-byte UTF-8 sequence is split.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	// Back up over continuation bytes (at most UTFMax-1 of them) so the cut
	// lands on the first byte of a rune.
	for i := 0; i < utf8.UTFMax-1 && cut > 0 && !utf8.RuneStart(s[cut]); i++ {
		cut--
	}
	return s[:cut]
}

func hasKana(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana) {
			return true
		}
	}
	return false
}

// iso6391 maps whatlanggo languages to ISO 639-1 codes. whatlanggo's own
// Lang.Iso6391 builds a map on every call and leaves individual languages of
// a macrolanguage without a code; this table is built once and gives those
// the macrolanguage's code. Languages missing from it (Cebuano, Ilocano,
// Maithili, Saraiki) have no ISO 639-1 code at all.
var iso6391 = sync.OnceValue(func() map[whatlanggo.Lang]string {
	m := make(map[whatlanggo.Lang]string, len(whatlanggo.Langs))
	for l := range whatlanggo.Langs {
		if c := l.Iso6391(); c != "" {
			m[l] = c
		}
	}
	m[whatlanggo.Pes] = "fa" // Iranian Persian, of macrolanguage Persian
	m[whatlanggo.Ydd] = "yi" // Eastern Yiddish, of macrolanguage Yiddish
	return m
})
