// Package index tokenizes text with byte offsets, normalises tokens (case
// folding, stop-words, stemming), builds Bloom filters over a diff's terms
// for keyword prefiltering, and computes MinHash signatures with an LSH index
// to measure how much a page changed and to find near-duplicate pages.
//
// # Tokens
//
// Tokenize (or AppendTokens, or the Tokens iterator) splits a text into
// words. A word is a run of letters and decimal digits of any script
// (unicode.IsLetter, unicode.IsDigit) together with the combining marks
// (categories Mn and Mc) that follow them, so accented letters written with
// combining accents, Devanagari and Thai vowel signs stay inside their word.
// Inside a word, that is between two word characters, these are kept:
//
//   - the apostrophes ' (U+0027) and ’ (U+2019): "don't", "o'clock",
//     "l'eau" and "rock'n'roll" are each one token; a leading or trailing
//     apostrophe ('quoted') is not part of the word;
//   - the zero-width non-joiner and joiner (U+200C, U+200D), which are
//     spelling inside Persian and Indic words.
//
// Everything else separates words: spaces, punctuation, symbols, hyphens
// ("state-of-the-art" is four tokens), decimal points ("3.14" is "3" and
// "14"), and bytes that are not valid UTF-8.
//
// Han ideographs, Hiragana and Katakana (Chinese and Japanese, written
// without spaces) give one token per character, with any combining marks
// after it; a dictionary-based word segmenter is out of scope, and matching
// a keyword's characters in order works without one. Hangul is written with
// spaces between words, so Korean is tokenized like alphabetic text. Thai,
// Lao, Khmer and Myanmar are also written without spaces but are not split:
// a run of them is one token.
//
// Every token carries byte offsets [Start, End) into the text, with
// text[Start:End] == Text, and its 0-based position Pos.
//
// # Terms
//
// A Normalizer turns tokens into terms according to Options: stripping
// elided articles in French, Italian, Catalan and Irish (stem.Elisions:
// "l'homme" gives the terms of "homme"), lower-casing (stem.LowerFunc:
// strings.ToLower, or Turkish casing for Turkish and Azerbaijani; not full
// Unicode case folding: "Straße" and "STRASSE" differ), dropping stop-words
// (stem.Stopwords, checked on the lower-cased word), and Snowball stemming
// (stem.For). Stems are lower case, so
// Stemming implies case-insensitive terms. The same Normalizer options must
// be applied to documents and to keywords; then, with Stopwords, Stemming
// and IgnoreCase in English, "House of the Gods" and "god house" both give
// the terms {"hous", "god"}.
//
// # Document index
//
// Build normalises a whole text once and indexes where each term occurs, so
// Find answers "where does this word (or one of its forms) occur?" with
// offsets, without scanning the text again.
//
// # Bloom filters
//
// FilterOf builds a Filter from the terms of one diff. Testing a keyword's
// terms against it rejects most non-matching keywords at once; a filter has
// no false negatives, so a keyword it rejects cannot match, and one it
// accepts is then checked exactly.
//
// # MinHash and LSH
//
// NewSignature computes a MinHash signature of a text's shingles (runs of
// MinHashOptions.Shingle consecutive terms, 3 by default), and
// Signature.Similarity estimates the Jaccard similarity of two texts'
// shingle sets: 1 for identical texts, about 0.9 when 1–2% of the words
// changed, near 0 for unrelated texts. An LSH index finds the pages similar
// to a given one above a threshold without comparing it with every page.
//
// Similarity is a measure of how much a page changed and a way to group
// near-duplicate pages. It must never be used to skip a diff: one changed
// word in a long page leaves the similarity near 1, and that word may be
// exactly what a subscriber is watching for.
//
// # Caveats
//
//   - Positions count every token, including stop-words that Terms drops,
//     so the positions of consecutive terms may have gaps.
//   - "l'eau" is one token, but in French, Italian, Catalan and Irish its
//     elided article is stripped when it is normalised (with either
//     apostrophe, whatever the other options), so the keyword "eau" matches
//     it. The term's Token still spans the whole "l'eau". Only the first
//     prefix, from the language's list, is removed ("aujourd'hui" is kept),
//     and only Options.Language selects the list: French text normalised
//     as English keeps its elisions.
//   - Languages without a Snowball stemmer (Greek, Japanese, Chinese, ...)
//     are lower-cased but not stemmed, and have no stop-words.
//   - Only Turkish and Azerbaijani use Turkish casing ("I" becomes "ı"):
//     Turkish text normalised under another language has "IŞIK" become
//     "işik", which does not match "ışık".
//   - A Normalizer, like the stemmer it holds, is not safe for concurrent
//     use; Filter allows concurrent Test but not concurrent Add; LSH is safe
//     for concurrent use.
package index
