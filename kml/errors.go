package kml

import "errors"

// Sentinel errors. Errors returned by Write wrap one of them, or an error of
// the writer.
var (
	// ErrNilAlert means the alert list holds a nil alert.
	ErrNilAlert = errors.New("kml: nil alert")
	// ErrBadOptions means Options holds an unusable value (an unknown refresh
	// mode, a negative refresh interval).
	ErrBadOptions = errors.New("kml: bad options")
)
