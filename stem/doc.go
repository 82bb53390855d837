// Package stem detects the language of a text (ISO 639-1 codes), and
// provides Snowball stemmers and stop-word lists keyed by the same codes.
//
// # Language detection
//
// Detect and Detector.Detect run whatlanggo (github.com/abadojack/whatlanggo)
// on a bounded prefix of the text (DefaultDetectBytes, cut at a rune
// boundary) and map its ISO 639-3 codes to ISO 639-1 ("eng" → "en",
// "cmn" → "zh", "pes" → "fa"). When the result is unreliable, or the
// language has no ISO 639-1 code (Cebuano, Ilocano, Maithili, Saraiki), Lang
// is the Detector's default ("en") and Reliable is false; whatlanggo's guess
// stays visible in Detection.ISO6393.
//
// # Stemmers
//
// For returns a Snowball stemmer (github.com/blevesearch/snowballstem) for
// every language that module ships: Arabic (ar), Danish (da), Dutch (nl),
// English (en; Snowball's "english", also known as Porter2), Finnish (fi),
// French (fr), German (de), Hungarian (hu), Irish (ga), Italian (it),
// Norwegian (nb, nn, no), Portuguese (pt), Romanian (ro), Russian (ru),
// Spanish (es), Swedish (sv), Tamil (ta) and Turkish (tr). Languages lists
// the codes. A Stemmer lower-cases before stemming and is not safe for
// concurrent use: create one per goroutine. It lower-cases with LowerFunc:
// Turkish casing (unicode.TurkishCase, "I" to "ı") for Turkish and
// Azerbaijani, strings.ToLower otherwise.
//
// # Elisions
//
// Elisions returns the articles and pronouns that French, Italian, Catalan
// and Irish elide before a vowel ("l'" in "l'homme", "dell'" in
// "dell'acqua"); ElisionList.Strip removes such a prefix from a word, with
// either apostrophe, ' or ’. The lists are the defaults of Apache Lucene's
// analyzers for those languages.
//
// # Stop-words
//
// Stopwords returns an immutable list for every stemmer language, embedded
// in the binary (directory stopwords/, one file per language) and parsed on
// first use. The lists are the Snowball project's (BSD-3-Clause), except
// Arabic, from stopwords-iso (MIT), and Tamil, from Apache Lucene
// (Apache-2.0), for which Snowball has none. stopwords/LICENSE names the
// source of each file and carries the licence notices.
//
// # Caveats
//
//   - Detection needs text: a few words of Latin script are often
//     unreliable (and then reported as the default language), and Cyrillic
//     languages need a few sentences to be told apart.
//   - Japanese written only with kanji is reported as Chinese ("zh"); text
//     with any kana is reported as Japanese ("ja").
//   - Only the prefix is examined: a page whose first kilobytes are in one
//     language and the rest in another is reported in the first.
//   - Words longer than MaxStemBytes are lower-cased but not stemmed.
//   - The Romanian list is Snowball's, spelled with the cedilla letters ş
//     and ţ; each such word is also listed with the comma-below ș and ț of
//     modern text.
package stem
