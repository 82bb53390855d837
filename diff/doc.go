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
// added at the same place) is compared word by word; a long block (a page
// without line breaks) is first cut into segments (sentences, or short
// runs of words cut where the text itself says so, so that both texts are
// cut at the same places) and only the changed segments are compared word
// by word. Every pass maps each distinct line, segment or token to one rune
// and aligns the rune sequences, so a fragment is always made of whole
// lines or whole tokens and never cuts a word.
//
// Lines and segments are aligned as patience diff does: those found exactly
// once on each side anchor the alignment (the longest run of them in the
// same order on both sides), in O(n log n), and the gaps between anchors
// are aligned the same way; a gap without such lines, and every word pass,
// goes to Myers' algorithm from github.com/sergi/go-diff (diffmatchpatch).
// Tokens found on one side only are left out of Myers' alignment (they
// cannot match): this keeps unrelated texts cheap.
//
// Word-pass tokens are words, whitespace runs and single other characters.
// Words are those of the index tokenizer, so a fragment never cuts a token
// the index sees as whole: letters, decimal digits and combining marks,
// with an apostrophe or a zero width (non-)joiner between two of them
// ("don't", "80's", Persian "می‌خواهم"); Han ideographs, Hiragana and
// Katakana are one word per character. A period between two letters or
// two digits and a comma between two digits also join ("e.g", "19.1",
// "1,000"): a fragment may hold several index tokens, never part of one.
//
// Each alignment is then cleaned up so that it reads like a human edit:
//   - changes separated by an equal run that is smaller, in non-blank tokens
//     (lines in the line pass, words in the word pass), than both of them
//     are merged, so a rewritten sentence is one removal and one addition
//     rather than pieces around the "the" it shares with the old one, and
//     blank lines do not split a rewritten page (go-diff's semantic
//     clean-up, done in linear time); an equal run is merged only when it
//     is blank or holds at most two words and no line break, so an
//     unchanged line or phrase is never reported as changed;
//   - tokens that both sides of a change start or end with are moved out;
//   - a pure insertion or deletion that starts with whitespace is slid
//     right when it can be, so a removed word reads "big " rather than
//     " big".
//
// A large changed block gets the segment and word passes only when its two
// sides share at least half of their pairs of consecutive words: between
// unrelated texts they would only find noise.
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
//   - Compute is bounded by [Options].Timeout (one second by default):
//     Myers' algorithm gets half of it; past that, what is left is done in
//     linear time (anchors on unique lines, whole changed blocks between
//     them), so the result is coarser but always exact, and Options.Logger
//     gets a warning. The tokenizing itself is linear and not bounded:
//     callers should bound the size of the texts they compare.
//   - A moved line or paragraph is reported as removed where it was and
//     added where it is: [Apply] rebuilds the new text from offsets and the
//     text between diffs, which cannot express a move.
//   - The clean-up may report an unchanged word or two inside a rewritten
//     sentence as removed and added again, as part of the rewritten
//     fragment (never a whole line, nor more than two words).
//   - Each Diff made by Compute keeps a reference to its snapshot (for
//     [Diff.Snippet]): compare Diffs by their exported fields, not with ==,
//     and note that keeping one Diff keeps its whole snapshot in memory.
//   - [Diff.Snippet] and [Snippet] show the span whole, however long it is;
//     for a bounded snippet, pass a bounded span such as a keyword match.
package diff
