package diff

import (
	"errors"
	"testing"
)

func TestApply(t *testing.T) {
	t.Parallel()
	const old = "one two three"
	tests := []struct {
		name  string
		diffs []Diff
		want  string
	}{
		{"no diffs", nil, old},
		{"replace", []Diff{{Event: Removed, Text: "two", Start: 4, End: 7}, {Event: Added, Text: "2", Start: 4, End: 5}}, "one 2 three"},
		{"added first at the same place", []Diff{{Event: Added, Text: "2", Start: 4, End: 5}, {Event: Removed, Text: "two", Start: 4, End: 7}}, "one 2 three"},
		{"insert at start and end", []Diff{{Event: Added, Text: ">", Start: 0, End: 1}, {Event: Added, Text: "<", Start: 14, End: 15}}, ">one two three<"},
		{"remove everything", []Diff{{Event: Removed, Text: old, Start: 0, End: len(old)}}, ""},
		{"equal runs inferred", []Diff{{Event: Removed, Text: "one ", Start: 0, End: 4}, {Event: Added, Text: "!", Start: 9, End: 10}}, "two three!"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Apply(old, tt.diffs)
			if err != nil || got != tt.want {
				t.Errorf("Apply = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestApplyInconsistent(t *testing.T) {
	t.Parallel()
	const old = "one two three"
	tests := []struct {
		name  string
		diffs []Diff
	}{
		{"removed text differs", []Diff{{Event: Removed, Text: "owt", Start: 4, End: 7}}},
		{"end not start+len", []Diff{{Event: Removed, Text: "two", Start: 4, End: 8}}},
		{"negative start", []Diff{{Event: Added, Text: "x", Start: -1, End: 0}}},
		{"removed beyond old", []Diff{{Event: Removed, Text: "three!", Start: 8, End: 14}}},
		{"removed out of order", []Diff{{Event: Removed, Text: "three", Start: 8, End: 13}, {Event: Removed, Text: "one", Start: 0, End: 3}}},
		{"removed overlapping", []Diff{{Event: Removed, Text: "two", Start: 4, End: 7}, {Event: Removed, Text: "o", Start: 6, End: 7}}},
		{"added out of order", []Diff{{Event: Added, Text: "b", Start: 5, End: 6}, {Event: Added, Text: "a", Start: 1, End: 2}}},
		{"added beyond old", []Diff{{Event: Added, Text: "x", Start: 20, End: 21}}},
		{"unknown event", []Diff{{Event: "changed", Text: "two", Start: 4, End: 7}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Apply(old, tt.diffs)
			if !errors.Is(err, ErrInconsistent) {
				t.Errorf("Apply = %q, %v; want ErrInconsistent", got, err)
			}
		})
	}
}
