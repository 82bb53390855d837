package stem

import (
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/tamil"
	"github.com/blevesearch/snowballstem/turkish"
)

// MaxStemBytes bounds the length of a word that is stemmed: longer words
// (no natural-language word is that long; think base64 or URLs glued into
// text) are only lower-cased. Snowball rewrites the word string as it goes,
// so this keeps the cost of one call bounded.
const MaxStemBytes = 128

// Stemmer reduces a word to its stem. Stem lower-cases the word first, by
// the rules of its language (LowerFunc; invalid UTF-8 becomes U+FFFD), so
// stems are always lower case.
//
// A Stemmer is NOT safe for concurrent use: it holds one Snowball
// environment that each call rewrites. Create one per goroutine with For;
// creating one is cheap.
type Stemmer interface {
	Stem(word string) string
}

// snowball is a Stemmer running one generated Snowball program.
type snowball struct {
	env   *snowballstem.Env
	stem  func(*snowballstem.Env) bool
	lower func(string) string
}

func (s *snowball) Stem(word string) string {
	word = s.lower(word)
	if len(word) > MaxStemBytes {
		return word
	}
	s.env.SetCurrent(word)
	s.stem(s.env)
	return s.env.Current()
}

// algorithms maps ISO 639-1 codes to the Snowball programs shipped by
// github.com/blevesearch/snowballstem v0.9.0. English is Snowball's
// "english" (Porter2), not the original Porter algorithm. Norwegian's
// stemmer is written for Bokmål and is also used for Nynorsk ("nn") and the
// generic "no".
var algorithms = map[string]func(*snowballstem.Env) bool{
	"ar": arabic.Stem,
	"da": danish.Stem,
	"de": german.Stem,
	"en": english.Stem,
	"es": spanish.Stem,
	"fi": finnish.Stem,
	"fr": french.Stem,
	"ga": irish.Stem,
	"hu": hungarian.Stem,
	"it": italian.Stem,
	"nb": norwegian.Stem,
	"nl": dutch.Stem,
	"nn": norwegian.Stem,
	"no": norwegian.Stem,
	"pt": portuguese.Stem,
	"ro": romanian.Stem,
	"ru": russian.Stem,
	"sv": swedish.Stem,
	"ta": tamil.Stem,
	"tr": turkish.Stem,
}

// For returns a new Snowball stemmer for the language with ISO 639-1 code
// lang, or nil when no stemmer exists for it. The code is matched case-
// insensitively and any region or script subtag is ignored ("en-GB",
// "pt_BR" and "EN" all work).
func For(lang string) Stemmer {
	stem, ok := algorithms[baseLang(lang)]
	if !ok {
		return nil
	}
	return &snowball{env: snowballstem.NewEnv(""), stem: stem, lower: LowerFunc(lang)}
}

// LowerFunc returns the function that lower-cases text written in the
// language with ISO 639-1 code lang (matched like For). Turkish ("tr") and
// Azerbaijani ("az") use unicode.TurkishCase, where I becomes dotless ı and
// İ becomes i: "IŞIK" is "ışık", not "işik". Every other language uses
// strings.ToLower. Both turn invalid UTF-8 into U+FFFD.
func LowerFunc(lang string) func(string) string {
	switch baseLang(lang) {
	case "tr", "az":
		return toLowerTurkish
	default:
		return strings.ToLower
	}
}

func toLowerTurkish(s string) string {
	return strings.ToLowerSpecial(unicode.TurkishCase, s)
}

// Languages returns the ISO 639-1 codes that have a stemmer (and a stop-word
// list), sorted. "nb", "nn" and "no" all name the Norwegian stemmer.
func Languages() []string {
	codes := make([]string, 0, len(algorithms))
	for c := range algorithms {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// baseLang reduces a language tag such as "en-GB" or "PT_br" to its
// lower-case primary subtag.
func baseLang(tag string) string {
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	return strings.ToLower(tag)
}
