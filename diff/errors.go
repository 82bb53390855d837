package diff

import "errors"

// ErrInconsistent is returned (wrapped, with the index of the offending diff
// and the reason) by [Apply] when the diffs do not fit the old text: offsets
// out of range or out of order, an End that is not Start+len(Text), an
// unknown [Event], or a Removed text that differs from the old text at its
// offsets.
var ErrInconsistent = errors.New("diff: inconsistent diffs")
