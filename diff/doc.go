// Package diff computes the differences between two snapshots of a document
// as added and removed spans, with byte offsets into the old and new texts
// and snippets of context cut at word boundaries.
//
// [Compute] returns the [Diff]s that turn the old text into the new one, in
// document order: [Removed] fragments with their offsets in the old text,
// [Added] fragments with their offsets in the new text. [Apply] rebuilds the
// new text from the old one and the diffs; [Diff.Snippet] and [Snippet]
// show a fragment, or any span such as a keyword match inside it, in its
// context.
//
// # Algorithm
//
// The texts lose their common first and last lines, then are compared line
// by line, then each block of changed lines (some lines removed and some
// added at the same place) is compared word by word. Both passes map each
// distinct line or token to one rune and align the rune sequences with
// Myers' algorithm from github.com/sergi/go-diff (diffmatchpatch), so a
// fragment is always made of whole lines or whole tokens and never cuts a
// word. Tokens found on one side only are left out of the alignment (they
// cannot match): this keeps unrelated texts cheap.
//
// Word-pass tokens are words, whitespace runs and single other characters.
// A word is a run of letters, digits, combining marks and '_', including an
// apostrophe or a period between two letters ("don't", "e.g") and a period,
// comma or apostrophe between two digits ("19.1", "1,000"). Han ideographs
// and Hiragana, written without spaces, are one word per character (as in
// Unicode word segmentation, UAX #29); Katakana runs stay whole.
//
// Each alignment is then cleaned up so that it reads like a human edit:
//   - changes separated by an equal run that is smaller, in non-blank tokens
//     (lines in the line pass, words in the word pass), than both of them
//     are merged, so a rewritten sentence is one removal and one addition
//     rather than pieces around the "the" it shares with the old one, and
//     blank lines do not split a rewritten page (go-diff's semantic
//     clean-up, done in linear time);
//   - tokens that both sides of a change start or end with are moved out;
//   - a pure insertion or deletion that starts with whitespace is slid
//     right when it can be, so a removed word reads "big " rather than
//     " big".
//
// A large changed block gets the word pass only when its two sides share
// at least half of their pairs of consecutive words: between unrelated
// texts it would cost time quadratic in their size and only find noise.
//
// # Whitespace
//
// Whitespace-only changes (a reflowed line, a double space, CRLF turned
// into LF, a blank line) are reported as diffs like any other, because
// [Apply] needs them to rebuild the new text; [Diff.Blank] tells them
// apart, and as they hold no words no keyword ever matches them. Fragments
// otherwise keep the whitespace that was removed or added with them
// ("big " for a removed word, "line\n" for a removed line).
//
// # Snippets
//
// A snippet holds about n runes (Unicode code points, not bytes) of context
// on each side of its span, drops any word that the n-rune window would
// cut, turns every whitespace run (line breaks included) into one space and
// is trimmed, so it is one clean line of valid UTF-8.
//
// # Caveats
//
//   - Offsets are byte offsets, not rune offsets; invalid UTF-8 is diffed
//     byte for byte and kept exactly in Text.
//   - Compute is bounded by [Options].Timeout (one second by default): past
//     it the result is coarser (whole changed lines, or one removal and one
//     addition spanning the rest) but always exact, and Options.Logger gets
//     a warning. The tokenizing itself is linear and not bounded: callers
//     should bound the size of the texts they compare.
//   - A text with very long lines (a page whose text has no line breaks)
//     gets little from the line pass and is diffed word by word as a whole,
//     which is several times slower than a text of ordinary lines.
//   - The clean-up may report an unchanged short word inside a rewritten
//     passage as removed and added again, as part of the rewritten fragment.
//   - Each Diff made by Compute keeps a reference to its snapshot (for
//     [Diff.Snippet]): compare Diffs by their exported fields, not with ==,
//     and note that keeping one Diff keeps its whole snapshot in memory.
//   - [Diff.Snippet] and [Snippet] show the span whole, however long it is;
//     for a bounded snippet, pass a bounded span such as a keyword match.
package diff
