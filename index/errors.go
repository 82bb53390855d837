package index

import "errors"

// Errors returned by the LSH index. Callers branch on them with errors.Is.
var (
	// ErrInvalidThreshold reports an LSH similarity threshold outside (0, 1].
	ErrInvalidThreshold = errors.New("index: LSH threshold must be in (0, 1]")
	// ErrIncompatibleSignature reports a Signature computed with other
	// MinHashOptions (hash count, seed or shingle size) than the index's, or
	// an empty one: such signatures cannot be compared.
	ErrIncompatibleSignature = errors.New("index: incompatible MinHash signature")
	// ErrDuplicateID reports an id already added to an LSH index.
	ErrDuplicateID = errors.New("index: duplicate LSH id")
)
