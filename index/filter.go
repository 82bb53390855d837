package index

import (
	"math"

	"github.com/bits-and-blooms/bloom/v3"
)

// DefaultFPRate is the false-positive rate used when NewFilter or FilterOf
// is given a rate outside [MinFPRate, MaxFPRate]: 1%.
const DefaultFPRate = 0.01

// Bounds on a Filter's parameters. They keep a filter's size, and so memory,
// bounded whatever the caller asks: a filter for MaxFilterItems at MinFPRate
// takes about 90 MiB.
const (
	MinFPRate      = 1e-9
	MaxFPRate      = 0.5
	MaxFilterItems = 1 << 24
)

// Filter is a Bloom filter over normalised terms: a compact set that answers
// "certainly absent" or "probably present". It has no false negatives: a
// term that was added always tests true. It prefilters keyword matching on a
// diff (a keyword whose terms are not all in the diff's filter cannot match),
// so the exact check runs only for the few candidates.
//
// A Filter is not safe for concurrent Add; concurrent Test calls, without
// Add, are safe.
type Filter struct {
	bf *bloom.BloomFilter
}

// NewFilter returns an empty Filter sized for n terms at false-positive
// rate fpRate. n is clamped to [1, MaxFilterItems]; an fpRate outside
// [MinFPRate, MaxFPRate] (or NaN) is replaced by DefaultFPRate. Adding more
// than n terms keeps the no-false-negative guarantee but raises the
// false-positive rate.
func NewFilter(n uint, fpRate float64) *Filter {
	n = min(max(n, 1), MaxFilterItems)
	if math.IsNaN(fpRate) || fpRate < MinFPRate || fpRate > MaxFPRate {
		fpRate = DefaultFPRate
	}
	return &Filter{bf: bloom.NewWithEstimates(n, fpRate)}
}

// FilterOf returns a Filter holding the Term of every element of terms,
// sized for the number of distinct terms.
func FilterOf(terms []Term, fpRate float64) *Filter {
	distinct := make(map[string]struct{}, len(terms))
	for _, t := range terms {
		distinct[t.Term] = struct{}{}
	}
	f := NewFilter(uint(len(distinct)), fpRate)
	for t := range distinct {
		f.Add(t)
	}
	return f
}

// Add adds term to the filter.
func (f *Filter) Add(term string) {
	f.bf.AddString(term)
}

// Test reports whether term may have been added: false means certainly not.
// A nil Filter is empty.
func (f *Filter) Test(term string) bool {
	return f != nil && f.bf.TestString(term)
}

// TestAll reports whether every one of terms may have been added: the
// prefilter for a keyword whose normalised terms must all occur. It is true
// for no terms.
func (f *Filter) TestAll(terms ...string) bool {
	for _, t := range terms {
		if !f.Test(t) {
			return false
		}
	}
	return true
}

// Cap returns the number of bits in the filter.
func (f *Filter) Cap() uint {
	if f == nil {
		return 0
	}
	return f.bf.Cap()
}
