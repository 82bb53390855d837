// Package index tokenizes text with byte offsets, normalises tokens (case
// folding, stop-words, stemming), builds Bloom filters over a diff's tokens
// for keyword prefiltering, and computes MinHash signatures with an LSH index
// to measure how much a page changed and to find near-duplicate pages.
package index
