package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// Validators are the cache validators of a response, sent back on the next
// request so that an unchanged page costs a 304 and no body.
type Validators struct {
	ETag         string // ETag header, verbatim (quotes and W/ prefix included)
	LastModified string // Last-Modified header, verbatim
}

// IsZero reports whether v holds no validator, so a request with it is not
// conditional.
func (v Validators) IsZero() bool { return v.ETag == "" && v.LastModified == "" }

// Response is a successful fetch: a 2xx response with its whole body, or a
// 304 answering a conditional request.
type Response struct {
	URL         string      // final URL, after redirects
	StatusCode  int         // 2xx, or 304 when NotModified
	Header      http.Header // headers of the final response
	ContentType string      // Content-Type header as sent
	Body        []byte      // whole body, decompressed; nil when NotModified
	Validators  Validators  // from this response; when NotModified, the ones passed to Get updated by any the 304 sent
	NotModified bool        // 304 to a conditional request
	Hash        [32]byte    // SHA-256 of Body; zero when NotModified
	FetchedAt   time.Time   // when the response headers arrived, by Config.Clock
}

// FetchError is the error of every failed [Fetcher.Get]. Err is the cause: a
// sentinel of this package, a network error, or a context error; match it
// with [errors.Is] or [errors.As] on the FetchError itself.
type FetchError struct {
	URL        string        // URL as passed to Get
	StatusCode int           // status of the last response; 0 when none arrived
	RetryAfter time.Duration // how long the host asked to be left alone; 0 when it did not
	Err        error         // cause
}

