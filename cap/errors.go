package cap

import (
	"errors"
	"strconv"
)

// Sentinel errors. Errors returned by this package wrap one of them, so
// callers test them with errors.Is.
var (
	// ErrInvalid is wrapped by every *ValidationError: the document is CAP
	// but breaks a rule of the specification.
	ErrInvalid = errors.New("cap: invalid alert")
	// ErrMalformed means the document is not well-formed XML (or is cut off).
	ErrMalformed = errors.New("cap: malformed XML")
	// ErrNotCAP means the document is XML but its root is not a CAP alert
	// (another root element, or an alert outside the CAP namespaces).
	ErrNotCAP = errors.New("cap: not a CAP alert")
	// ErrTooLarge means the document exceeds MaxAlertBytes or nests
	// elements deeper than MaxDepth.
	ErrTooLarge = errors.New("cap: document too large")
	// ErrDTD means the document has a document type declaration. DTDs are
	// refused outright so that entity expansion (billion laughs) and
	// external entities (XXE) can never happen.
	ErrDTD = errors.New("cap: DTD not allowed")
)

// ValidationError is one broken rule of the CAP specification.
//
// Errors returned by Parse combine every ValidationError found with
// errors.Join; use errors.As to get the first one, or ValidationErrors to
// list them all. A document that cannot be read as an alert at all gives a
// single ValidationError for the field "alert" (Rule "well-formed XML", "no
// DTD", "root element", "namespace", "CAP content", "size limit", "nesting
// limit" or "element limit") that wraps ErrMalformed, ErrDTD, ErrNotCAP or
// ErrTooLarge instead of ErrInvalid.
type ValidationError struct {
	// Field is the path of the element at fault, like
	// "alert.info[0].area[1].polygon[0]" (indices count from 0).
	Field string
	// Rule names the broken rule in a few words, like "required",
	// "enumeration", "dateTime format" or "polygon closed".
	Rule string
	// Value is the offending value, if any (truncated to 80 bytes).
	Value string

	// doc, when not nil, is the error of a document that cannot be read
	// as an alert: it wraps the sentinel and gives the message.
	doc error
}

// docError returns the *ValidationError of a document that cannot be read as
// an alert: errors.Is finds the sentinel wrapped by err, errors.As the
// ValidationError.
func docError(rule, value string, err error) error {
	return &ValidationError{Field: "alert", Rule: rule, Value: clip(value), doc: err}
}

// Error returns "cap: FIELD: RULE" followed by the quoted value, if any; for
// a document that cannot be read as an alert, the message of its sentinel
// and the cause ("cap: malformed XML: ...").
func (e *ValidationError) Error() string {
	if e.doc != nil {
		return e.doc.Error()
	}
	s := "cap: " + e.Field + ": " + e.Rule
	if e.Value != "" {
		s += ": " + strconv.Quote(e.Value)
	}
	return s
}

// Unwrap returns ErrInvalid, or for a document that cannot be read as an
// alert the error wrapping its sentinel (ErrMalformed, ErrDTD, ErrNotCAP or
// ErrTooLarge).
func (e *ValidationError) Unwrap() error {
	if e.doc != nil {
		return e.doc
	}
	return ErrInvalid
}

// ValidationErrors returns every *ValidationError in err's tree (as built by
// Parse with errors.Join), in order; nil when there is none.
func ValidationErrors(err error) []*ValidationError {
	var out []*ValidationError
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *ValidationError:
			out = append(out, x)
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		case interface{ Unwrap() error }:
			walk(x.Unwrap())
		}
	}
	walk(err)
	return out
}
