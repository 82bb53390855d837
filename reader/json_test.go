package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"scalar", `"hello  world"`, "hello world"},
		{"number kept as written", `{"n": 1.50, "big": 12345678901234567890, "e": 1e3}`, "big: 12345678901234567890\ne: 1e3\nn: 1.50"},
		{"keys sorted", `{"b": 1, "a": 2, "C": 3}`, "C: 3\na: 2\nb: 1"},
		{"nested", `{"a": {"b": {"c": [true, false, null]}}}`, "a.b.c[]: true\na.b.c[]: false\na.b.c[]: null"},
		{"odd keys quoted", `{"a.b": 1, "": 2, "x y": 3, "k:v": 4}`, "[\"\"]: 2\n[\"a.b\"]: 1\n[\"k:v\"]: 4\n[\"x y\"]: 3"},
		{"empty containers", `{"o": {}, "a": []}`, "a: []\no: {}"},
		{"empty root", `{}`, "{}"},
		{"array of objects", `[{"id": 2, "a": "x"}, {"id": 1}]`, "[].a: x\n[].id: 2\n[].id: 1"},
		{"arrays keep document order", `{"b": [3, 1, [2, {"z": 0, "y": []}]], "a": null}`, "a: null\nb[]: 3\nb[]: 1\nb[][]: 2\nb[][].y: []\nb[][].z: 0"},
		{"unsorted objects in unsorted objects", `{"z": {"b": 1, "a": [{"d": 1, "c": 2}, 5]}, "y": 0}`, "y: 0\nz.a[].c: 2\nz.a[].d: 1\nz.a[]: 5\nz.b: 1"},
		{"surrogate pair", `"\ud83d\ude00"`, "😀"},
		{"lone surrogates", `["\ud83d x", "\ud83d\u0041", "\ude00"]`, "[]: \uFFFD x\n[]: \uFFFDA\n[]: \uFFFD"},
		{"escapes", `{"a\u0020b": "q\"\\\/\b\f\n\r\tz"}`, "[\"a b\"]: q\"\\/ z"},
		{"top-level white space string", `"  "`, ""},
		{"concatenated values", `1 "a"[2]{"k":true}`, "1\na\n[]: 2\nk: true"},
		{"newlines in values", `{"t": "line1\nline2\t end"}`, "t: line1 line2 end"},
		{"duplicate keys keep order", `{"k": 1, "k": 2}`, "k: 1\nk: 2"},
		{"unicode", `{"город": "Москва", "emoji": "\ud83d\ude00"}`, "emoji: 😀\nгород: Москва"},
		{"empty strings", `{"e": "", "s": " "}`, "e:\ns:"},
		{"empty string at the top", `""`, ""},
		{"json lines", "{\"a\": 1}\n{\"a\": 2}\n", "a: 1\na: 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := jsonReader{}.Read(context.Background(), []byte(tt.in), ReadParams{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJSONDepth(t *testing.T) {
	t.Parallel()
	nest := func(n int) []byte {
		b := make([]byte, 0, 2*n+1)
		for range n {
			b = append(b, '[')
		}
		b = append(b, '1')
		for range n {
			b = append(b, ']')
		}
		return b
	}
	if _, err := (jsonReader{}).Read(context.Background(), nest(MaxJSONDepth), ReadParams{}); err != nil {
		t.Errorf("depth %d: %v", MaxJSONDepth, err)
	}
	if _, err := (jsonReader{}).Read(context.Background(), nest(MaxJSONDepth+1), ReadParams{}); !errors.Is(err, ErrTooDeep) {
		t.Errorf("depth %d: err = %v, want ErrTooDeep", MaxJSONDepth+1, err)
	}
}

func TestJSONMalformed(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"a": 1`, `[1,]`, `{"a" 1}`, `{"a":1,}`, `[1 2]`, `{1: 2}`, `tru`, `nul`, `01`, `1.`, `-`, `1e`, `+1`,
		`"abc`, "\"a\x01b\"", `"\u12"`, `"\x"`, `[`, `]`, `}`, `{"a":}`, `truefalse`, `[1]]`,
	} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			if json.Valid([]byte(in)) {
				t.Fatalf("test input %q is valid JSON", in)
			}
			if got, err := (jsonReader{}).Read(context.Background(), []byte(in), ReadParams{}); !errors.Is(err, ErrMalformed) {
				t.Errorf("Read(%q) = %q, %v; want ErrMalformed", in, got, err)
			}
		})
	}
}

// feedJSON returns a JSON feed {"items": [...]} with one object per title.
func feedJSON(titles []string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items": [`)
	for i, title := range titles {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"title": %q, "body": "Story about %s", "tags": ["a", "b"]}`, title, title)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// An item inserted at the front of an array adds its own lines and leaves
// every other line as it was, so a diff shows one insertion.
func TestJSONInsertIsLocal(t *testing.T) {
	t.Parallel()
	var titles []string
	for i := range 500 {
		titles = append(titles, fmt.Sprintf("Headline %d", i))
	}
	read := func(titles []string) string {
		t.Helper()
		text, err := jsonReader{}.Read(context.Background(), feedJSON(titles), ReadParams{})
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	old := read(titles)
	inserted := read([]string{"Temple reopened"})
	if got := read(append([]string{"Temple reopened"}, titles...)); got != inserted+"\n"+old {
		t.Errorf("front insert changed other lines:\n%.300s", got)
	}
	lines := func(s string) int { return strings.Count(s, "\n") + 1 }
	if got := read(slices.Insert(slices.Clone(titles), 250, "Temple reopened")); lines(got) != lines(old)+lines(inserted) || !strings.Contains(got, inserted) {
		t.Errorf("middle insert: %d lines, want %d", lines(got), lines(old)+lines(inserted))
	}
}

func TestJSONLimits(t *testing.T) {
	t.Parallel()
	ones := func(n int) []byte {
		return []byte("[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]")
	}
	longKey := strings.Repeat("k", 1000)
	tests := []struct {
		name  string
		body  []byte
		limit string // in the error message; "" when the body must read
	}{
		{"values at the limit", ones(MaxJSONValues), ""},
		{"values over the limit", ones(MaxJSONValues + 1), strconv.Itoa(MaxJSONValues)},
		{"values over the limit in JSON Lines", bytes.Repeat([]byte("1\n"), MaxJSONValues+1), strconv.Itoa(MaxJSONValues)},
		{"text over the limit", []byte(`{"` + longKey + `":` + string(ones(MaxJSONText/len(longKey))) + "}"), strconv.Itoa(MaxJSONText)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text, err := jsonReader{}.Read(context.Background(), tt.body, ReadParams{})
			switch {
			case tt.limit == "" && err != nil:
				t.Fatal(err)
			case tt.limit == "":
				if n := strings.Count(text, "\n") + 1; n != MaxJSONValues {
					t.Errorf("%d lines, want %d", n, MaxJSONValues)
				}
			case !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.limit):
				t.Errorf("err = %v, want ErrTooLarge naming %s", err, tt.limit)
			}
		})
	}
}
