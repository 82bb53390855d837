package textseg

import (
	"unicode"
	"unicode/utf8"
)

// asciiWord marks the ASCII bytes that are word characters.
var asciiWord = [utf8.RuneSelf]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'A': true, 'B': true, 'C': true, 'D': true, 'E': true, 'F': true, 'G': true, 'H': true, 'I': true,
	'J': true, 'K': true, 'L': true, 'M': true, 'N': true, 'O': true, 'P': true, 'Q': true, 'R': true,
	'S': true, 'T': true, 'U': true, 'V': true, 'W': true, 'X': true, 'Y': true, 'Z': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true, 'g': true, 'h': true, 'i': true,
	'j': true, 'k': true, 'l': true, 'm': true, 'n': true, 'o': true, 'p': true, 'q': true, 'r': true,
	's': true, 't': true, 'u': true, 'v': true, 'w': true, 'x': true, 'y': true, 'z': true,
}

const (
	zwnj       = '\u200c' // zero width non-joiner, inside Persian and Indic words
	zwj        = '\u200d' // zero width joiner, inside Indic words and emoji
	rightQuote = '\u2019' // typographic apostrophe
)

// IsASCIIWord reports whether the ASCII byte c is a word character (a
// letter or a digit). It is false for every byte >= utf8.RuneSelf.
func IsASCIIWord(c byte) bool { return c < utf8.RuneSelf && asciiWord[c] }

// IsWordStart reports whether r can start a word: a letter or a decimal
// digit of any script. CJK characters (see [IsCJK]) are letters too, but
// form words of one character.
func IsWordStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// IsMark reports whether r is a combining mark that belongs to the word
// before it (accents, Devanagari and Thai vowel signs).
func IsMark(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Mc)
}

// IsCJK reports whether r is written without spaces between words and is
// a word by itself: Han ideographs, Hiragana, Katakana, and the Katakana
// prolonged sound marks (which Unicode assigns to no script).
func IsCJK(r rune) bool {
	if r < 0x2e80 {
		return false
	}
	return r == '\u30fc' || r == '\uff70' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// isJoiner reports whether r belongs to a word when a word character
// follows it and one precedes it.
func isJoiner(r rune) bool {
	return r == '\'' || r == rightQuote || r == zwnj || r == zwj
}

// StartsWord reports whether a word character that continues a word (not
// a CJK character) begins at text[i].
func StartsWord(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	if c := text[i]; c < utf8.RuneSelf {
		return asciiWord[c]
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return IsWordStart(r) && !IsCJK(r)
}

// WordEnd returns the end of the word that starts at text[i] (a word
// character that is not CJK): letters, digits and combining marks, plus
// apostrophes and zero-width joiners that sit between two word characters.
func WordEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case asciiWord[c]:
				i++
			case c == '\'' && StartsWord(text, i+1):
				i++
			default:
				return i
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case IsCJK(r):
			return i
		case IsWordStart(r), IsMark(r):
			i += size
		case isJoiner(r) && StartsWord(text, i+size):
			i += size
		default:
			return i
		}
	}
	return i
}

// SkipMarks returns the offset of the first rune at or after text[i] that
// is not a combining mark.
func SkipMarks(text string, i int) int {
	for i < len(text) && text[i] >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !IsMark(r) {
			break
		}
		i += size
	}
	return i
}

// NextWord returns the bounds of the first word of text that starts at or
// after byte offset i. When there is none, start and end are len(text).
func NextWord(text string, i int) (start, end int) {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiWord[c] {
				return i, WordEnd(text, i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if IsCJK(r) {
			return i, SkipMarks(text, i+size)
		}
		if IsWordStart(r) {
			return i, WordEnd(text, i)
		}
		i += size // separator; invalid bytes decode as RuneError of size 1
	}
	return len(text), len(text)
}

// Inside reports whether byte offset p of text lies strictly inside a
// word, where [NextWord] would never start or end one. It looks only at
// the runes around p (and back over any combining marks before it), so it
// costs the same anywhere in a text.
func Inside(text string, p int) bool {
	if p <= 0 || p >= len(text) {
		return false
	}
	r1, n1 := utf8.DecodeLastRuneInString(text[:p])
	r2, n2 := utf8.DecodeRuneInString(text[p:])
	switch {
	case IsMark(r2):
		return endsToken(text, p, true)
	case IsWordStart(r2) && !IsCJK(r2):
		return endsToken(text, p, false) || isJoiner(r1) && endsToken(text, p-n1, false)
	case isJoiner(r2):
		return endsToken(text, p, false) && StartsWord(text, p+n2)
	}
	return false
}

// endsToken reports whether text[:p] ends inside a word: with a word
// character, or with combining marks that follow one. CJK characters count
// only when cjk is true (a word never continues after one).
func endsToken(text string, p int, cjk bool) bool {
	for p > 0 {
		r, n := utf8.DecodeLastRuneInString(text[:p])
		switch {
		case IsMark(r):
			p -= n
		case IsCJK(r):
			return cjk
		default:
			return IsWordStart(r)
		}
	}
	return false
}
