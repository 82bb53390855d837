package reader

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Bounds of the JSON reader. A document that is well-formed but needs more
// fails with [ErrTooLarge] (values, text) or [ErrTooDeep] (nesting).
const (
	// MaxJSONDepth is the deepest nesting of arrays and objects accepted.
	MaxJSONDepth = 1000
	// MaxJSONValues is the most lines (scalar values and empty arrays or
	// objects) one body may produce.
	MaxJSONValues = 1 << 20
	// MaxJSONText is the most bytes of text one body may produce: paths are
	// repeated on every line, so the text can be much longer than the body.
	MaxJSONText = 32 << 20
)

// jsonReader flattens JSON into one "path: value" line per scalar. Object
// members are sorted by key, so that the text does not change when a server
// reorders keys; array elements keep their order and their paths carry no
// index ("items[].title"), so that an element inserted at the front of an
// array adds lines instead of renaming every later one. Several top-level
// values (JSON Lines) are read in turn.
type jsonReader struct{}

// Read implements [Reader].
func (jsonReader) Read(ctx context.Context, body []byte, _ ReadParams) (string, error) {
	j := jsonText{body: body, roots: jsonSeq{-1, -1}}
	if err := j.run(ctx); err != nil {
		return "", err
	}
	return j.String(), nil
}

// The reader scans the body once and appends each line to out as it comes,
// in document order. Sorting object members must not copy their text again
// (a deep document would copy its innermost lines once per level), so the
// final order is kept as linked lists of ranges of out: closing an object
// sorts its members and chains their lists, O(members).

// jsonRange is a run of whole lines out[start:end]; next is the index of the
// following range in the same list, -1 at its end.
type jsonRange struct{ start, end, next int32 }

// jsonSeq is a list of ranges: the text of a value or of a container so far.
type jsonSeq struct{ head, tail int32 }

// jsonMember is one member of an open object: its key (keys[off:off+n]) and
// its value's text.
type jsonMember struct {
	off, n int
	seq    jsonSeq
}

// jsonFrame is an open array or object.
type jsonFrame struct {
	obj     bool
	base    int          // len(path) of the container's own path; for arrays it includes "[]"
	keys    int          // len(keys) when the object was opened
	seq     jsonSeq      // arrays: the elements so far
	members []jsonMember // objects: the members so far, in document order
}

// jsonText is the state of one read.
type jsonText struct {
	body    []byte
	i       int // next byte of body
	out     []byte
	ranges  []jsonRange
	roots   jsonSeq
	frames  []jsonFrame // open containers; reused, with their member slices
	path    []byte      // path of the value being read
	keys    []byte      // decoded keys of the open objects' members
	scratch []byte      // a decoded string
	lines   int
}

// run reads every top-level value of the body.
func (j *jsonText) run(ctx context.Context) error {
	for {
		j.skipSpace()
		if len(j.frames) == 0 && j.i == len(j.body) {
			return nil
		}
		if err := j.value(); err != nil {
			return err
		}
		if j.lines%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := j.afterValue(); err != nil {
			return err
		}
	}
}

// value reads one value; a container is opened and read up to its first
// value, so that value returns after exactly one line (or none for an empty
// top-level string).
func (j *jsonText) value() error {
	for {
		if j.i == len(j.body) {
			return j.malformed("unexpected end of input")
		}
		switch c := j.body[j.i]; c {
		case '{', '[':
			j.i++
			j.skipSpace()
			closing := byte(']')
			if c == '{' {
				closing = '}'
			}
			if j.i < len(j.body) && j.body[j.i] == closing {
				j.i++
				return j.line([]byte{c, closing}, false)
			}
			if err := j.open(c == '{'); err != nil {
				return err
			}
			j.skipSpace()
		case '"':
			s, err := j.str()
			if err != nil {
				return err
			}
			return j.line(s, true)
		default:
			start := j.i
			if err := j.scalar(); err != nil {
				return err
			}
			return j.line(j.body[start:j.i], false)
		}
	}
}

// open pushes a new array or object, reusing the memory of the last frame
// at that depth, and reads an object's first key.
func (j *jsonText) open(obj bool) error {
	n := len(j.frames)
	if n >= MaxJSONDepth {
		return fmt.Errorf("%w: json nested deeper than %d", ErrTooDeep, MaxJSONDepth)
	}
	if !obj {
		j.path = append(j.path, "[]"...)
	}
	if n < cap(j.frames) {
		j.frames = j.frames[:n+1]
	} else {
		j.frames = append(j.frames, jsonFrame{})
	}
	f := &j.frames[n]
	f.obj, f.base, f.keys, f.seq, f.members = obj, len(j.path), len(j.keys), jsonSeq{-1, -1}, f.members[:0]
	if obj {
		return j.key()
	}
	return nil
}

