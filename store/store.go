// Package store is an ordered key/value store with named, nestable buckets
// and serialisable transactions, shaped after bbolt.
//
// Two implementations share one contract, checked by the conformance suite
// in [github.com/vokter-go/vokter/store/storetest]: [OpenBolt] (a bbolt file,
// the default) and [NewMemory] (tests and demos).
//
// Keys within a bucket are ordered bytewise, so the questions the rest of
// vokter asks are range scans over well-chosen keys.
//
// # Caveats
//
// A transaction must not be used after the function given to View, Update or
// Batch returns, and must not be shared between goroutines. Values returned
// by Get and passed to Scan callbacks are copies the caller may keep.
package store

import "context"

// Store is an ordered key/value store with transactions.
type Store interface {
	// View runs fn in a read-only transaction. The transaction sees a
	// consistent snapshot of the store. Writes inside fn fail with
	// ErrTxNotWritable.
	View(ctx context.Context, fn func(Tx) error) error

	// Update runs fn in a read-write transaction. Only one read-write
	// transaction runs at a time. If fn returns an error, nothing it wrote
	// is kept and the error is returned; otherwise the transaction commits.
	Update(ctx context.Context, fn func(Tx) error) error

	// Batch is Update for many concurrent writers: implementations may
	// combine the calls of several goroutines into one commit. fn may be
	// called more than once, so it must be idempotent and must not have
	// side effects outside the transaction.
	Batch(ctx context.Context, fn func(Tx) error) error

	// Close releases the store. Transactions started after Close fail with
	// ErrClosed.
	Close() error
}

// Tx is a transaction: the root of the bucket tree.
type Tx interface {
	// Bucket returns the top-level bucket name, or ErrBucketNotFound.
	Bucket(name []byte) (Bucket, error)
	// CreateBucket creates a top-level bucket; ErrBucketExists if it exists.
	CreateBucket(name []byte) (Bucket, error)
	// CreateBucketIfNotExists returns the top-level bucket name, creating it
	// when missing.
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	// DeleteBucket deletes a top-level bucket and everything in it;
	// ErrBucketNotFound if it does not exist.
	DeleteBucket(name []byte) error
	// Writable reports whether the transaction may write.
	Writable() bool
}

// Bucket is an ordered collection of key/value pairs and nested buckets.
// Keys of values and of nested buckets share one name space.
type Bucket interface {
	// Get returns a copy of the value stored at key, or ErrNotFound.
	// ErrNotFound is also returned when key names a nested bucket.
	Get(key []byte) ([]byte, error)
	// Put stores value at key, replacing any previous value. The key must
	// be non-empty and at most MaxKeySize bytes; the value must be non-nil
	// (it may be empty) and at most MaxValueSize bytes.
	Put(key, value []byte) error
	// Delete removes key. Deleting a missing key is not an error.
	// ErrIncompatibleValue if key names a nested bucket.
	Delete(key []byte) error

	// Bucket returns the nested bucket name, or ErrBucketNotFound.
	Bucket(name []byte) (Bucket, error)
	// CreateBucket creates a nested bucket; ErrBucketExists if it exists.
	CreateBucket(name []byte) (Bucket, error)
	// CreateBucketIfNotExists returns the nested bucket name, creating it
	// when missing.
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	// DeleteBucket deletes a nested bucket and everything in it.
	DeleteBucket(name []byte) error

	// Scan calls fn for each key/value pair in key order (or reverse order)
	// as described by opts. Nested buckets are skipped; see ForEachBucket.
	// If fn returns ErrStop, Scan stops and returns nil; any other error
	// stops the scan and is returned.
	Scan(opts ScanOptions, fn func(key, value []byte) error) error
	// ForEachBucket calls fn with the name of each nested bucket, in order.
	ForEachBucket(fn func(name []byte) error) error

	// NextSequence returns an autoincrementing integer for the bucket,
	// starting at 1. It needs a writable transaction.
	NextSequence() (uint64, error)
}

// ScanOptions selects the pairs a Scan visits.
type ScanOptions struct {
	// Prefix limits the scan to keys that start with it. Empty means all.
	Prefix []byte
	// Start is the key to begin at: the first key >= Start going forwards,
	// or the last key <= Start in reverse. Empty means the first (or last)
	// key of the prefix range.
	Start []byte
	// Reverse scans from greater to smaller keys.
	Reverse bool
}
