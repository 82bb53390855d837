package reader

import (
	"slices"
	"testing"
)

// TestIgnoreLiterals: the literal prefilter skips only lines that cannot
// match, whatever the pattern's shape.
func TestIgnoreLiterals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, text, want string
		lits                []string
	}{
		{`\d+ views`, "12 views\nno match\n3 views left", "no match\nleft", []string{" views"}},
		{`(?i)updated \d\d:\d\d`, "UPDATED 10:42 news\nupdated 09:00", "news", nil},
		{`(ab)+c?`, "xabab\nxbc", "x\nxbc", []string{"ab"}},
		{`a{2,}|b`, "aab\nbb\nc", "c", nil},
		{`^\[ad\]`, "[ad] one\ntwo [ad]", "one\ntwo [ad]", []string{"[ad]"}},
		{`x\z`, "ax\nbx\nxa", "a\nb\nxa", []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			t.Parallel()
			p, err := (&Options{Ignore: []string{tt.pattern}}).compile()
			if err != nil {
				t.Fatal(err)
			}
			if got := p.ignore[0].lits; !slices.Equal(got, tt.lits) {
				t.Errorf("literals = %q, want %q", got, tt.lits)
			}
			if got := p.filter(tt.text); got != tt.want {
				t.Errorf("filter = %q, want %q", got, tt.want)
			}
		})
	}
}
