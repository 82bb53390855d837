package index

import (
	"encoding/binary"

	minhashlsh "github.com/ekzhu/minhash-lsh"
)

// MinHash defaults and bounds.
const (
	// DefaultShingle is the default shingle size in words. Three words make
	// a changed word alter few shingles, so similarity tracks the share of
	// changed text.
	DefaultShingle = 3
	// DefaultNumHash is the default signature length. The standard error of
	// the similarity estimate is about sqrt(J(1-J)/NumHash): ±0.04 at 128.
	DefaultNumHash = 128
	// MaxNumHash bounds the signature length, and so the cost per shingle.
	MaxNumHash = 1024
	// MaxShingle bounds the shingle size.
	MaxShingle = 16
)

// MinHashOptions configures MinHash signatures. Signatures are comparable
// only when made with the same options.
type MinHashOptions struct {
	// Shingle is the number of consecutive terms in a shingle. Defaults to
	// DefaultShingle; at most MaxShingle.
	Shingle int
	// NumHash is the number of hash functions, the length of a signature.
	// Defaults to DefaultNumHash; at most MaxNumHash.
	NumHash int
	// Seed selects the family of hash functions. Zero is a valid seed.
	Seed int64
}

// withDefaults returns a copy of o with zero or out-of-range fields set to
// their defaults or bounds.
func (o MinHashOptions) withDefaults() MinHashOptions {
	if o.Shingle <= 0 {
		o.Shingle = DefaultShingle
	}
	o.Shingle = min(o.Shingle, MaxShingle)
	if o.NumHash <= 0 {
		o.NumHash = DefaultNumHash
	}
	o.NumHash = min(o.NumHash, MaxNumHash)
	return o
}

// Signature is the MinHash signature of the set of shingles (runs of
// Shingle consecutive terms) of a text. Comparing two signatures estimates
// the Jaccard similarity of the two shingle sets.
//
// The fields are exported so that signatures can be stored (as JSON, for
// instance) and compared later; they must be left as NewSignature made them.
type Signature struct {
	// Hashes holds one minimum per hash function.
	Hashes []uint64
	// Shingle and Seed are the options the signature was made with.
	Shingle int
	Seed    int64
}

// NewSignature returns the MinHash signature of the shingles of terms, made
// of the terms' Term strings (so the Normalizer's options decide what counts
// as the same word). A text of fewer terms than a shingle has one shingle,
// of all its terms; a text of no terms has the signature of the empty set.
func NewSignature(terms []Term, opts MinHashOptions) Signature {
	opts = opts.withDefaults()
	mh := minhashlsh.NewMinhash(opts.Seed, opts.NumHash)

	hashes := make([]uint64, len(terms))
	for i, t := range terms {
		hashes[i] = hashString(t.Term)
	}
	k := min(opts.Shingle, len(hashes))
	var buf [8]byte
	for i := 0; k > 0 && i+k <= len(hashes); i++ {
		binary.LittleEndian.PutUint64(buf[:], shingleHash(hashes[i:i+k]))
		mh.Push(buf[:])
	}
	return Signature{
		Hashes:  append([]uint64(nil), mh.Signature()...),
		Shingle: opts.Shingle,
		Seed:    opts.Seed,
	}
}

// Compatible reports whether s and o were made with the same options, so
// that Similarity can compare them.
func (s Signature) Compatible(o Signature) bool {
	return len(s.Hashes) > 0 && len(s.Hashes) == len(o.Hashes) && s.Shingle == o.Shingle && s.Seed == o.Seed
}

// Similarity returns the estimated Jaccard similarity, in [0, 1], of the
// shingle sets behind s and o: 1 for identical texts, near 0 for unrelated
// ones. It is 0 when the signatures are not Compatible. Two texts without
// terms are identical (similarity 1).
//
// Similarity measures how much a page changed, and groups near-duplicate
// pages; it is an estimate, and must never be used to skip a diff: a page
// with one changed word among thousands scores ≈ 1, yet that word may be
// the one a subscriber watches for.
func (s Signature) Similarity(o Signature) float64 {
	if !s.Compatible(o) {
		return 0
	}
	same := 0
	for i, h := range s.Hashes {
		if h == o.Hashes[i] {
			same++
		}
	}
	return float64(same) / float64(len(s.Hashes))
}

// hashString is 64-bit FNV-1a, inlined to hash terms without allocating.
func hashString(s string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}

// shingleHash combines the hashes of a shingle's terms, in order, and
// finishes with the SplitMix64 mixer so that the bits are well spread.
func shingleHash(terms []uint64) uint64 {
	h := uint64(len(terms))
	for _, t := range terms {
		h = (h ^ t) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}
