package index

import (
	"iter"

	"github.com/vokter-go/vokter/internal/textseg"
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
// documentation for what a word is; the rules live in internal/textseg,
// shared with the diff package so that a diff fragment never cuts a token.
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

// scanner yields the tokens of a text one by one, without allocating.
type scanner struct {
	text string
	i    int // next byte to read
	pos  int // position of the next token
}

func (s *scanner) next() (Token, bool) {
	start, end := textseg.NextWord(s.text, s.i)
	if start >= len(s.text) {
		s.i = start
		return Token{}, false
	}
	t := Token{Text: s.text[start:end], Start: start, End: end, Pos: s.pos}
	s.pos++
	s.i = end
	return t, true
}
