package diff

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vokter-go/vokter/internal/textseg"
)

// Tokens. Every pass cuts a text into tokens that cover it without gaps and
// describes them by their bounds: bounds[k] and bounds[k+1] are the byte
// offsets where token k starts and ends.
//
// The line pass cuts after every '\n' (a CRLF line ends with "\r\n"; the
// last line may have no terminator).
//
// The segment pass cuts long changed blocks into sentences and short runs
// of words, at word-pass token boundaries (see segmentBounds).
//
// The word pass cuts into words, whitespace runs and single other runes:
//   - a word is a word of the index tokenizer (internal/textseg), so that
//     no fragment ever cuts a token the index sees as whole; a period
//     between two letters or two digits ("e.g", "3.14") and a comma between
//     two digits ("1,000") also join two such words into one, which only
//     makes fragments coarser than index tokens, never finer;
//   - a maximal run of Unicode whitespace is one token;
//   - any other rune (punctuation, symbols, a combining mark that follows
//     no word) and any byte that is not valid UTF-8 is a token of its own.
//
// Snippets use the same word boundaries, through inWord.

// lineBounds returns the bounds of the lines of s[lo:hi], appended to dst.
func lineBounds(dst []int, s string, lo, hi int) []int {
	dst = append(dst, lo)
	for i := lo; i < hi; {
		if j := strings.IndexByte(s[i:hi], '\n'); j >= 0 {
			i += j + 1
		} else {
			i = hi
		}
		dst = append(dst, i)
	}
	return dst
}

// wordBounds returns the bounds of the word-pass tokens of s[lo:hi],
// appended to dst. lo and hi must be token boundaries of s (line starts and
// the ends of s are).
func wordBounds(dst []int, s string, lo, hi int) []int {
	s = s[:hi]
	dst = append(dst, lo)
	for i := lo; i < hi; {
		i, _ = tokenEnd(s, i)
		dst = append(dst, i)
	}
	return dst
}

// tokenKind tells what a word-pass token is made of.
type tokenKind uint8

const (
	tokenWord  tokenKind = iota // a word, CJK characters included
	tokenSpace                  // a run of whitespace
	tokenOther                  // one other rune, or one invalid byte
)

// tokenEnd returns the end of the word-pass token that starts at s[i], and
// its kind.
func tokenEnd(s string, i int) (int, tokenKind) {
	if c := s[i]; c < utf8.RuneSelf {
		switch {
		case textseg.IsASCIIWord(c):
			return wordEnd(s, i), tokenWord
		case c == ' ' || '\t' <= c && c <= '\r':
			return spaceEnd(s, i+1), tokenSpace
		}
		return i + 1, tokenOther
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsSpace(r):
		return spaceEnd(s, i+n), tokenSpace
	case textseg.IsCJK(r):
		return textseg.SkipMarks(s, i+n), tokenWord
	case textseg.IsWordStart(r):
		return wordEnd(s, i), tokenWord
	}
	return i + n, tokenOther
}

// spaceEnd returns the end of the whitespace run that goes on at s[i].
func spaceEnd(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c == ' ' || c == '\n' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// wordEnd returns the end of the word-pass word that starts at s[i] (a
// word character that is not CJK): index words joined by the periods and
// commas that joinsAt accepts.
func wordEnd(s string, i int) int {
	for {
		j := textseg.WordEnd(s, i)
		if j+1 >= len(s) || (s[j] != '.' && s[j] != ',') || !joinsAt(s, j) {
			return j
		}
		i = j + 1
	}
}

// joinsAt reports whether the period or comma s[j] joins the runes around
// it into one word: a period between two letters ("e.g") or two digits
// ("3.14"), a comma between two digits ("1,000"). CJK characters are words
// by themselves and never join.
func joinsAt(s string, j int) bool {
	if j <= 0 || j+1 >= len(s) {
		return false
	}
	a, _ := utf8.DecodeLastRuneInString(s[:j])
	b, _ := utf8.DecodeRuneInString(s[j+1:])
	digits := unicode.IsDigit(a) && unicode.IsDigit(b)
	if s[j] == ',' {
		return digits
	}
	letters := unicode.IsLetter(a) && unicode.IsLetter(b) && !textseg.IsCJK(a) && !textseg.IsCJK(b)
	return s[j] == '.' && (letters || digits)
}

// inWord reports whether byte offset p of s lies inside a word-pass word,
// where no token may start or end.
func inWord(s string, p int) bool {
	if p <= 0 || p >= len(s) {
		return false
	}
	if textseg.Inside(s, p) {
		return true
	}
	switch {
	case s[p] == '.' || s[p] == ',':
		return joinsAt(s, p)
	case s[p-1] == '.' || s[p-1] == ',':
		return joinsAt(s, p-1)
	}
	return false
}

// isBlank reports whether s holds only whitespace.
func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// Segments. A long changed block is first compared segment by segment, so
// that the word pass only sees the few segments that changed. A segment
// ends after a line break, after sentence-ending punctuation, or after a
// word whose hash is a multiple of segmentHash: cuts that depend only on
// the text around them, so that an edit moves no cut but its own
// neighbours' and the segments of both texts line up again right after it.
const (
	segmentMinWords = 4        // no cut before this many words
	segmentMaxWords = 64       // always a cut after this many words
	segmentHash     = 16       // one content-defined cut per this many words, on average
	segmentMinBytes = 16 << 10 // blocks up to this size go to the word pass directly
)

// segmentBounds returns the bounds of the segments of s[lo:hi]; lo and hi
// must be word-pass token boundaries.
func segmentBounds(s string, lo, hi int) []int {
	s = s[:hi]
	bounds := []int{lo}
	words := 0
	for i := lo; i < hi; {
		j, kind := tokenEnd(s, i)
		cut := false
		switch kind {
		case tokenWord:
			words++
			cut = words >= segmentMaxWords || words >= segmentMinWords && hash(s[i:j])%segmentHash == 0
		case tokenSpace:
			cut = strings.IndexByte(s[i:j], '\n') >= 0
		case tokenOther:
			cut = words >= segmentMinWords && isSentenceEnd(s[i:j])
		}
		if cut && j < hi {
			bounds = append(bounds, j)
			words = 0
		}
		i = j
	}
	return append(bounds, hi)
}

// isSentenceEnd reports whether the one-rune token tok ends a sentence.
func isSentenceEnd(tok string) bool {
	switch tok {
	case ".", "!", "?", ";", "。", "！", "？", "；":
		return true
	}
	return false
}

// hash is FNV-1a, 32 bits.
func hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}
