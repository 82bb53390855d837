package index

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

func terms(ts []Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Term
	}
	return out
}

var all = Options{IgnoreCase: true, Stopwords: true, Stemming: true}

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []normalizeCase{
		{Options{}, "Houses", "Houses", true},
		{Options{}, "The", "The", true},
		{Options{}, "don’t", "don't", true},
		{Options{}, "", "", false},
		{Options{IgnoreCase: true}, "Houses", "houses", true},
		{Options{IgnoreCase: true}, "The", "the", true},
		{Options{Stopwords: true}, "The", "", false},
		{Options{Stopwords: true}, "Houses", "Houses", true},
		{Options{Stopwords: true}, "Don’t", "", false},
		{Options{Stemming: true}, "Flooding", "flood", true}, // stemming implies lower case
		{Options{Stemming: true}, "The", "the", true},
		{all, "Gods", "god", true},
		{all, "HOUSE", "hous", true},
		{all, "of", "", false},
		{Options{Stemming: true, Language: "de"}, "Häuser", "haus", true},
		{Options{Stemming: true, Stopwords: true, Language: "de"}, "Über", "", false},
		{Options{Stemming: true, Language: "ru"}, "Затоплены", "затопл", true},
		{Options{Stopwords: true, Language: "ru"}, "И", "", false},
		{Options{Stemming: true, Language: "fr-FR"}, "inondées", "inond", true},
		// No stemmer and no stop-words for Greek: lower-cased, final sigma folded.
		{Options{Stemming: true, Stopwords: true, Language: "el"}, "ΟΔΟΣ", "οδοσ", true},
		{Options{IgnoreCase: true, Language: "el"}, "οδος", "οδοσ", true},
		{Options{IgnoreCase: true, Language: "ja"}, "東", "東", true},
		{Options{Stemming: true, Language: "xx"}, "Words", "words", true},
	}
	checkNormalize(t, tests)
}

func TestNormalizerDefaultsToEnglish(t *testing.T) {
	t.Parallel()
	n := NewNormalizer(Options{Stemming: true})
	if got := n.Options().Language; got != "en" {
		t.Errorf("Language = %q, want en", got)
	}
}

func TestKeywordMatchesDocumentTerms(t *testing.T) {
	t.Parallel()
	checkKeywordMatches(t, []matchCase{
		{"en", "god house", "House of the Gods"},
		{"en", "House of the Gods", "the gods' houses"},
		{"en", "flooded streets", "Streets were flooding again"},
		{"de", "Haus Fluss", "Die Häuser am Flusse"},
		{"ru", "река затопила", "реки затопили"},
	}, func(lang string) []Options {
		return []Options{{IgnoreCase: true, Stopwords: true, Stemming: true, Language: lang}}
	})
	n := NewNormalizer(all)
	if a, b := n.TermSet("House of the Gods"), n.TermSet("god house"); !maps.Equal(a, b) {
		t.Errorf("term sets differ: %v vs %v", a, b)
	}
}

func TestTerms(t *testing.T) {
	t.Parallel()
	text := "The Gods’ houses, and the river."
	got := NewNormalizer(all).Terms(text)
	want := []Term{
		{Token{Text: "Gods", Start: 4, End: 8, Pos: 1}, "god"},
		{Token{Text: "houses", Start: 12, End: 18, Pos: 2}, "hous"},
		{Token{Text: "river", Start: 28, End: 33, Pos: 5}, "river"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %+v, want %+v", got, want)
	}
	for _, term := range got {
		if text[term.Start:term.End] != term.Text {
			t.Errorf("term %+v: offsets do not match the text", term)
		}
	}
	// Without options terms are the tokens themselves.
	plain := NewNormalizer(Options{}).Terms(text)
	if len(plain) != len(Tokenize(text)) {
		t.Errorf("plain Terms dropped words: %+v", plain)
	}
}

func TestTermsGreekRussianJapanese(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, text string
		want       []string
	}{
		{"el", "Η ΠΟΛΗ και η πόλη", []string{"η", "πολη", "και", "η", "πόλη"}},
		{"ru", "Реки и реку", []string{"рек", "рек"}},
		{"ja", "東京の雨", []string{"東", "京", "の", "雨"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			t.Parallel()
			n := NewNormalizer(Options{IgnoreCase: true, Stopwords: true, Stemming: true, Language: tt.lang})
			if got := terms(n.Terms(tt.text)); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestStemCacheBoundedAndConsistent(t *testing.T) {
	t.Parallel()
	n := NewNormalizer(Options{Stemming: true})
	var words []string
	for i := range stemCacheSize + 100 {
		words = append(words, fmt.Sprintf("walking%dings", i))
	}
	words = append(words, words[:50]...) // cached and evicted words again
	for _, w := range words {
		got, _ := n.Normalize(w)
		if want := strings.ToLower(n.stemmer.Stem(w)); got != want {
			t.Fatalf("Normalize(%q) = %q, want %q", w, got, want)
		}
		if len(n.cache) > stemCacheSize {
			t.Fatalf("cache holds %d entries, bound is %d", len(n.cache), stemCacheSize)
		}
	}
}

func TestAppendTermsReusesBuffer(t *testing.T) {
	t.Parallel()
	n := NewNormalizer(all)
	buf := n.AppendTerms(nil, "floods and storms")
	buf = n.AppendTerms(buf[:0], "the houses")
	if got := terms(buf); !slices.Equal(got, []string{"hous"}) {
		t.Errorf("AppendTerms = %q", got)
	}
}

// normalizeCase is one word normalised with opts.
type normalizeCase struct {
	opts   Options
	word   string
	want   string
	wantOK bool
}

func checkNormalize(t *testing.T, tests []normalizeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v/%s", tt.opts, tt.word), func(t *testing.T) {
			t.Parallel()
			got, ok := NewNormalizer(tt.opts).Normalize(tt.word)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// matchCase is a keyword whose every term must be among the document's.
type matchCase struct{ lang, keyword, document string }

// checkKeywordMatches checks each case with every Options optsFor gives
// for its language.
func checkKeywordMatches(t *testing.T, tests []matchCase, optsFor func(lang string) []Options) {
	t.Helper()
	for _, tt := range tests {
		for _, opts := range optsFor(tt.lang) {
			t.Run(fmt.Sprintf("%s/%s/%+v", tt.lang, tt.keyword, opts), func(t *testing.T) {
				t.Parallel()
				n := NewNormalizer(opts)
				kw, doc := n.TermSet(tt.keyword), n.TermSet(tt.document)
				if len(kw) == 0 {
					t.Fatal("keyword has no terms")
				}
				for term := range kw {
					if _, ok := doc[term]; !ok {
						t.Errorf("keyword term %q not in document terms %v", term, slices.Sorted(maps.Keys(doc)))
					}
				}
			})
		}
	}
}
