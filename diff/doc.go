// Package diff computes the differences between two snapshots of a document
// as added and removed spans, with byte offsets into the old and new texts
// and snippets of context cut at word boundaries.
package diff
