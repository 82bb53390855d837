package index

// Index is the document index of one text: its normalised terms in order,
// and where each term occurs. It is immutable once built and safe for
// concurrent use.
type Index struct {
	opts   Options
	terms  []Term
	byTerm map[string][]int32 // term -> positions in terms
}

// Build tokenizes and normalises text with opts and indexes the terms.
func Build(text string, opts Options) *Index {
	terms := NewNormalizer(opts).Terms(text)
	ix := &Index{opts: opts, terms: terms, byTerm: make(map[string][]int32)}
	for i, t := range terms {
		ix.byTerm[t.Term] = append(ix.byTerm[t.Term], int32(i))
	}
	return ix
}

// Options returns the options the index was built with.
func (ix *Index) Options() Options { return ix.opts }

// Len returns the number of terms in the text (stop-words excluded when
// the options drop them).
func (ix *Index) Len() int { return len(ix.terms) }

// Distinct returns the number of distinct terms.
func (ix *Index) Distinct() int { return len(ix.byTerm) }

// Occurrences returns, in text order, the occurrences of a term already
// normalised with the index's options.
func (ix *Index) Occurrences(term string) []Term {
	pos := ix.byTerm[term]
	out := make([]Term, len(pos))
	for i, p := range pos {
		out[i] = ix.terms[p]
	}
	return out
}

// Find normalises word with the index's options and returns its
// occurrences; nil for a stop-word or a word that does not occur.
func (ix *Index) Find(word string) []Term {
	term, ok := NewNormalizer(ix.opts).Normalize(word)
	if !ok {
		return nil
	}
	return ix.Occurrences(term)
}
