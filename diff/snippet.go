package diff

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Snippet returns text[start:end] in its context: about n runes (Unicode
// code points, not bytes) of text on each side, n <= 0 meaning
// [DefaultSnippetChars].
//
// The context is cut at word boundaries (the same ones as [Compute]'s word
// pass): a word that the n-rune window would cut is left out, never shown
// in part. Every run of whitespace, line breaks included, becomes one
// space, and the snippet is trimmed, so it is one clean line; bytes that
// are not valid UTF-8 become U+FFFD. The span itself is always shown whole,
// however long it is.
//
// Offsets out of range are clamped to the text, an end before start is
// taken as start, and offsets inside a multi-byte rune are widened to the
// whole rune.
func Snippet(text string, start, end, n int) string {
	if n <= 0 {
		n = DefaultSnippetChars
	}
	start = min(max(start, 0), len(text))
	end = min(max(end, start), len(text))
	start = runeStart(text, start)
	if r := runeStart(text, end); r < end {
		_, size := utf8.DecodeRuneInString(text[r:])
		end = r + size
	}

	from := start
	for i := 0; i < n && from > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(text[:from])
		from -= size
	}
	for from < start && inWord(text, from) { // drop the partial word
		_, size := utf8.DecodeRuneInString(text[from:])
		from += size
	}
	to := end
	for i := 0; i < n && to < len(text); i++ {
		_, size := utf8.DecodeRuneInString(text[to:])
		to += size
	}
	for to > end && inWord(text, to) {
		_, size := utf8.DecodeLastRuneInString(text[:to])
		to -= size
	}
	return clean(text[from:to])
}

// runeStart returns the start of the valid UTF-8 sequence that byte
// offset p of s lies inside, or p when it lies inside none.
func runeStart(s string, p int) int {
	for q := p - 1; q >= 0 && q > p-utf8.UTFMax; q-- {
		if utf8.RuneStart(s[q]) {
			if _, size := utf8.DecodeRuneInString(s[q:]); q+size > p {
				return q
			}
			break
		}
	}
	return p
}

// clean collapses every whitespace run of s into one space, trims it, and
// replaces invalid UTF-8 with U+FFFD.
func clean(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s { // ranging over a string yields U+FFFD for invalid bytes
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
