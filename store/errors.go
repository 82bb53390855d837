package store

import "errors"

// Limits on keys and values, the same as bbolt's, so that code tested on the
// memory store keeps working on a bbolt file.
const (
	// MaxKeySize is the largest key, in bytes.
	MaxKeySize = 32768
	// MaxValueSize is the largest value, in bytes.
	MaxValueSize = (1 << 31) - 2
)

// Errors that callers branch on.
var (
	// ErrNotFound is returned by Get for a missing key.
	ErrNotFound = errors.New("store: key not found")
	// ErrBucketNotFound is returned for a missing bucket.
	ErrBucketNotFound = errors.New("store: bucket not found")
	// ErrBucketExists is returned by CreateBucket for an existing bucket.
	ErrBucketExists = errors.New("store: bucket already exists")
	// ErrBucketNameRequired is returned for an empty bucket name.
	ErrBucketNameRequired = errors.New("store: bucket name required")
	// ErrKeyRequired is returned for an empty key.
	ErrKeyRequired = errors.New("store: key required")
	// ErrKeyTooLarge is returned for a key over MaxKeySize.
	ErrKeyTooLarge = errors.New("store: key too large")
	// ErrValueNil is returned by Put for a nil value.
	ErrValueNil = errors.New("store: value must not be nil")
	// ErrValueTooLarge is returned for a value over MaxValueSize.
	ErrValueTooLarge = errors.New("store: value too large")
	// ErrIncompatibleValue is returned when a key names a bucket where a
	// value is expected, or the other way round.
	ErrIncompatibleValue = errors.New("store: incompatible value")
	// ErrTxNotWritable is returned for a write in a read-only transaction.
	ErrTxNotWritable = errors.New("store: transaction not writable")
	// ErrTxClosed is returned when a transaction, or a bucket obtained from
	// it, is used after the function given to View, Update or Batch returned.
	ErrTxClosed = errors.New("store: transaction closed")
	// ErrClosed is returned for a transaction on a closed store.
	ErrClosed = errors.New("store: store closed")
	// ErrLocked is returned by OpenBolt when another process holds the file
	// past the lock timeout.
	ErrLocked = errors.New("store: database file locked by another process")
	// ErrInvalidFile is returned by OpenBolt for a file that is not a bbolt
	// database, or one that is corrupt.
	ErrInvalidFile = errors.New("store: invalid or corrupt database file")
	// ErrStop may be returned by a Scan or ForEachBucket callback to end the
	// iteration early without error.
	ErrStop = errors.New("store: stop iteration")
)
