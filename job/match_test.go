package job

import (
	"strings"
	"testing"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/index"
)

func TestSmallestSpan(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
		span string // "" when not found
	}{
		{"zeus and hera", []string{"zeus"}, "zeus"},
		{"zeus far far away hera then zeus hera", []string{"zeus", "hera"}, "zeus hera"},
		{"hera x zeus y y y hera", []string{"zeus", "hera"}, "hera x zeus"},
		{"a b c a", []string{"a", "b", "c"}, "a b c"},
		{"zeus alone", []string{"zeus", "hera"}, ""},
		{"", []string{"zeus"}, ""},
	}
	n := index.NewNormalizer(index.Options{})
	for _, tt := range tests {
		terms := n.Terms(tt.text)
		start, end, ok := smallestSpan(terms, tt.want)
		got := ""
		if ok {
			got = tt.text[start:end]
		}
		if got != tt.span {
			t.Errorf("smallestSpan(%q, %q) = %q, want %q", tt.text, tt.want, got, tt.span)
		}
	}
}

func TestMatchTextIsBounded(t *testing.T) {
	t.Parallel()
	old := "intro"
	new := "intro\nzeus " + strings.Repeat("filler ", 1000) + "hera"
	sub := &subscription{Request: Request{Keywords: []string{"zeus hera"}}}
	mt := newMatcher([]*subscription{sub}, "en")
	diffs := diff.Compute(old, new, nil)
	got := mt.notifications(mt.match(diffs), diffs, old, new, 20)[0]
	if len(got) != 1 || got[0].Text != "zeus … hera" {
		t.Fatalf("matches = %+v", got)
	}
	if s := got[0].Snippet; len(s) > 200 || !strings.Contains(s, "zeus") {
		t.Fatalf("snippet = %q", s)
	}
}
