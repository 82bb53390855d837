package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// MaxJSONDepth is the deepest nesting of arrays and objects the JSON reader
// accepts; deeper documents fail with [ErrTooDeep].
const MaxJSONDepth = 1000

// jsonReader flattens JSON into one "path: value" line per scalar, with
// object keys sorted so that the text does not change when a server
// reorders keys. Several top-level values (JSON Lines) are read in turn.
type jsonReader struct{}

// jsonNode is one decoded JSON value.
type jsonNode struct {
	key   string      // member name inside an object
	value string      // scalar as text; "{}" or "[]" for containers
	kids  []*jsonNode // members or elements
	obj   bool        // an object: kids are sorted by key
	arr   bool
}

// Read implements [Reader].
func (jsonReader) Read(ctx context.Context, body []byte, _ ReadParams) (string, error) {
	roots, err := decodeJSON(ctx, body)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range roots {
		writeJSON(&b, r)
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// decodeJSON builds the trees of all top-level values of body from the
// decoder's token stream, with an explicit stack instead of recursion.
func decodeJSON(ctx context.Context, body []byte) ([]*jsonNode, error) {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var roots []*jsonNode
	var stack []*jsonNode // open containers
	key, haveKey := "", false
	for n := 1; ; n++ {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.Token()
		if errors.Is(err, io.EOF) && len(stack) == 0 {
			return roots, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: json at byte %d: %v", ErrMalformed, d.InputOffset(), err)
		}
		parent := (*jsonNode)(nil)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		// Inside an object a string token alternates between key and value.
		if s, ok := tok.(string); ok && parent != nil && parent.obj && !haveKey {
			key, haveKey = s, true
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		node := &jsonNode{key: key}
		key, haveKey = "", false
		switch t := tok.(type) {
		case json.Delim: // '{' or '['
			if len(stack) >= MaxJSONDepth {
				return nil, fmt.Errorf("%w: json nested deeper than %d", ErrTooDeep, MaxJSONDepth)
			}
			node.obj, node.arr = t == '{', t == '['
		case string:
			node.value = collapse(t)
		case json.Number:
			node.value = t.String()
		case bool:
			node.value = strconv.FormatBool(t)
		case nil:
			node.value = "null"
		}
		if parent == nil {
			roots = append(roots, node)
		} else {
			parent.kids = append(parent.kids, node)
		}
		if node.obj || node.arr {
			stack = append(stack, node)
		}
	}
}

// writeJSON writes the lines of one top-level value in document order, object
// members sorted by key (stable for duplicate keys).
func writeJSON(b *strings.Builder, root *jsonNode) {
	type frame struct {
		n    *jsonNode
		path string
	}
	stack := []frame{{n: root}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := f.n
		if !n.obj && !n.arr || len(n.kids) == 0 {
			value := n.value
			switch {
			case n.obj:
				value = "{}"
			case n.arr:
				value = "[]"
			}
			switch {
			case f.path == "" && value == "":
				continue // an empty string at the top: no line at all
			case f.path == "":
				b.WriteString(value)
			case value == "":
				b.WriteString(f.path)
				b.WriteByte(':')
			default:
				b.WriteString(f.path)
				b.WriteString(": ")
				b.WriteString(value)
			}
			b.WriteByte('\n')
			continue
		}
		if n.obj {
			slices.SortStableFunc(n.kids, func(x, y *jsonNode) int { return strings.Compare(x.key, y.key) })
		}
		// Push in reverse so that the first child is written first.
		for i := len(n.kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{n: n.kids[i], path: childPath(f.path, n, i)})
		}
	}
}

// childPath returns the path of the i-th child of n: parent.key for
// identifier-like keys, parent["odd key"] otherwise, parent[i] in arrays.
func childPath(parent string, n *jsonNode, i int) string {
	if n.arr {
		return parent + "[" + strconv.Itoa(i) + "]"
	}
	k := n.kids[i].key
	if plainKey(k) {
		if parent == "" {
			return k
		}
		return parent + "." + k
	}
	return parent + "[" + strconv.Quote(k) + "]"
}

// plainKey reports whether a key can be written bare in a path: not empty
// and free of the characters that structure paths and lines.
func plainKey(k string) bool {
	return k != "" && !strings.ContainsFunc(k, func(r rune) bool {
		return r == '.' || r == '[' || r == ']' || r == '"' || r == ':' || isSpace(r)
	})
}
