package index

import (
	"iter"
	"strings"

	"github.com/vokter-go/vokter/stem"
)

// DefaultLanguage is the language of a Normalizer whose Options.Language is
// empty: English.
const DefaultLanguage = "en"

// stemCacheSize bounds a Normalizer's stem cache. A page has a few thousand
// distinct words, so most stems are computed once per page; when the cache
// is full it is emptied, which keeps memory bounded without bookkeeping.
const stemCacheSize = 8192

// Options selects how words are normalised into terms. The same Options must
// be used for documents and for the keywords matched against them.
type Options struct {
	// IgnoreCase lower-cases terms, by the rules of Language (see
	// stem.LowerFunc: Turkish casing for "tr" and "az", strings.ToLower
	// otherwise).
	IgnoreCase bool
	// Stopwords drops the stop-words of Language.
	Stopwords bool
	// Stemming reduces words to their Snowball stem in Language. Stems are
	// lower case, so stemming implies case-insensitive terms.
	Stemming bool
	// Language is the ISO 639-1 code of the text ("en", "de", "ru").
	// Defaults to DefaultLanguage. Languages without a stemmer or stop-word
	// list (see stem.Languages) are only lower-cased when Stemming is set.
	// Language also selects the elided articles stripped from words
	// (stem.Elisions: "l'" of "l'homme" in French, Italian, Catalan and
	// Irish), and the casing rules.
	Language string
}

// Normalizer turns words into terms according to its Options.
//
// A Normalizer is NOT safe for concurrent use: it holds a stemmer and a
// stem cache. It is cheap to create: make one per goroutine.
type Normalizer struct {
	opts     Options
	stop     *stem.StopList      // nil unless opts.Stopwords and the language has a list
	stemmer  stem.Stemmer        // nil unless opts.Stemming and the language has a stemmer
	elisions *stem.ElisionList   // nil unless the language elides articles
	lower    func(string) string // the language's lower-casing
	cache    map[string]string
}

// NewNormalizer returns a Normalizer for opts.
func NewNormalizer(opts Options) *Normalizer {
	if opts.Language == "" {
		opts.Language = DefaultLanguage
	}
	n := &Normalizer{
		opts:     opts,
		elisions: stem.Elisions(opts.Language),
		lower:    stem.LowerFunc(opts.Language),
	}
	if opts.Stopwords {
		n.stop = stem.Stopwords(opts.Language)
	}
	if opts.Stemming {
		n.stemmer = stem.For(opts.Language)
	}
	return n
}

// Options returns the options of n, with defaults applied.
func (n *Normalizer) Options() Options {
	return n.opts
}

// Normalize returns the term for word, a single token as produced by
// Tokenize. ok is false, and term empty, when word is empty or, with
// Options.Stopwords, a stop-word (checked on the lower-cased word, so "The"
// is one).
//
// Whatever the options, the typographic apostrophe U+2019 is replaced by
// U+0027, so "don’t" and "don't" are the same term, and in a language that
// elides articles (stem.Elisions) the elided prefix is removed before the
// stop-word check and stemming, so French "l'homme" and "L’Homme" give the
// terms of "homme", and "qu'il" is the stop-word "il". With IgnoreCase or
// Stemming the term is lower case, and the Greek final sigma ς is folded to
// σ, so that upper-case Greek ("ΟΔΟΣ") and lower-case ("οδος") agree.
func (n *Normalizer) Normalize(word string) (term string, ok bool) {
	if word == "" {
		return "", false
	}
	apostrophe, finalSigma := scanFolds(word)
	if apostrophe {
		word = strings.ReplaceAll(word, "\u2019", "'")
	}
	if n.elisions != nil {
		word = n.elisions.Strip(word)
	}
	fold := n.opts.IgnoreCase || n.opts.Stemming
	if !fold && !n.opts.Stopwords {
		return word, true
	}
	lower := n.lower(word)
	if n.stop.Contains(lower) {
		return "", false
	}
	if !fold {
		return word, true
	}
	if finalSigma {
		// Lower-casing maps Σ to σ and never yields ς, so checking the
		// original word is enough.
		lower = strings.ReplaceAll(lower, "ς", "σ")
	}
	if n.stemmer == nil {
		return lower, true
	}
	return n.stem(lower), true
}

// scanFolds reports, in one pass over the bytes, whether word holds the
// typographic apostrophe U+2019 (E2 80 99) or the Greek final sigma U+03C2
// (CF 82). Most words are ASCII and need neither.
func scanFolds(word string) (apostrophe, finalSigma bool) {
	for i := 0; i+1 < len(word); i++ {
		switch word[i] {
		case 0xe2:
			apostrophe = apostrophe || i+2 < len(word) && word[i+1] == 0x80 && word[i+2] == 0x99
		case 0xcf:
			finalSigma = finalSigma || word[i+1] == 0x82
		}
	}
	return apostrophe, finalSigma
}

// stem returns the stem of the lower-cased word, from the cache when it can.
func (n *Normalizer) stem(lower string) string {
	if s, ok := n.cache[lower]; ok {
		return s
	}
	s := n.stemmer.Stem(lower)
	if n.cache == nil || len(n.cache) >= stemCacheSize {
		n.cache = make(map[string]string, stemCacheSize)
	}
	// Words are usually substrings of a whole page: clone them so the cache
	// does not keep the page alive.
	key := strings.Clone(lower)
	if s == lower {
		s = key
	} else {
		s = strings.Clone(s)
	}
	n.cache[key] = s
	return s
}

// Term is a token with its normalised form.
type Term struct {
	Token
	// Term is the normalised word (see Normalizer.Normalize).
	Term string
}

// Terms tokenizes text and normalises each token, dropping stop-words.
// Token positions are those of Tokenize: they count the dropped stop-words,
// so gaps show where words were removed.
func (n *Normalizer) Terms(text string) []Term {
	// Size for one term per 6 bytes, as Tokenize does: regrowing a slice of
	// tens of thousands of terms costs more than the slack.
	return n.AppendTerms(make([]Term, 0, len(text)/6+1), text)
}

// AppendTerms appends the terms of text to dst and returns the extended
// slice, so that a caller can reuse one buffer across texts.
func (n *Normalizer) AppendTerms(dst []Term, text string) []Term {
	for t := range n.All(text) {
		dst = append(dst, t)
	}
	return dst
}

// All returns an iterator over the terms of text, as Terms would return
// them, without collecting them.
func (n *Normalizer) All(text string) iter.Seq[Term] {
	return func(yield func(Term) bool) {
		for tok := range Tokens(text) {
			if term, ok := n.Normalize(tok.Text); ok && !yield(Term{Token: tok, Term: term}) {
				return
			}
		}
	}
}

// TermSet returns the distinct terms of text, for matching where order does
// not matter: with Stopwords, Stemming and IgnoreCase in English, "House of
// the Gods" and "god house" give the same set.
func (n *Normalizer) TermSet(text string) map[string]struct{} {
	set := make(map[string]struct{})
	for t := range n.All(text) {
		set[t.Term] = struct{}{}
	}
	return set
}
