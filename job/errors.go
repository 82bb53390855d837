package job

import "errors"

// Errors that callers branch on. The first six carry the error codes of the
// original Vokter REST API; see [Code].
var (
	// ErrInvalidDocumentURL: the document URL is empty, relative, not
	// http(s), has no host, or is too long. Code 1.
	ErrInvalidDocumentURL = errors.New("job: invalid document URL")
	// ErrInvalidSession: the session ID is empty, too long or holds a NUL
	// byte. Code 2.
	ErrInvalidSession = errors.New("job: invalid session")
	// ErrNoKeywords: the request has no keywords, more than MaxKeywords,
	// or one that is empty, longer than MaxKeywordLength, not valid UTF-8,
	// or without a letter or digit. Code 3.
	ErrNoKeywords = errors.New("job: no keywords")
	// ErrNoEvents: the request ignores both added and removed events, so
	// nothing could ever be reported. Code 4.
	ErrNoEvents = errors.New("job: both events ignored")
	// ErrExists: the session already watches the document. Code 5.
	ErrExists = errors.New("job: subscription already exists")
	// ErrNotFound: no such subscription or cluster. Code 7.
	ErrNotFound = errors.New("job: subscription not found")

	// ErrInvalidInterval: the requested interval is negative or below
	// Config.MinInterval. The original API had no code for it: Code gives
	// 6, its code for a bad request.
	ErrInvalidInterval = errors.New("job: invalid interval")
	// ErrStopped: the manager was stopped.
	ErrStopped = errors.New("job: manager stopped")
	// ErrStarted: Start was called twice.
	ErrStarted = errors.New("job: manager already started")
	// ErrCheckFailed: a check could not load or read the document. It wraps
	// the cause (a *fetch.FetchError, a reader error...).
	ErrCheckFailed = errors.New("job: check failed")
)

// Error codes of the original Vokter REST API, returned by [Code].
const (
	CodeOK                 = 0
	CodeInvalidDocumentURL = 1
	CodeInvalidSession     = 2
	CodeNoKeywords         = 3
	CodeNoEvents           = 4
	CodeExists             = 5
	CodeBadRequest         = 6
	CodeNotFound           = 7
	// CodeUnknown is returned for errors that have no REST code.
	CodeUnknown = -1
)

// Code returns the REST error code of err: 0 for nil, 1 to 7 for the
// request errors of this package (see the sentinels), and CodeUnknown for
// anything else.
func Code(err error) int {
	switch {
	case err == nil:
		return CodeOK
	case errors.Is(err, ErrInvalidDocumentURL):
		return CodeInvalidDocumentURL
	case errors.Is(err, ErrInvalidSession):
		return CodeInvalidSession
	case errors.Is(err, ErrNoKeywords):
		return CodeNoKeywords
	case errors.Is(err, ErrNoEvents):
		return CodeNoEvents
	case errors.Is(err, ErrExists):
		return CodeExists
	case errors.Is(err, ErrInvalidInterval):
		return CodeBadRequest
	case errors.Is(err, ErrNotFound):
		return CodeNotFound
	default:
		return CodeUnknown
	}
}
