package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// retryLaterError is ErrRetryLater, met on a redirect hop, with the time
// left in the host's Retry-After window. It crosses net/http's redirect loop, which wraps it
// in a *url.Error.
type retryLaterError struct {
	host    string
	retryIn time.Duration
}

func (e *retryLaterError) Error() string {
	return fmt.Sprintf("%v: redirect to %s", ErrRetryLater, e.host)
}

func (e *retryLaterError) Unwrap() error { return ErrRetryLater }

// firstSlotKey is the context key of the slot [Fetcher.Get] reserved for
// the first hop of its request, a func() releasing it.
type firstSlotKey struct{}

// hostGate is the RoundTripper of a Fetcher's client: every hop of a
// request, redirects included, takes a slot of its own host and keeps the
// host's spacing and Retry-After window. The slot is held until the
// response body is closed; net/http closes a redirect's body before it
// sends the next hop, so a Get never holds one host's slot while waiting
// for another's.
type hostGate struct {
	next  http.RoundTripper
	hosts *hostTable
}

// RoundTrip implements http.RoundTripper.
func (g *hostGate) RoundTrip(req *http.Request) (*http.Response, error) {
	// The first hop uses the slot Get reserved under the caller's context;
	// a redirect (req.Response set) waits under the request's, which
	// Config.Timeout bounds.
	release, _ := req.Context().Value(firstSlotKey{}).(func())
	if release == nil || req.Response != nil {
		key := hostKey(req.URL)
		var (
			retryIn time.Duration
			err     error
		)
		release, retryIn, err = g.hosts.acquire(req.Context(), key)
		if err != nil {
			if retryIn > 0 {
				err = &retryLaterError{host: key, retryIn: retryIn}
			}
			return nil, err
		}
	}
	resp, err := g.next.RoundTrip(req)
	if err != nil {
		release()
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the wrapped
// transport, for [http.Client.CloseIdleConnections].
func (g *hostGate) CloseIdleConnections() {
	if c, ok := g.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// releasingBody releases a host slot when the body is first closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// withFirstSlot returns ctx carrying release, the slot reserved for the
// first hop of a request.
func withFirstSlot(ctx context.Context, release func()) context.Context {
	return context.WithValue(ctx, firstSlotKey{}, release)
}
