// Package textseg holds the word-boundary rules of vokter, so that the
// tokens the index sees and the fragments the diff reports are cut at the
// same places.
//
// A word is a letter or decimal digit of any script that is not written
// without spaces, followed by letters, decimal digits and combining marks
// (Mn, Mc); an apostrophe (' or U+2019), a zero width non-joiner or a zero
// width joiner between two word characters belongs to the word ("don't",
// "80's", Persian "می‌خواهم"). Han ideographs, Hiragana and Katakana
// (with the prolonged sound marks) are written without spaces: each
// character, with the combining marks that follow it, is a word of its own.
// Every other rune, and every byte that is not valid UTF-8, separates words.
//
// # Caveats
//
//   - Periods, commas and underscores split words ("3.14" is "3" and "14");
//     the diff package joins some of them back, which only makes its
//     fragments coarser than index tokens.
//   - [Inside] walks back over combining marks, so a run of thousands of
//     marks costs as much at each offset inside it.
package textseg
