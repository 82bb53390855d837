package reader

import (
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by this package. Callers test them with
// [errors.Is]; [*MediaTypeError] and [*OptionError] carry the details.
var (
	// ErrTooLarge reports a body longer than Options.MaxBytes, or JSON that
	// would give more text than [MaxJSONValues] or [MaxJSONText] allow. The
	// text is never silently truncated.
	ErrTooLarge = errors.New("reader: body too large")
	// ErrUnsupportedMediaType reports a media type no registered reader can
	// turn into text (images, PDFs, archives, unknown binary formats).
	ErrUnsupportedMediaType = errors.New("reader: unsupported media type")
	// ErrBinary reports a body whose bytes are binary (many NUL or control
	// bytes, or the signature of a binary format), whatever its declared type.
	ErrBinary = errors.New("reader: binary content")
	// ErrInvalidOptions reports an Options value that cannot be used: a bad
	// regular expression, a bad CSS selector or a negative limit.
	ErrInvalidOptions = errors.New("reader: invalid options")
	// ErrTooDeep reports a document nested deeper than a reader supports
	// (JSON beyond [MaxJSONDepth], HTML beyond the 512 open elements of the
	// HTML parser when a selector needs the document tree).
	ErrTooDeep = errors.New("reader: document nested too deeply")
	// ErrMalformed reports a body that is not well-formed in its media type
	// (broken XML or JSON syntax).
	ErrMalformed = errors.New("reader: malformed document")
)

// MediaTypeError reports a body that cannot be read as text. It wraps
// [ErrUnsupportedMediaType], and also [ErrBinary] when Binary is true.
type MediaTypeError struct {
	// MediaType is the declared media type, "" when none was declared.
	MediaType string
	// Detected is the media type found by sniffing the body, "" when the
	// body was not sniffed or nothing specific was found.
	Detected string
	// Binary is true when the body's bytes are binary.
	Binary bool
}

// Error implements the error interface. It names the declared type and,
// when sniffing found another one, that type too.
func (e *MediaTypeError) Error() string {
	declared := e.MediaType
	if isGeneric(declared) {
		declared = ""
	}
	name := declared
	if name == "" {
		name = e.Detected
	}
	switch {
	case e.Binary && declared != "" && !isBinaryType(declared) && e.Detected != declared:
		// Binary bytes served as a type we would read: a server mistake.
		if e.Detected != "" {
			return fmt.Sprintf("reader: binary content (%s) served as %s", e.Detected, declared)
		}
		return "reader: binary content served as " + declared
	case e.Binary && name != "":
		return "reader: unsupported media type " + name + " (binary content)"
	case e.Binary:
		return "reader: binary content"
	case name == "":
		return "reader: unsupported media type"
	}
	return "reader: unsupported media type " + name
}

// Unwrap returns [ErrUnsupportedMediaType], and [ErrBinary] when the body is
// binary.
func (e *MediaTypeError) Unwrap() []error {
	if e.Binary {
		return []error{ErrUnsupportedMediaType, ErrBinary}
	}
	return []error{ErrUnsupportedMediaType}
}

// OptionError reports one unusable field of [Options]. It wraps
// [ErrInvalidOptions] and the underlying parse error.
type OptionError struct {
	// Field names the bad field, e.g. "Selector" or "Ignore[2]".
	Field string
	// Value is the bad value as given.
	Value string
	// Err is the underlying error (from regexp or cascadia), or nil.
	Err error
}

// Error implements the error interface.
func (e *OptionError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("reader: invalid options: %s %q", e.Field, e.Value)
	}
	return fmt.Sprintf("reader: invalid options: %s %q: %v", e.Field, e.Value, e.Err)
}

// Unwrap returns [ErrInvalidOptions] and the underlying error.
func (e *OptionError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalidOptions}
	}
	return []error{ErrInvalidOptions, e.Err}
}
