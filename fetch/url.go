package fetch

import (
	"fmt"
	"net/url"
	"strings"
)

// ParseURL parses rawURL and checks that it can be fetched: absolute, with
// the scheme http or https, a non-empty host name, and at most 16 KiB long.
// The fragment is dropped, since it is never sent. Errors wrap
// [ErrInvalidURL].
func ParseURL(rawURL string) (*url.URL, error) {
	if rawURL == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidURL)
	}
	if len(rawURL) > maxURLLength {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrInvalidURL, maxURLLength)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidURL, err)
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// checkURL is the part of [ParseURL] that also applies to redirect targets,
// which net/http has already parsed and resolved.
func checkURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return fmt.Errorf("%w: %q is not absolute", ErrInvalidURL, u.Redacted())
	default:
		return fmt.Errorf("%w: scheme %q is not http or https", ErrInvalidURL, u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: %q has no host", ErrInvalidURL, u.Redacted())
	}
	return nil
}
