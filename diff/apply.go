package diff

import (
	"fmt"
	"strings"
)

// Apply rebuilds the new text from the old text and the diffs that
// [Compute] returned for them, so Apply(old, Compute(old, new, nil)) ==
// new. It uses only the exported fields: the text between two diffs is
// taken to be equal in both snapshots, which the offsets determine.
//
// Diffs must be in document order (as Compute returns them): the Removed
// offsets increasing in old, the Added offsets increasing in new. Apply
// returns an error wrapping [ErrInconsistent] when they are not, when an
// offset is out of range, when End != Start+len(Text), when an Event is
// unknown, or when a Removed Text is not what old holds at its offsets.
func Apply(old string, diffs []Diff) (string, error) {
	var out strings.Builder
	out.Grow(len(old))
	posOld, posNew := 0, 0 // where the next equal run starts in old and new
	for i, d := range diffs {
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%w: diff %d (%s at %d:%d): %s", ErrInconsistent, i, d.Event, d.Start, d.End, fmt.Sprintf(format, args...))
		}
		if d.Start < 0 || d.End != d.Start+len(d.Text) {
			return "", bad("offsets do not match a text of %d bytes", len(d.Text))
		}
		switch d.Event {
		case Removed:
			if d.Start < posOld || d.End > len(old) {
				return "", bad("outside the old text range [%d, %d]", posOld, len(old))
			}
			if old[d.Start:d.End] != d.Text {
				return "", bad("text differs from the old text")
			}
			out.WriteString(old[posOld:d.Start])
			posNew += d.Start - posOld
			posOld = d.End
		case Added:
			if d.Start < posNew || posOld+d.Start-posNew > len(old) {
				return "", bad("out of order or beyond the old text (new offset %d)", posNew)
			}
			gap := d.Start - posNew
			out.WriteString(old[posOld : posOld+gap])
			posOld += gap
			out.WriteString(d.Text)
			posNew = d.End
		default:
			return "", bad("unknown event %q", d.Event)
		}
	}
	out.WriteString(old[posOld:])
	return out.String(), nil
}