// Error describes the failure: URL, status and Retry-After when known, cause.
func (e *FetchError) Error() string {
	s := "fetch: GET " + e.URL
	if e.StatusCode != 0 {
		s += ": " + strconv.Itoa(e.StatusCode)
		if text := http.StatusText(e.StatusCode); text != "" {
			s += " " + text
		}
	}
	if e.RetryAfter > 0 {
		s += " (retry after " + e.RetryAfter.String() + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *FetchError) Unwrap() error { return e.Err }

// Fetcher performs bounded, polite HTTP GETs. It is safe for concurrent use;
// share one per process so that per-host limits hold across callers.
type Fetcher struct {
	cfg    Config
	client *http.Client
	hosts  *hostTable
	log    *slog.Logger
	bufs   sync.Pool // *bytes.Buffer for bodies of unknown length
}

// New returns a Fetcher for cfg. Zero fields take their defaults; a negative
// one, a UserAgent with control characters, or BlockPrivate with a Transport
// it cannot guard fails with an error wrapping [ErrInvalidConfig] that names
// the field.
func New(cfg Config) (*Fetcher, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	var client http.Client
	if cfg.Client != nil {
		client = *cfg.Client
		if cfg.BlockPrivate {
			rt := client.Transport
			if rt == nil {
				rt = http.DefaultTransport
			}
			t, ok := rt.(*http.Transport)
			if !ok {
				return nil, fmt.Errorf("%w: BlockPrivate needs Client.Transport to be an *http.Transport, not %T", ErrInvalidConfig, rt)
			}
			guarded, err := guardTransport(t)
			if err != nil {
				return nil, err
			}
			client.Transport = guarded
		}
	} else {
		client.Transport = newTransport(cfg)
	}
	client.Timeout = 0 // cfg.Timeout bounds each request through its context
	f := &Fetcher{
		cfg:   cfg,
		hosts: newHostTable(cfg.PerHostConcurrency, cfg.PerHostInterval, cfg.Clock.Now),
		log:   cfg.Logger,
		bufs:  sync.Pool{New: func() any { return new(bytes.Buffer) }},
	}
	if client.Transport == nil {
		client.Transport = http.DefaultTransport
	}
	client.Transport = &hostGate{next: client.Transport, hosts: f.hosts}
	client.CheckRedirect = f.checkRedirect
	f.client = &client
	return f, nil
}

// CloseIdleConnections closes the idle keep-alive connections of the
// Fetcher's transport. Call it when done with a Fetcher.
func (f *Fetcher) CloseIdleConnections() { f.client.CloseIdleConnections() }

// Get fetches rawURL. With non-zero prev the request is conditional
// (If-None-Match, If-Modified-Since) and a 304 gives a Response with
// NotModified set and no body. It first waits, as long as ctx allows, for a
// free slot of the host and for its spacing; a host inside a Retry-After
// window fails at once with ErrRetryLater. Then Config.Timeout bounds the
// request, body included. Each redirect hop in turn waits for a slot and
// the spacing of the host it goes to, and fails with ErrRetryLater when
// that host is in a Retry-After window; these waits count against
// Config.Timeout.
//
// Every error is a [*FetchError] wrapping the cause: ErrInvalidURL,
// ErrRetryLater, ErrTooManyRedirects, ErrHTTPStatus, ErrTooLarge, ErrBlocked,
// a network error, or the context's error ([context.DeadlineExceeded] when
// Timeout passed).
func (f *Fetcher) Get(ctx context.Context, rawURL string, prev Validators) (*Response, error) {
	u, err := ParseURL(rawURL)
	if err != nil {
		return nil, &FetchError{URL: rawURL, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return nil, &FetchError{URL: rawURL, Err: err}
	}
	release, retryIn, err := f.hosts.acquire(ctx, hostKey(u))
	if err != nil {
		return nil, &FetchError{URL: rawURL, RetryAfter: retryIn, Err: err}
	}
	// The first hop's transport releases the slot as soon as its response
	// body is closed (before a redirect is followed); this covers a request
	// that never reached the transport.
	release = sync.OnceFunc(release)
	defer release()

	start := time.Now()
	resp, ferr := f.do(withFirstSlot(ctx, release), u, prev)
	if ferr != nil {
		ferr.URL = rawURL
		f.log.DebugContext(ctx, "fetch failed", "url", rawURL, "status", ferr.StatusCode,
			"duration", time.Since(start), "err", ferr.Err)
		return nil, ferr
	}
	f.log.DebugContext(ctx, "fetched", "url", rawURL, "final_url", resp.URL, "status", resp.StatusCode,
		"bytes", len(resp.Body), "duration", time.Since(start))
	return resp, nil
}

// do sends one request under Config.Timeout and reads its response. The
// returned FetchError lacks its URL.
func (f *Fetcher) do(ctx context.Context, u *url.URL, prev Validators) (*Response, *FetchError) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &FetchError{Err: fmt.Errorf("%w: %w", ErrInvalidURL, err)}
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "*/*")
	if prev.ETag != "" {
		req.Header.Set("If-None-Match", prev.ETag)
	}
	if prev.LastModified != "" {
		req.Header.Set("If-Modified-Since", prev.LastModified)
	}

	resp, err := f.client.Do(req)
	if err != nil {
		// On a refused redirect, resp is the redirect response, body closed.
		fe := &FetchError{Err: cause(ctx, err)}
		if resp != nil {
			fe.StatusCode = resp.StatusCode
		}
		var rl *retryLaterError
		if errors.As(err, &rl) {
			fe.RetryAfter = rl.retryIn
		}
		return nil, fe
	}
	defer resp.Body.Close()
	now := f.cfg.Clock.Now()
	r := &Response{
		URL:         resp.Request.URL.String(),
		StatusCode:  resp.StatusCode,
		Header:      resp.Header,
		ContentType: resp.Header.Get("Content-Type"),
		FetchedAt:   now,
	}
	got := Validators{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}

	switch {
	case resp.StatusCode == http.StatusNotModified && !prev.IsZero():
		r.NotModified = true
		r.Validators = prev
		if got.ETag != "" {
			r.Validators.ETag = got.ETag
		}
		if got.LastModified != "" {
			r.Validators.LastModified = got.LastModified
		}
		return r, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		fe := &FetchError{StatusCode: resp.StatusCode, RetryAfter: f.noteRetryAfter(resp, now), Err: ErrHTTPStatus}
		// Drain a little so that small error pages keep the connection.
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
		return nil, fe
	case resp.ContentLength > f.cfg.MaxBytes:
		return nil, &FetchError{StatusCode: resp.StatusCode,
			Err: fmt.Errorf("%w: Content-Length %d is over %d bytes", ErrTooLarge, resp.ContentLength, f.cfg.MaxBytes)}
	}
	body, err := f.readBody(resp.Body, resp.ContentLength)
	if err != nil {
		return nil, &FetchError{StatusCode: resp.StatusCode, Err: cause(ctx, err)}
	}
	r.Body = body
	r.Hash = sha256.Sum256(body)
	r.Validators = got
	return r, nil
}

