package index

import (
	"iter"
	"unicode"
	"unicode/utf8"
)

// Token is one word of a text.
type Token struct {
	// Text is the word exactly as it appears: text[Start:End].
	Text string
	// Start and End are byte offsets [Start, End) into the tokenized text.
	Start, End int
	// Pos is the 0-based position of the token among all tokens of the text.
	Pos int
}

// Tokenize splits text into words with their byte offsets. See the package
// documentation for what a word is.
func Tokenize(text string) []Token {
	// One token per ~6 bytes is typical of prose; growing past it is cheap.
	return AppendTokens(make([]Token, 0, len(text)/6+1), text)
}

// AppendTokens appends the tokens of text to dst and returns the extended
// slice, so that a caller can reuse one buffer across texts. Positions start
// at 0 for every text.
func AppendTokens(dst []Token, text string) []Token {
	for tok := range Tokens(text) {
		dst = append(dst, tok)
	}
	return dst
}

// Tokens returns an iterator over the tokens of text, as Tokenize would
// return them, without collecting them.
func Tokens(text string) iter.Seq[Token] {
	return func(yield func(Token) bool) {
		s := scanner{text: text}
		for {
			tok, ok := s.next()
			if !ok || !yield(tok) {
				return
			}
		}
	}
}

// asciiWord marks the ASCII bytes that are word characters.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return t
}()

const (
	zwnj       = '\u200c' // zero width non-joiner, inside Persian and Indic words
	zwj        = '\u200d' // zero width joiner, inside Indic words and emoji
	rightQuote = '\u2019' // typographic apostrophe
)

// scanner yields the tokens of a text one by one, without allocating.
type scanner struct {
	text string
	i    int // next byte to read
	pos  int // position of the next token
}

func (s *scanner) next() (Token, bool) {
	text, i := s.text, s.i
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			if asciiWord[c] {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if isCJK(r) {
			// One token per ideograph or kana, with any combining marks
			// (dakuten) that follow it.
			return s.emit(i, skipMarks(text, i+size)), true
		}
		if isWordStart(r) {
			break
		}
		i += size // separator; invalid bytes decode as RuneError of size 1
	}
	if i >= len(text) {
		s.i = i
		return Token{}, false
	}
	return s.emit(i, wordEnd(text, i)), true
}

func (s *scanner) emit(start, end int) Token {
	t := Token{Text: s.text[start:end], Start: start, End: end, Pos: s.pos}
	s.pos++
	s.i = end
	return t
}

// wordEnd returns the end of the word starting at i: letters, digits and
// combining marks, plus apostrophes and zero-width joiners that sit between
// two word characters.
func wordEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case asciiWord[c]:
				i++
			case c == '\'' && startsWord(text, i+1):
				i++
			default:
				return i
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJK(r):
			return i
		case isWordStart(r), isMark(r):
			i += size
		case (r == rightQuote || r == zwnj || r == zwj) && startsWord(text, i+size):
			i += size
		default:
			return i
		}
	}
	return i
}

// startsWord reports whether a word character that continues a word (not a
// CJK character) begins at text[i].
func startsWord(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	if c := text[i]; c < utf8.RuneSelf {
		return asciiWord[c]
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return isWordStart(r) && !isCJK(r)
}

func skipMarks(text string, i int) int {
	for i < len(text) && text[i] >= utf8.RuneSelf {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isMark(r) {
			break
		}
		i += size
	}
	return i
}

// isWordStart reports whether r can start a word: a letter or a decimal
// digit of any script.
func isWordStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// isMark reports whether r is a combining mark that belongs to the word
// before it (accents, Devanagari and Thai vowel signs).
func isMark(r rune) bool {
	return unicode.In(r, unicode.Mn, unicode.Mc)
}

// isCJK reports whether r is written without spaces between words and is
// tokenized one character at a time: Han ideographs, Hiragana, Katakana,
// and the Katakana prolonged sound marks (which Unicode assigns to no
// script).
func isCJK(r rune) bool {
	if r < 0x2e80 {
		return false
	}
	return r == '\u30fc' || r == '\uff70' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}