// afterValue reads the commas, keys and closing brackets that follow a
// value, up to the start of the next value.
func (j *jsonText) afterValue() error {
	for len(j.frames) > 0 {
		j.skipSpace()
		if j.i == len(j.body) {
			return j.malformed("unexpected end of input")
		}
		f := &j.frames[len(j.frames)-1]
		switch c := j.body[j.i]; {
		case c == ',':
			j.i++
			if f.obj {
				return j.key()
			}
			j.path = j.path[:f.base]
			return nil
		case f.obj && c == '}', !f.obj && c == ']':
			j.i++
			j.close()
		default:
			return j.malformed("expected ',' or end of container")
		}
	}
	return nil
}

// key reads an object member's key and its colon, and sets the path of the
// member's value.
func (j *jsonText) key() error {
	f := &j.frames[len(j.frames)-1]
	j.skipSpace()
	if j.i == len(j.body) || j.body[j.i] != '"' {
		return j.malformed("expected object key")
	}
	k, err := j.str()
	if err != nil {
		return err
	}
	j.skipSpace()
	if j.i == len(j.body) || j.body[j.i] != ':' {
		return j.malformed("expected ':' after object key")
	}
	j.i++
	f.members = append(f.members, jsonMember{off: len(j.keys), n: len(k), seq: jsonSeq{-1, -1}})
	j.keys = append(j.keys, k...)
	j.path = j.path[:f.base]
	switch {
	case !plainKey(k):
		j.path = append(j.path, '[')
		j.path = strconv.AppendQuote(j.path, string(k))
		j.path = append(j.path, ']')
	case f.base == 0:
		j.path = append(j.path, k...)
	default:
		j.path = append(j.path, '.')
		j.path = append(j.path, k...)
	}
	return nil
}

// close ends the innermost container: an object's members are sorted by key
// (stably: duplicate keys keep their order) and their lists chained; the
// container's text joins its parent's.
func (j *jsonText) close() {
	f := &j.frames[len(j.frames)-1]
	seq := f.seq
	if f.obj {
		keyOf := func(m jsonMember) []byte { return j.keys[m.off : m.off+m.n] }
		cmp := func(a, b jsonMember) int { return bytes.Compare(keyOf(a), keyOf(b)) }
		if !slices.IsSortedFunc(f.members, cmp) {
			slices.SortStableFunc(f.members, cmp)
		}
		for _, m := range f.members {
			j.chain(&seq, m.seq)
		}
		j.keys = j.keys[:f.keys]
	}
	j.frames = j.frames[:len(j.frames)-1]
	j.path = j.path[:j.parentBase()]
	j.chain(j.current(), seq)
}

// parentBase returns the path length of the innermost open container, 0 at
// the top level.
func (j *jsonText) parentBase() int {
	if len(j.frames) == 0 {
		return 0
	}
	return j.frames[len(j.frames)-1].base
}

// current returns the list that the next line belongs to.
func (j *jsonText) current() *jsonSeq {
	if len(j.frames) == 0 {
		return &j.roots
	}
	f := &j.frames[len(j.frames)-1]
	if f.obj {
		return &f.members[len(f.members)-1].seq
	}
	return &f.seq
}

// chain appends list t to list s.
func (j *jsonText) chain(s *jsonSeq, t jsonSeq) {
	switch {
	case t.head < 0:
	case s.head < 0:
		*s = t
	default:
		j.ranges[s.tail].next = t.head
		s.tail = t.tail
	}
}

// line writes "path: value" (value collapsed to one line when collapse is
// set) and adds it to the current list. The path alone ends in ":" when the
// value is empty; a top-level value is written without a path, and a
// top-level empty string not at all.
func (j *jsonText) line(value []byte, collapse bool) error {
	if j.lines++; j.lines > MaxJSONValues {
		return fmt.Errorf("%w: json has more than %d values", ErrTooLarge, MaxJSONValues)
	}
	if len(j.out)+len(j.path)+len(value)+3 > MaxJSONText {
		return fmt.Errorf("%w: json text longer than %d bytes", ErrTooLarge, MaxJSONText)
	}
	start := len(j.out)
	if len(j.path) > 0 {
		j.out = append(j.out, j.path...)
		j.out = append(j.out, ':')
	}
	mark := len(j.out)
	if len(j.path) > 0 {
		j.out = append(j.out, ' ')
	}
	if collapse {
		j.out = appendCollapsed(j.out, value)
	} else {
		j.out = append(j.out, value...)
	}
	if len(j.out) == mark+1 && len(j.path) > 0 {
		j.out = j.out[:mark] // "path:" for an empty value
	} else if len(j.out) == start {
		return nil // a top-level string of white space
	}
	j.out = append(j.out, '\n')

	s := j.current()
	if s.tail >= 0 && j.ranges[s.tail].end == int32(start) {
		// Only the range that ends where out ends can end at start, and the
		// new line follows it in s too: extend it.
		j.ranges[s.tail].end = int32(len(j.out))
		return nil
	}
	j.ranges = append(j.ranges, jsonRange{start: int32(start), end: int32(len(j.out)), next: -1})
	j.chain(s, jsonSeq{int32(len(j.ranges) - 1), int32(len(j.ranges) - 1)})
	return nil
}

