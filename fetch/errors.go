package fetch

import "errors"

// Sentinel errors. Every error returned by [Fetcher.Get] is a [*FetchError]
// whose chain contains one of these, or the underlying network or context
// error (for example [context.DeadlineExceeded] when the request timed out).
// Branch on them with [errors.Is].
var (
	// ErrInvalidURL reports a URL that cannot be fetched: empty, relative,
	// with a scheme other than http or https, without a host, or too long.
	// A redirect to such a URL fails with it too.
	ErrInvalidURL = errors.New("fetch: invalid URL")

	// ErrTooLarge reports a body over Config.MaxBytes (after decompression).
	// The body is never silently truncated.
	ErrTooLarge = errors.New("fetch: response body too large")

	// ErrTooManyRedirects reports a redirect chain longer than
	// Config.MaxRedirects, which includes redirect loops.
	ErrTooManyRedirects = errors.New("fetch: too many redirects")

	// ErrHTTPStatus reports a final response whose status is not 2xx (and not
	// a 304 answering a conditional request). FetchError.StatusCode holds it.
	ErrHTTPStatus = errors.New("fetch: unexpected HTTP status")

	// ErrBlocked reports a connection refused because it would reach a
	// loopback, private, link-local, unspecified or multicast address while
	// Config.BlockPrivate is set.
	ErrBlocked = errors.New("fetch: address blocked")

	// ErrRetryLater reports a request that was not sent because the host
	// asked (with Retry-After on a 429 or 503) not to be contacted before a
	// time still in the future. FetchError.RetryAfter holds the time left.
	ErrRetryLater = errors.New("fetch: host asked to retry later")

	// ErrInvalidConfig reports a [Config] rejected by [New]; the message
	// names the field.
	ErrInvalidConfig = errors.New("fetch: invalid config")
)
