package reader

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/andybalholm/cascadia"
)

// DefaultMaxBytes is the default body limit (10 MiB).
const DefaultMaxBytes = 10 << 20

// Options scope and filter what [Registry.Read] returns. The zero value (or a
// nil *Options) reads the whole document with the default limit.
type Options struct {
	Selector string   // CSS selector (github.com/andybalholm/cascadia): keep only the matching elements' text (HTML/XHTML only). Empty = whole document.
	Ignore   []string // regular expressions (RE2) applied to each line of the text on its own; text matching any of them is removed from the output (e.g. dates, counters).
	MaxBytes int64    // body limit; Defaults to DefaultMaxBytes. Over the limit → error wrapping ErrTooLarge, never silent truncation.
}

// Validate reports whether o can be used: every Ignore pattern must compile
// as RE2, Selector must parse as a CSS selector group and MaxBytes must not
// be negative. The error wraps [ErrInvalidOptions] and names the field. A nil
// *Options is valid.
func (o *Options) Validate() error {
	_, err := o.compile()
	return err
}

// plan is an Options value compiled once per read.
type plan struct {
	selector cascadia.Matcher // nil: whole document
	ignore   []ignorePattern
	maxBytes int64
}

func (o *Options) compile() (*plan, error) {
	p := &plan{maxBytes: DefaultMaxBytes}
	if o == nil {
		return p, nil
	}
	switch {
	case o.MaxBytes < 0:
		return nil, &OptionError{Field: "MaxBytes", Value: strconv.FormatInt(o.MaxBytes, 10)}
	case o.MaxBytes > 0:
		p.maxBytes = o.MaxBytes
	}
	if strings.TrimSpace(o.Selector) != "" {
		sel, err := cascadia.ParseGroup(o.Selector)
		if err != nil {
			return nil, &OptionError{Field: "Selector", Value: o.Selector, Err: err}
		}
		p.selector = sel
	}
	for i, pat := range o.Ignore {
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, &OptionError{Field: "Ignore[" + strconv.Itoa(i) + "]", Value: pat, Err: err}
		}
		p.ignore = append(p.ignore, newIgnorePattern(re))
	}
	return p, nil
}

// ignorePattern is a compiled Ignore pattern with the literal strings that
// every match contains: a line without them is skipped at the cost of a
// substring search instead of a regular expression run, which is what most
// lines of a page cost (a pattern like \d+ views has no literal prefix for
// regexp to search for).
type ignorePattern struct {
	re   *regexp.Regexp
	lits []string
}

func newIgnorePattern(re *regexp.Regexp) ignorePattern {
	p := ignorePattern{re: re}
	if tree, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		p.lits = requiredLiterals(nil, tree)
	}
	return p
}

// requiredLiterals appends to lits the case-sensitive literal strings that
// every match of re contains.
func requiredLiterals(lits []string, re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return append(lits, string(re.Rune))
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			lits = requiredLiterals(lits, sub)
		}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(lits, re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(lits, re.Sub[0])
		}
	}
	return lits
}

// mayMatch reports whether line holds every required literal of p.
func (p ignorePattern) mayMatch(line string) bool {
	for _, lit := range p.lits {
		if !strings.Contains(line, lit) {
			return false
		}
	}
	return true
}

// filter removes the ignored patterns from text, one line at a time. A line
// that changed is re-collapsed (the removal may leave double spaces) and
// dropped when nothing visible is left; other lines are kept as they are.
func (p *plan) filter(text string) string {
	if len(p.ignore) == 0 || text == "" {
		return text
	}
	var out strings.Builder
	out.Grow(len(text))
	first := true
	for line := range strings.SplitSeq(text, "\n") {
		kept := line
		for _, ig := range p.ignore {
			if ig.mayMatch(kept) {
				kept = ig.re.ReplaceAllLiteralString(kept, "")
			}
		}
		if kept != line {
			kept = collapse(kept)
			if kept == "" {
				continue
			}
		}
		if !first {
			out.WriteByte('\n')
		}
		first = false
		out.WriteString(kept)
	}
	return out.String()
}