// String returns the lines in their final order, without a trailing newline.
func (j *jsonText) String() string {
	var b strings.Builder
	b.Grow(len(j.out))
	for r := j.roots.head; r >= 0; r = j.ranges[r].next {
		b.Write(j.out[j.ranges[r].start:j.ranges[r].end])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// appendCollapsed appends s to dst as one line, with runs of white space
// collapsed to one space and none at either end.
func appendCollapsed(dst, s []byte) []byte {
	space, started := false, false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(s[i:])
		}
		if isSpace(r) {
			space = true
		} else {
			if space && started {
				dst = append(dst, ' ')
			}
			space, started = false, true
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return dst
}

func (j *jsonText) skipSpace() {
	for j.i < len(j.body) {
		switch j.body[j.i] {
		case ' ', '\t', '\n', '\r':
			j.i++
		default:
			return
		}
	}
}

func (j *jsonText) malformed(msg string) error {
	return fmt.Errorf("%w: json at byte %d: %s", ErrMalformed, j.i, msg)
}

// str reads a string starting at its opening quote and returns its decoded
// value: a slice of the body when it has no escapes, else of j.scratch.
func (j *jsonText) str() ([]byte, error) {
	j.i++ // the opening quote
	start := j.i
	for j.i < len(j.body) {
		switch c := j.body[j.i]; {
		case c == '"':
			j.i++
			return j.body[start : j.i-1], nil
		case c == '\\':
			return j.escapedStr(start)
		case c < 0x20:
			return nil, j.malformed("control character in string")
		}
		j.i++
	}
	return nil, j.malformed("unterminated string")
}

// escapedStr decodes the rest of a string that has escapes; the string's
// content started at start and j.i is at its first backslash.
func (j *jsonText) escapedStr(start int) ([]byte, error) {
	out := append(j.scratch[:0], j.body[start:j.i]...)
	defer func() { j.scratch = out[:0] }()
	for j.i < len(j.body) {
		c := j.body[j.i]
		switch {
		case c == '"':
			j.i++
			return out, nil
		case c < 0x20:
			return nil, j.malformed("control character in string")
		case c != '\\':
			out = append(out, c)
			j.i++
			continue
		}
		if j.i+1 >= len(j.body) {
			break
		}
		e := j.body[j.i+1]
		j.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := j.hex4()
			if !ok {
				return nil, j.malformed("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r = j.lowSurrogate(r)
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, j.malformed("bad escape")
		}
	}
	return nil, j.malformed("unterminated string")
}

// lowSurrogate reads the \u escape that completes the surrogate pair
// starting with hi and returns the pair's rune. Without one it reads nothing
// and returns U+FFFD for the lone half, as encoding/json does.
func (j *jsonText) lowSurrogate(hi rune) rune {
	save := j.i
	if j.i+1 < len(j.body) && j.body[j.i] == '\\' && j.body[j.i+1] == 'u' {
		j.i += 2
		if lo, ok := j.hex4(); ok {
			if r := utf16.DecodeRune(hi, lo); r != utf8.RuneError {
				return r
			}
		}
	}
	j.i = save
	return utf8.RuneError
}

// hex4 reads the four hex digits of a \u escape.
func (j *jsonText) hex4() (rune, bool) {
	if j.i+4 > len(j.body) {
		return 0, false
	}
	var r rune
	for _, c := range j.body[j.i : j.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	j.i += 4
	return r, true
}

// scalar reads a number or a literal (true, false, null), which must be
// followed by white space, a comma, a closing bracket or the end.
func (j *jsonText) scalar() error {
	b := j.body
	switch {
	case bytes.HasPrefix(b[j.i:], []byte("true")):
		j.i += 4
	case bytes.HasPrefix(b[j.i:], []byte("false")):
		j.i += 5
	case bytes.HasPrefix(b[j.i:], []byte("null")):
		j.i += 4
	default:
		if !j.number() {
			return j.malformed("invalid value")
		}
	}
	if j.i < len(b) {
		switch b[j.i] {
		case ' ', '\t', '\n', '\r', ',', ']', '}':
		default:
			return j.malformed("invalid character after value")
		}
	}
	return nil
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func (j *jsonText) number() bool {
	b, i := j.body, j.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() bool {
		k := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > k
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	j.i = i
	return true
}

// plainKey reports whether a key can be written bare in a path: not empty
// and free of the characters that structure paths and lines.
func plainKey(k []byte) bool {
	return len(k) > 0 && !bytes.ContainsFunc(k, func(r rune) bool {
		return r == '.' || r == '[' || r == ']' || r == '"' || r == ':' || isSpace(r)
	})
}
