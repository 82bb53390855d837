package reader

import (
	"context"
	"errors"
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
		{"nested", `{"a": {"b": {"c": [true, false, null]}}}`, "a.b.c[0]: true\na.b.c[1]: false\na.b.c[2]: null"},
		{"odd keys quoted", `{"a.b": 1, "": 2, "x y": 3, "k:v": 4}`, "[\"\"]: 2\n[\"a.b\"]: 1\n[\"k:v\"]: 4\n[\"x y\"]: 3"},
		{"empty containers", `{"o": {}, "a": []}`, "a: []\no: {}"},
		{"empty root", `{}`, "{}"},
		{"array of objects", `[{"id": 2}, {"id": 1}]`, "[0].id: 2\n[1].id: 1"},
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
