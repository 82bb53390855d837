package reader

import (
	"strings"
	"unicode/utf8"
)

// lineWriter builds line-shaped text: runs of whitespace (and control
// characters) inside a line collapse to one space, lines carry no leading or
// trailing space, and empty lines are never written. Diffs of such text stay
// stable when only a page's markup or indentation changes.
type lineWriter struct {
	b       strings.Builder
	space   bool // whitespace seen since the last visible character of this line
	hasText bool // the current line has a visible character
}

// WriteString appends s to the current line, collapsing its whitespace.
// Runs of visible characters are copied at once: this is the hot loop of
// every reader.
func (w *lineWriter) WriteString(s string) {
	for i := 0; i < len(s); {
		r, size := nextRune(s, i)
		switch {
		case isSpace(r):
			w.space = true
			i += size
			continue
		case r == utf8.RuneError && size == 1:
			w.visible()
			w.b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		j := i + size
		for j < len(s) {
			r, size = nextRune(s, j)
			if isSpace(r) || (r == utf8.RuneError && size == 1) {
				break
			}
			j += size
		}
		w.visible()
		w.b.WriteString(s[i:j])
		i = j
	}
}

// nextRune decodes the rune at s[i], with a fast path for ASCII.
func nextRune(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// visible prepares for a visible character: a newline when it starts a new
// line, a single space when whitespace preceded it on this line.
func (w *lineWriter) visible() {
	if w.hasText {
		if w.space {
			w.b.WriteByte(' ')
		}
	} else if w.b.Len() > 0 {
		w.b.WriteByte('\n')
	}
	w.hasText = true
	w.space = false
}

// separate separates words without ending the line (table cells).
func (w *lineWriter) separate() { w.space = true }

// breakLine ends the current line; the next visible character starts a new
// one. Repeated breaks never make empty lines.
func (w *lineWriter) breakLine() {
	w.hasText = false
	w.space = false
}

// String returns the text written so far, without a trailing newline.
func (w *lineWriter) String() string { return w.b.String() }

// isSpace reports whether r separates words: Unicode white space (including
// no-break and ideographic spaces), control characters, and the invisible
// zero-width space and byte order mark. It spells out the White_Space
// property (which is stable) because it runs once per character.
func isSpace(r rune) bool {
	if r < 0x100 {
		return r <= ' ' || (r >= 0x7f && r <= 0xa0) // C0, space, DEL, C1, NBSP
	}
	switch {
	case r >= 0x2000 && r <= 0x200b, // en quad ... hair space, zero-width space
		r == 0x1680, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f,
		r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

// collapse returns s as one line with its whitespace collapsed.
func collapse(s string) string {
	var w lineWriter
	w.WriteString(s)
	return w.String()
}

// isBlank reports whether s has no visible character.
func isBlank(s string) bool {
	for _, r := range s {
		if !isSpace(r) {
			return false
		}
	}
	return true
}
