package diff

import (
	"log/slog"
	"time"
)

// Event says whether a [Diff] was added to or removed from the document.
type Event string

// The two events of a [Diff].
const (
	// Added marks text that is in the new snapshot and not in the old one.
	Added Event = "added"
	// Removed marks text that was in the old snapshot and is not in the new one.
	Removed Event = "removed"
)

// Defaults of [Options].
const (
	// DefaultTimeout bounds the time [Compute] spends aligning two texts.
	DefaultTimeout = time.Second
	// DefaultSnippetChars is the context, in runes on each side, of a snippet.
	DefaultSnippetChars = 50
)

// Diff is one contiguous added or removed fragment of a document.
//
// A Diff made by [Compute] remembers the snapshot its offsets refer to (the
// new text for [Added], the old text for [Removed]), so [Diff.Snippet] can
// show it in context; compare Diffs by their exported fields, not with ==.
type Diff struct {
	Event Event
	// Text is the exact added or removed fragment; it always starts and ends
	// at word boundaries.
	Text string
	// Start is the byte offset of Text in the new text (Added) or in the
	// old text (Removed).
	Start int
	// End is Start + len(Text).
	End int

	src          string // the snapshot Start and End refer to
	snippetChars int    // Options.SnippetChars of the Compute call
}

// Blank reports whether the diff changes only whitespace (spaces, line
// breaks, blank lines). [Compute] reports such diffs because [Apply] needs
// them to rebuild the new text, but they carry no words: callers that show
// or match changes usually skip them.
func (d Diff) Blank() bool { return isBlank(d.Text) }

// Snippet returns the diff in its context in the snapshot it comes from
// (the new text for [Added], the old text for [Removed]), with about n
// runes on each side, as [Snippet] does. n <= 0 means the SnippetChars of
// the [Options] given to [Compute], [DefaultSnippetChars] by default.
//
// A Diff that was not made by Compute (or whose fields were changed so that
// they no longer match its snapshot) has no context: its snippet is its own
// Text, cleaned the same way.
func (d Diff) Snippet(n int) string {
	if n <= 0 {
		n = d.snippetChars
	}
	if d.src != "" && 0 <= d.Start && d.Start <= d.End && d.End <= len(d.src) && d.src[d.Start:d.End] == d.Text {
		return Snippet(d.src, d.Start, d.End, n)
	}
	return Snippet(d.Text, 0, len(d.Text), n)
}

// Options tunes [Compute]. The zero value (or a nil *Options) gives the
// defaults.
type Options struct {
	// Timeout bounds the alignment work: Myers' algorithm may use half of
	// it, and the rest of the work is linear. Past that half, Compute
	// returns a coarser diff (whole changed lines between the lines found
	// once in each text) that is still exact: [Apply] rebuilds the new text
	// from it. Values <= 0 mean the default. Defaults to [DefaultTimeout].
	Timeout time.Duration
	// SnippetChars is the context used by [Diff.Snippet] when it is called
	// with n <= 0. Values <= 0 mean the default. Defaults to
	// [DefaultSnippetChars].
	SnippetChars int
	// LinesOnly skips the word pass: every diff is then made of whole
	// lines. Defaults to false (changed lines are refined word by word).
	LinesOnly bool
	// Logger receives a warning when Timeout cut the work short. Defaults
	// to discarding.
	Logger *slog.Logger
}

// withDefaults returns a copy of o (which may be nil) with every default
// filled in.
func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.SnippetChars <= 0 {
		c.SnippetChars = DefaultSnippetChars
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Compute returns the differences that turn old into new, in document
// order: each [Removed] fragment with its offsets in old, each [Added]
// fragment with its offsets in new; where text was replaced, the Removed
// diff comes first. Equal texts give nil. A nil opts means the defaults.
//
// Texts are compared line by line first, then the changed lines word by
// word (see the package documentation), so every fragment starts and ends
// at a word boundary. Compute never fails: past opts.Timeout the result is
// coarser but still exact, so Apply(old, Compute(old, new, opts)) == new
// always holds.
func Compute(old, new string, opts *Options) []Diff {
	if old == new {
		return nil
	}
	o := opts.withDefaults()
	c := newComputer(old, new, o)
	regions := c.run()
	if c.degraded {
		o.Logger.Warn("diff: timeout reached, result is coarser",
			slog.Duration("timeout", o.Timeout), slog.Int("old_bytes", len(old)), slog.Int("new_bytes", len(new)))
	}
	return c.diffs(regions, o.SnippetChars)
}
