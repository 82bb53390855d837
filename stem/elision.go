package stem

import "strings"

// ElisionList is an immutable set of the elided articles, pronouns and
// conjunctions of one language: the "l" of French "l'homme" or the "dell" of
// Italian "dell'acqua". A nil *ElisionList elides nothing: its methods are
// safe to call.
type ElisionList struct {
	prefixes map[string]struct{}
}

// maxElisionBytes is the length of the longest elided word of any list
// ("jusqu", "lorsqu", "puisqu", "quoiqu"). Strip looks no further into a
// word for the apostrophe, so its cost does not grow with the word.
const maxElisionBytes = 6

// elisions maps ISO 639-1 codes to their elided words, which are followed by
// an apostrophe in text. The lists are the defaults of Apache Lucene's
// French, Italian, Catalan and Irish analyzers.
var elisions = map[string]*ElisionList{
	"ca": newElisionList("d", "l", "m", "n", "s", "t"),
	"fr": newElisionList("c", "d", "j", "l", "m", "n", "qu", "s", "t",
		"jusqu", "lorsqu", "puisqu", "quoiqu"),
	"ga": newElisionList("b", "d", "m"),
	"it": newElisionList("c", "d", "l", "m", "s", "t", "v", "un",
		"all", "coll", "dall", "dell", "nell", "pell", "sull",
		"gl", "agl", "dagl", "degl", "negl", "sugl"),
}

func newElisionList(prefixes ...string) *ElisionList {
	e := &ElisionList{prefixes: make(map[string]struct{}, len(prefixes))}
	for _, p := range prefixes {
		e.prefixes[p] = struct{}{}
	}
	return e
}

// Elisions returns the elision list of the language with ISO 639-1 code
// lang (matched like For: case-insensitive, region ignored), or nil for a
// language that elides nothing. Lists exist for French (fr), Italian (it),
// Catalan (ca) and Irish (ga). The list is shared: it is immutable.
func Elisions(lang string) *ElisionList {
	return elisions[baseLang(lang)]
}

// Strip returns word without its elided prefix: "l'homme", "L’Europe" and
// "jusqu'ici" become "homme", "Europe" and "ici" in French. The prefix ends
// at the first apostrophe, ' (U+0027) or ’ (U+2019), and is matched case-
// insensitively; only one prefix is removed, and a word with nothing after
// its apostrophe ("l'") is returned unchanged, as is a word whose prefix is
// not in the list ("aujourd'hui").
func (e *ElisionList) Strip(word string) string {
	if e == nil {
		return word
	}
	var buf [maxElisionBytes]byte
	for i := 0; i < len(word) && i <= maxElisionBytes; i++ {
		c := word[i]
		var rest string
		switch {
		case c == '\'':
			rest = word[i+1:]
		case strings.HasPrefix(word[i:], "\u2019"):
			rest = word[i+len("\u2019"):]
		case c >= 'A' && c <= 'Z' && i < maxElisionBytes:
			buf[i] = c + 'a' - 'A'
			continue
		case c >= 'a' && c <= 'z' && i < maxElisionBytes:
			buf[i] = c
			continue
		default:
			// Every listed prefix is ASCII letters: anything else, or a
			// run longer than the longest prefix, cannot be one.
			return word
		}
		if _, ok := e.prefixes[string(buf[:i])]; ok && rest != "" {
			return rest
		}
		return word
	}
	return word
}

// Len returns the number of elided words in the list.
func (e *ElisionList) Len() int {
	if e == nil {
		return 0
	}
	return len(e.prefixes)
}
