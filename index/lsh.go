package index

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"

	minhashlsh "github.com/ekzhu/minhash-lsh"
)

// LSH is a locality-sensitive-hashing index of MinHash signatures: it finds,
// among many pages, those whose similarity to a given one is at least a
// threshold, without comparing against each of them. Use it to group
// near-duplicate pages (mirrors, pages that differ by a date line); never to
// decide that a page needs no diff.
//
// It wraps github.com/ekzhu/minhash-lsh (an LSH Forest whose bands and rows
// are chosen for the threshold), and checks every candidate's estimated
// similarity so that Query returns no candidate below the threshold. It can
// still miss a few pages just above the threshold (LSH false negatives).
//
// An LSH is safe for concurrent use.
type LSH struct {
	threshold float64
	opts      MinHashOptions

	mu    sync.Mutex
	lsh   *minhashlsh.MinhashLSH
	sigs  map[string]Signature
	dirty bool // ids were added since the forest was last indexed
}

// NewLSH returns an empty index for signatures made with opts, that finds
// pages with estimated similarity ≥ threshold. It fails with
// ErrInvalidThreshold unless 0 < threshold ≤ 1.
func NewLSH(threshold float64, opts MinHashOptions) (*LSH, error) {
	if math.IsNaN(threshold) || threshold <= 0 || threshold > 1 {
		return nil, fmt.Errorf("%w: %v", ErrInvalidThreshold, threshold)
	}
	opts = opts.withDefaults()
	return &LSH{
		threshold: threshold,
		opts:      opts,
		lsh:       minhashlsh.NewMinhashLSH64(opts.NumHash, threshold),
		sigs:      make(map[string]Signature),
	}, nil
}

// Add adds the page id with its signature. It fails with ErrDuplicateID if
// id is already present, and with ErrIncompatibleSignature if sig was not
// made with the index's options.
func (l *LSH) Add(id string, sig Signature) error {
	if err := l.check(sig); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.sigs[id]; ok {
		return fmt.Errorf("%w: %q", ErrDuplicateID, id)
	}
	sig.Hashes = slices.Clone(sig.Hashes) // the caller may reuse its slice
	l.sigs[id] = sig
	l.lsh.Add(id, sig.Hashes)
	l.dirty = true
	return nil
}

// Query returns the ids whose estimated similarity to sig is at least the
// index's threshold, most similar first (ties by id). It fails with
// ErrIncompatibleSignature if sig was not made with the index's options.
func (l *LSH) Query(sig Signature) ([]string, error) {
	if err := l.check(sig); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dirty {
		l.lsh.Index()
		l.dirty = false
	}
	type hit struct {
		id  string
		sim float64
	}
	var hits []hit
	for _, key := range l.lsh.Query(sig.Hashes) {
		id := key.(string)
		if sim := l.sigs[id].Similarity(sig); sim >= l.threshold {
			hits = append(hits, hit{id, sim})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(a.id, b.id))
	})
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids, nil
}

// Len returns the number of ids in the index.
func (l *LSH) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sigs)
}

// Threshold returns the index's similarity threshold.
func (l *LSH) Threshold() float64 {
	return l.threshold
}

func (l *LSH) check(sig Signature) error {
	if len(sig.Hashes) != l.opts.NumHash || sig.Shingle != l.opts.Shingle || sig.Seed != l.opts.Seed {
		return fmt.Errorf("%w: %d hashes, shingle %d, seed %d; index wants %d, %d, %d", ErrIncompatibleSignature,
			len(sig.Hashes), sig.Shingle, sig.Seed, l.opts.NumHash, l.opts.Shingle, l.opts.Seed)
	}
	return nil
}
