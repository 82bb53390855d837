package diff

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens. Both passes cut a text into tokens that cover it without gaps and
// describe them by their bounds: bounds[k] and bounds[k+1] are the byte
// offsets where token k starts and ends.
//
// The line pass cuts after every '\n' (a CRLF line ends with "\r\n"; the
// last line may have no terminator).
//
// The word pass cuts into words, whitespace runs and single other runes:
//   - a word is a run of letters, numbers, combining marks and '_', where an
//     apostrophe or a period between two letters ("don't", "e.g") and a
//     period, comma or apostrophe between two digits ("3.14", "1,000") do not
//     end the word; Han ideographs and Hiragana, which are written without
//     spaces, are one word per character (as in Unicode word segmentation,
//     UAX #29), Katakana runs stay together;
//   - a maximal run of Unicode whitespace is one token;
//   - any other rune (punctuation, symbols) and any byte that is not valid
//     UTF-8 is a token of its own.
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
		r, n := utf8.DecodeRuneInString(s[i:])
		j := i + n
		switch {
		case unicode.IsSpace(r):
			for j < hi {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsSpace(r) {
					break
				}
				j += n
			}
		case isWord(r):
			for j < hi {
				if c := s[j]; c < utf8.RuneSelf && s[j-1] < utf8.RuneSelf && isWord(rune(s[j-1])) {
					// ASCII fast path: a word byte continues the word, any
					// other byte but a joining punctuation ends it.
					if isWord(rune(c)) {
						j++
						continue
					}
					if c != '\'' && c != '.' && c != ',' {
						break
					}
				}
				if !inWord(s, j) {
					break
				}
				_, n := utf8.DecodeRuneInString(s[j:])
				j += n
			}
		}
		dst = append(dst, j)
		i = j
	}
	return dst
}

// inWord reports whether byte offset p of s lies inside a word, that is
// strictly between two runes of the same word, so that no token may start
// or end there.
func inWord(s string, p int) bool {
	if p <= 0 || p >= len(s) {
		return false
	}
	r1, n1 := utf8.DecodeLastRuneInString(s[:p])
	r2, n2 := utf8.DecodeRuneInString(s[p:])
	w1, w2 := isWord(r1), isWord(r2)
	switch {
	case w1 && w2:
		return unicode.IsMark(r2) || (!isSingleton(r1) && !isSingleton(r2))
	case w1 && p+n2 < len(s):
		r3, _ := utf8.DecodeRuneInString(s[p+n2:])
		return joinsMid(r1, r2, r3)
	case w2 && p-n1 > 0:
		r0, _ := utf8.DecodeLastRuneInString(s[:p-n1])
		return joinsMid(r0, r1, r2)
	}
	return false
}

// isWord reports whether r can be part of a word.
func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// isSingleton reports whether r is a word by itself: scripts written
// without spaces between words, where a character is the safest cut.
func isSingleton(r rune) bool {
	return r >= 0x3040 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r))
}

// joinsMid reports whether the punctuation m between the word runes a and b
// belongs to the word: "don't", "e.g", "3.14", "1,000".
func joinsMid(a, m, b rune) bool {
	letters := unicode.IsLetter(a) && unicode.IsLetter(b) && !isSingleton(a) && !isSingleton(b)
	digits := unicode.IsNumber(a) && unicode.IsNumber(b)
	switch m {
	case '\'', '\u2019', '.':
		return letters || digits
	case ',':
		return digits
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