// checkRedirect is the CheckRedirect of the Fetcher's client.
func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if limit := max(f.cfg.MaxRedirects, 0); len(via) > limit {
		return fmt.Errorf("%w: stopped after %d", ErrTooManyRedirects, limit)
	}
	if err := checkURL(req.URL); err != nil {
		return fmt.Errorf("redirect: %w", err)
	}
	return nil
}

// noteRetryAfter reads Retry-After on a 429 or 503, caps it, closes the
// responding host until then, and returns the delay (0 when none).
func (f *Fetcher) noteRetryAfter(resp *http.Response, now time.Time) time.Duration {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0
	}
	d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), now)
	if !ok || d <= 0 {
		return 0
	}
	d = min(d, f.cfg.MaxRetryAfter)
	f.hosts.closeUntil(hostKey(resp.Request.URL), now.Add(d))
	f.log.Info("host asked to retry later", "host", resp.Request.URL.Host, "retry_after", d)
	return d
}

// cause strips the *url.Error net/http adds (FetchError carries the URL) and
// makes sure a request stopped by its context says so, whatever error the
// transport surfaced at that moment.
func cause(ctx context.Context, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w: %w", ctxErr, err)
	}
	return err
}

// maxPooledBuffer is the largest read buffer kept for reuse, so that one
// huge body does not pin its memory in the pool.
const maxPooledBuffer = 1 << 20

// maxInitialBody caps the buffer allocated for a body of announced length
// before any of it arrived: the announcement is only a claim.
const maxInitialBody = 64 << 10

// readBody reads r whole, refusing more than Config.MaxBytes with
// ErrTooLarge. size is the announced length, -1 when unknown. A known size
// is read into a buffer that starts at most maxInitialBody large and grows
// fourfold as data fills it, never past size+1: a truthful announcement
// ends in a buffer of exactly the right size after few copies, and a false
// one costs at most four times the data sent. An unknown size is read into
// a pooled buffer whose content is then copied out, so growing costs no
// garbage.
func (f *Fetcher) readBody(r io.Reader, size int64) ([]byte, error) {
	limit := f.cfg.MaxBytes
	readLimit := limit
	if limit < math.MaxInt64 {
		readLimit++ // one byte more tells "exactly limit" from "over limit"
	}
	lr := &io.LimitedReader{R: r, N: readLimit}
	var body []byte
	if size >= 0 {
		// Room for one byte more than announced, so that EOF is seen
		// without growing; size <= limit was checked by the caller.
		want := size + 1
		body = make([]byte, 0, min(want, maxInitialBody))
		for {
			if len(body) == cap(body) {
				// Past want the announcement was false; keep growing
				// fourfold, bounded by readLimit through lr.
				next := 4 * int64(cap(body))
				if c := int64(cap(body)); c < want {
					next = min(next, want)
				}
				body = append(make([]byte, 0, next), body...)
			}
			n, err := lr.Read(body[len(body):cap(body)])
			body = body[:len(body)+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
		}
	} else {
		buf := f.bufs.Get().(*bytes.Buffer)
		defer func() {
			if buf.Cap() <= maxPooledBuffer {
				buf.Reset()
				f.bufs.Put(buf)
			}
		}()
		if _, err := buf.ReadFrom(lr); err != nil {
			return nil, err
		}
		body = bytes.Clone(buf.Bytes())
		if body == nil {
			body = []byte{}
		}
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("%w: body is over %d bytes", ErrTooLarge, limit)
	}
	return body, nil
}
