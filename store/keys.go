package store

import (
	"bytes"
	"errors"
)

// This file holds the rules both implementations share, so that they reject
// the same input with the same error and visit the same keys in a Scan.

// checkPut validates the arguments of Bucket.Put.
func checkPut(key, value []byte) error {
	switch {
	case len(key) == 0:
		return ErrKeyRequired
	case len(key) > MaxKeySize:
		return ErrKeyTooLarge
	case value == nil:
		return ErrValueNil
	case int64(len(value)) > MaxValueSize:
		return ErrValueTooLarge
	}
	return nil
}

// checkBucketName validates the name given to CreateBucket and
// CreateBucketIfNotExists. (bbolt itself does not bound bucket names; the
// memory store must reject what a bbolt file could not hold as a key.)
func checkBucketName(name []byte) error {
	switch {
	case len(name) == 0:
		return ErrBucketNameRequired
	case len(name) > MaxKeySize:
		return ErrKeyTooLarge
	}
	return nil
}

// prefixEnd returns the smallest key greater than every key that starts with
// prefix, or nil when there is none (prefix is empty or all 0xff).
func prefixEnd(prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xff {
			end := bytes.Clone(prefix[:i+1])
			end[i]++
			return end
		}
	}
	return nil
}

// scanStart returns where a scan described by opts begins: at the first key
// >= seek going forwards, or at the last key <= seek in reverse; when
// inclusive is false a key equal to seek is skipped. A nil seek in reverse
// means the last key of the bucket.
func scanStart(opts ScanOptions) (seek []byte, inclusive bool) {
	if !opts.Reverse {
		if bytes.Compare(opts.Start, opts.Prefix) > 0 {
			return opts.Start, true
		}
		return opts.Prefix, true
	}
	end := prefixEnd(opts.Prefix)
	switch {
	case len(opts.Start) > 0 && (end == nil || bytes.Compare(opts.Start, end) < 0):
		return opts.Start, true
	case end != nil:
		return end, false
	default:
		return nil, true
	}
}

// copyPair copies a key and its value into one allocation. The key's
// capacity is cut to its length so that appending to it cannot overwrite
// the value.
func copyPair(k, v []byte) (key, value []byte) {
	buf := make([]byte, len(k)+len(v))
	copy(buf, k)
	copy(buf[len(k):], v)
	return buf[:len(k):len(k)], buf[len(k):]
}

// stopToNil turns the ErrStop a callback returned into the nil the
// iteration then returns.
func stopToNil(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}
