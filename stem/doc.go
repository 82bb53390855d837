// Package stem detects the language of a text (ISO 639-1 codes), and
// provides Snowball stemmers and stop-word lists keyed by the same codes.
package stem
