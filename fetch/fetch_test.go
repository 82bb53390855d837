package fetch_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

func TestGetOK(t *testing.T) {
	t.Parallel()
	feed := readTestdata(t, "us_nws_weather.atom")
	const lastModified = "Sat, 01 Mar 2025 11:00:00 GMT"
	var gotUA, gotAccept atomic.Value
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		gotUA.Store(r.UserAgent())
		gotAccept.Store(r.Header.Get("Accept"))
		w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
		w.Header().Set("ETag", `W/"v1"`)
		w.Header().Set("Last-Modified", lastModified)
		w.Write(feed)
	})
	clock := newFakeClock()
	f := newFetcher(t, fetch.Config{Clock: clock})

	resp, err := f.Get(t.Context(), srv.URL+"/cap/us.atom#frag", fetch.Validators{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if resp.StatusCode != http.StatusOK || resp.NotModified {
		t.Errorf("StatusCode, NotModified = %d, %v; want 200, false", resp.StatusCode, resp.NotModified)
	}
	if !bytes.Equal(resp.Body, feed) {
		t.Errorf("Body has %d bytes, want the %d of the feed", len(resp.Body), len(feed))
	}
	if resp.Hash != sha256.Sum256(feed) {
		t.Error("Hash is not the SHA-256 of the body")
	}
	if want := srv.URL + "/cap/us.atom"; resp.URL != want {
		t.Errorf("URL = %q, want %q", resp.URL, want)
	}
	if want := "application/atom+xml; charset=utf-8"; resp.ContentType != want {
		t.Errorf("ContentType = %q, want %q", resp.ContentType, want)
	}
	if want := (fetch.Validators{ETag: `W/"v1"`, LastModified: lastModified}); resp.Validators != want {
		t.Errorf("Validators = %+v, want %+v", resp.Validators, want)
	}
	if resp.Header.Get("ETag") != `W/"v1"` {
		t.Errorf("Header lacks the ETag: %v", resp.Header)
	}
	if !resp.FetchedAt.Equal(clock.Now()) {
		t.Errorf("FetchedAt = %v, want the clock's %v", resp.FetchedAt, clock.Now())
	}
	if ua := gotUA.Load(); ua != fetch.DefaultUserAgent {
		t.Errorf("server saw User-Agent %q, want %q", ua, fetch.DefaultUserAgent)
	}
	if accept := gotAccept.Load(); accept != "*/*" {
		t.Errorf("server saw Accept %q, want */*", accept)
	}
}

func TestGetEmptyBody(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	f := newFetcher(t, fetch.Config{UserAgent: "test-agent"})
	resp, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if resp.StatusCode != http.StatusNoContent || len(resp.Body) != 0 || resp.Hash != sha256.Sum256(nil) {
		t.Errorf("got status %d, %d bytes, hash %x; want 204, empty, hash of nothing", resp.StatusCode, len(resp.Body), resp.Hash)
	}
}

func TestGetConditional(t *testing.T) {
	t.Parallel()
	const (
		etag = `"5c2cf27b"`
		lm   = "Wed, 26 Feb 2025 08:00:00 GMT"
	)
	body := readTestdata(t, "v1dot2_appendix_adot1.xml")
	tests := []struct {
		name       string
		header     string // validator header the server sends
		value      string
		condHeader string // conditional header it answers with 304
	}{
		{"etag", "ETag", etag, "If-None-Match"},
		{"last-modified", "Last-Modified", lm, "If-Modified-Since"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var full, notModified atomic.Int32
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set(tt.header, tt.value)
				if r.Header.Get(tt.condHeader) == tt.value {
					notModified.Add(1)
					w.WriteHeader(http.StatusNotModified)
					return
				}
				full.Add(1)
				w.Write(body)
			})
			f := newFetcher(t, fetch.Config{})

			first, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			if err != nil {
				t.Fatalf("first Get: %v", err)
			}
			if first.NotModified {
				t.Fatal("unconditional Get answered NotModified")
			}
			second, err := f.Get(t.Context(), srv.URL, first.Validators)
			if err != nil {
				t.Fatalf("conditional Get: %v", err)
			}
			if !second.NotModified || second.StatusCode != http.StatusNotModified {
				t.Errorf("NotModified, StatusCode = %v, %d; want true, 304", second.NotModified, second.StatusCode)
			}
			if second.Body != nil || second.Hash != ([32]byte{}) {
				t.Errorf("NotModified response has body %q and hash %x; want nil and zero", second.Body, second.Hash)
			}
			if second.Validators != first.Validators {
				t.Errorf("Validators = %+v, want the previous %+v", second.Validators, first.Validators)
			}

			stale := fetch.Validators{ETag: `"old"`, LastModified: "Mon, 01 Jan 2024 00:00:00 GMT"}
			third, err := f.Get(t.Context(), srv.URL, stale)
			if err != nil {
				t.Fatalf("Get with stale validators: %v", err)
			}
			if third.NotModified || !bytes.Equal(third.Body, body) {
				t.Errorf("stale validators: NotModified = %v, %d bytes; want a full body", third.NotModified, len(third.Body))
			}
			if full.Load() != 2 || notModified.Load() != 1 {
				t.Errorf("server sent %d full and %d 304 responses, want 2 and 1", full.Load(), notModified.Load())
			}
		})
	}
}

func TestGetUnconditional304(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	f := newFetcher(t, fetch.Config{})
	_, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
	if fe := asFetchError(t, err, fetch.ErrHTTPStatus); fe.StatusCode != http.StatusNotModified {
		t.Errorf("StatusCode = %d, want 304", fe.StatusCode)
	}
}

func TestGetHTTPStatus(t *testing.T) {
	t.Parallel()
	for _, code := range []int{http.StatusNotFound, http.StatusForbidden, http.StatusGone, http.StatusInternalServerError, http.StatusBadGateway} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, http.StatusText(code), code)
			})
			f := newFetcher(t, fetch.Config{})
			url := srv.URL + "/missing"
			resp, err := f.Get(t.Context(), url, fetch.Validators{})
			if resp != nil {
				t.Errorf("Response = %+v, want nil with the error", resp)
			}
			fe := asFetchError(t, err, fetch.ErrHTTPStatus)
			if fe.StatusCode != code || fe.URL != url || fe.RetryAfter != 0 {
				t.Errorf("FetchError = %+v, want StatusCode %d, URL %q, no RetryAfter", fe, code, url)
			}
			if !strings.Contains(err.Error(), strconv.Itoa(code)) {
				t.Errorf("message %q lacks the status", err)
			}
		})
	}
}

func TestGetRedirects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		maxRedirects int
		start        string
		wantErr      error
		wantPath     string // final path on success
		wantHits     int    // requests the server saw
	}{
		{"chain within limit", 0, "/r/2", nil, "/done", 4},
		{"chain at limit", 3, "/r/2", nil, "/done", 4},
		{"chain over limit", 2, "/r/2", fetch.ErrTooManyRedirects, "", 3},
		{"loop", 3, "/loop", fetch.ErrTooManyRedirects, "", 4},
		{"relative location", 0, "/dir/rel", nil, "/done", 3},
		{"to ftp", 0, "/ftp", fetch.ErrInvalidURL, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				switch p := r.URL.Path; {
				case p == "/done":
					fmt.Fprint(w, "done")
				case p == "/r/0":
					http.Redirect(w, r, "/done", http.StatusFound)
				case strings.HasPrefix(p, "/r/"):
					n, _ := strconv.Atoi(strings.TrimPrefix(p, "/r/"))
					http.Redirect(w, r, "/r/"+strconv.Itoa(n-1), http.StatusMovedPermanently)
				case p == "/loop":
					w.Header().Set("Location", "/loop")
					w.WriteHeader(http.StatusFound)
				case p == "/dir/rel":
					w.Header().Set("Location", "next") // resolves to /dir/next
					w.WriteHeader(http.StatusSeeOther)
				case p == "/dir/next":
					w.Header().Set("Location", "../done")
					w.WriteHeader(http.StatusTemporaryRedirect)
				case p == "/ftp":
					w.Header().Set("Location", "ftp://example.com/file")
					w.WriteHeader(http.StatusFound)
				default:
					http.NotFound(w, r)
				}
			})
			f := newFetcher(t, fetch.Config{MaxRedirects: tt.maxRedirects})
			resp, err := f.Get(t.Context(), srv.URL+tt.start, fetch.Validators{})
			if tt.wantErr != nil {
				fe := asFetchError(t, err, tt.wantErr)
				if fe.StatusCode < 300 || fe.StatusCode > 399 {
					t.Errorf("StatusCode = %d, want the refused redirect's 3xx", fe.StatusCode)
				}
			} else {
				if err != nil {
					t.Fatalf("Get: %v", err)
				}
				if want := srv.URL + tt.wantPath; resp.URL != want || string(resp.Body) != "done" {
					t.Errorf("URL, Body = %q, %q; want %q, done", resp.URL, resp.Body, want)
				}
			}
			if got := int(hits.Load()); got != tt.wantHits {
				t.Errorf("server saw %d requests, want %d", got, tt.wantHits)
			}
		})
	}
}

func TestGetTooLarge(t *testing.T) {
	t.Parallel()
	const limit = 4 << 10
	text := bytes.Repeat([]byte("0123456789abcdef"), limit/16) // exactly limit bytes
	bomb := gzipped(t, make([]byte, 8<<20))                    // 8 MiB of zeros in a few KiB
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    []byte // nil: ErrTooLarge
	}{
		{"content-length over", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(limit+1))
			w.Write(append(text, '!'))
		}, nil},
		{"huge content-length not read", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(1<<30))
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // the client must give up without waiting for the body
		}, nil},
		{"chunked over", func(w http.ResponseWriter, r *http.Request) {
			for range 3 {
				w.Write(text[:limit/2+1])
				w.(http.Flusher).Flush()
			}
		}, nil},
		{"gzip bomb", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		}, nil},
		{"content-length at limit", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(limit))
			w.Write(text)
		}, text},
		{"chunked at limit", func(w http.ResponseWriter, r *http.Request) {
			w.Write(text[:limit/2])
			w.(http.Flusher).Flush()
			w.Write(text[limit/2:])
		}, text},
		{"gzip at limit", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipped(t, text))
		}, text},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, tt.handler)
			f := newFetcher(t, fetch.Config{MaxBytes: limit})
			resp, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			if tt.want == nil {
				if fe := asFetchError(t, err, fetch.ErrTooLarge); fe.StatusCode != http.StatusOK {
					t.Errorf("StatusCode = %d, want 200", fe.StatusCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if !bytes.Equal(resp.Body, tt.want) {
				t.Errorf("Body = %d bytes, want the %d sent", len(resp.Body), len(tt.want))
			}
		})
	}
}

func TestGetTimeout(t *testing.T) {
	t.Parallel()
	const timeout = 150 * time.Millisecond
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"no headers", func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}},
		{"trickled body", func(w http.ResponseWriter, r *http.Request) {
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for {
				if _, err := w.Write([]byte("x")); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-tick.C:
				case <-r.Context().Done():
					return
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, tt.handler)
			f := newFetcher(t, fetch.Config{Timeout: timeout})
			start := time.Now()
			_, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			asFetchError(t, err, context.DeadlineExceeded)
			if elapsed := time.Since(start); elapsed < timeout || elapsed > 20*timeout {
				t.Errorf("Get returned after %v, want about %v", elapsed, timeout)
			}
		})
	}
}

func TestGetContextCanceled(t *testing.T) {
	t.Parallel()
	t.Run("before", func(t *testing.T) {
		t.Parallel()
		var hits atomic.Int32
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })
		f := newFetcher(t, fetch.Config{})
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := f.Get(ctx, srv.URL, fetch.Validators{})
		asFetchError(t, err, context.Canceled)
		if hits.Load() != 0 {
			t.Error("a canceled Get reached the server")
		}
	})
	t.Run("in flight", func(t *testing.T) {
		t.Parallel()
		entered := make(chan struct{})
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			close(entered)
			<-r.Context().Done()
		})
		f := newFetcher(t, fetch.Config{})
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			<-entered
			cancel()
		}()
		_, err := f.Get(ctx, srv.URL, fetch.Validators{})
		asFetchError(t, err, context.Canceled)
	})
	t.Run("waiting for a slot", func(t *testing.T) {
		t.Parallel()
		entered, release := make(chan struct{}), make(chan struct{})
		var hits atomic.Int32
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if hits.Add(1) == 1 {
				close(entered)
				<-release
			}
		})
		f := newFetcher(t, fetch.Config{PerHostConcurrency: 1})
		done := make(chan error)
		go func() {
			_, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			done <- err
		}()
		<-entered
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			_, err := f.Get(ctx, srv.URL, fetch.Validators{})
			done <- err
		}()
		cancel()
		asFetchError(t, <-done, context.Canceled)
		close(release)
		if err := <-done; err != nil {
			t.Errorf("first Get: %v", err)
		}
		if hits.Load() != 1 {
			t.Errorf("server saw %d requests, want 1", hits.Load())
		}
	})
}

func TestPerHostConcurrency(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 2, 3} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			t.Parallel()
			const requests = 9
			var inFlight, peak atomic.Int32
			entered, release := make(chan struct{}), make(chan struct{})
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				n := inFlight.Add(1)
				defer inFlight.Add(-1)
				for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
				}
				entered <- struct{}{}
				<-release
			})
			f := newFetcher(t, fetch.Config{PerHostConcurrency: limit})
			var wg sync.WaitGroup
			for range requests {
				wg.Go(func() {
					if _, err := f.Get(t.Context(), srv.URL, fetch.Validators{}); err != nil {
						t.Errorf("Get: %v", err)
					}
				})
			}
			// Fill every slot, then let one request out for each that gets in:
			// a request beyond the limit would raise the peak.
			for range limit {
				<-entered
			}
			for range requests - limit {
				release <- struct{}{}
				<-entered
			}
			for range limit {
				release <- struct{}{}
			}
			wg.Wait()
			if got := int(peak.Load()); got != limit {
				t.Errorf("peak concurrency = %d, want %d", got, limit)
			}
		})
	}
}

func TestPerHostIndependent(t *testing.T) {
	t.Parallel()
	bEntered := make(chan struct{})
	a := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-bEntered:
		case <-r.Context().Done():
		}
	})
	b := serve(t, func(w http.ResponseWriter, r *http.Request) { close(bEntered) })
	f := newFetcher(t, fetch.Config{PerHostConcurrency: 1})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	errA := make(chan error)
	go func() {
		_, err := f.Get(ctx, a.URL, fetch.Validators{})
		errA <- err
	}()
	// Host a holds its only slot until host b is reached: a shared limit
	// would deadlock until ctx expires.
	if _, err := f.Get(ctx, b.URL, fetch.Validators{}); err != nil {
		t.Errorf("Get b: %v", err)
	}
	if err := <-errA; err != nil {
		t.Errorf("Get a: %v", err)
	}
}

func TestPerHostInterval(t *testing.T) {
	t.Parallel()
	const (
		interval = 100 * time.Millisecond
		requests = 4
	)
	var mu sync.Mutex
	var starts []time.Time
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		starts = append(starts, time.Now())
		mu.Unlock()
	})
	other := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	f := newFetcher(t, fetch.Config{PerHostConcurrency: requests, PerHostInterval: interval})
	begin := time.Now()
	var wg sync.WaitGroup
	for range requests {
		wg.Go(func() {
			if _, err := f.Get(t.Context(), srv.URL, fetch.Validators{}); err != nil {
				t.Errorf("Get: %v", err)
			}
		})
	}
	// Another host is not held back by the first one's spacing.
	otherBegin := time.Now()
	if _, err := f.Get(t.Context(), other.URL, fetch.Validators{}); err != nil {
		t.Errorf("Get other host: %v", err)
	}
	if d := time.Since(otherBegin); d >= (requests-1)*interval {
		t.Errorf("other host waited %v", d)
	}
	wg.Wait()
	if len(starts) != requests {
		t.Fatalf("server saw %d requests, want %d", len(starts), requests)
	}
	// Start i is reserved no earlier than i intervals after the first, which
	// comes after begin; delays on the way can only make it later.
	slices.SortFunc(starts, time.Time.Compare)
	for i, s := range starts {
		if earliest := begin.Add(time.Duration(i) * interval); s.Before(earliest) {
			t.Errorf("start %d came %v after the first Get, want ≥ %v", i, s.Sub(begin), earliest.Sub(begin))
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	const maxRetryAfter = 10 * time.Minute
	start := newFakeClock().Now()
	tests := []struct {
		name   string
		status int
		value  string
		want   time.Duration // 0: not honoured
	}{
		{"seconds on 429", http.StatusTooManyRequests, "120", 120 * time.Second},
		{"seconds on 503", http.StatusServiceUnavailable, " 30 ", 30 * time.Second},
		{"http-date", http.StatusServiceUnavailable, start.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"rfc850 date", http.StatusTooManyRequests, start.Add(time.Hour).Format(time.RFC850), maxRetryAfter},
		{"capped", http.StatusTooManyRequests, "86400", maxRetryAfter},
		{"date in the past", http.StatusTooManyRequests, start.Add(-time.Hour).Format(http.TimeFormat), 0},
		{"zero", http.StatusServiceUnavailable, "0", 0},
		{"garbage", http.StatusTooManyRequests, "soon", 0},
		{"negative", http.StatusTooManyRequests, "-5", 0},
		{"not on 500", http.StatusInternalServerError, "120", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var hits atomic.Int32
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if hits.Add(1) == 1 {
					w.Header().Set("Retry-After", tt.value)
					w.WriteHeader(tt.status)
					return
				}
				fmt.Fprint(w, "back")
			})
			clock := newFakeClock()
			f := newFetcher(t, fetch.Config{Clock: clock, MaxRetryAfter: maxRetryAfter})

			_, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			fe := asFetchError(t, err, fetch.ErrHTTPStatus)
			if fe.StatusCode != tt.status || fe.RetryAfter != tt.want {
				t.Fatalf("StatusCode, RetryAfter = %d, %v; want %d, %v", fe.StatusCode, fe.RetryAfter, tt.status, tt.want)
			}
			if tt.want > 0 {
				_, err = f.Get(t.Context(), srv.URL+"/other/path", fetch.Validators{})
				if fe := asFetchError(t, err, fetch.ErrRetryLater); fe.RetryAfter != tt.want || fe.StatusCode != 0 {
					t.Errorf("in the window: RetryAfter, StatusCode = %v, %d; want %v, 0", fe.RetryAfter, fe.StatusCode, tt.want)
				}
				clock.Advance(tt.want - time.Second)
				_, err = f.Get(t.Context(), srv.URL, fetch.Validators{})
				if fe := asFetchError(t, err, fetch.ErrRetryLater); fe.RetryAfter != time.Second {
					t.Errorf("a second before the end: RetryAfter = %v, want 1s", fe.RetryAfter)
				}
				if hits.Load() != 1 {
					t.Fatalf("server saw %d requests inside the window, want 1", hits.Load())
				}
				clock.Advance(time.Second)
			}
			resp, err := f.Get(t.Context(), srv.URL, fetch.Validators{})
			if err != nil {
				t.Fatalf("Get after the window: %v", err)
			}
			if string(resp.Body) != "back" || hits.Load() != 2 {
				t.Errorf("after the window: body %q, %d requests; want back, 2", resp.Body, hits.Load())
			}
		})
	}
}

func TestRetryAfterOtherHostOpen(t *testing.T) {
	t.Parallel()
	closed := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "600")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	open := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	f := newFetcher(t, fetch.Config{Clock: newFakeClock()})
	_, err := f.Get(t.Context(), closed.URL, fetch.Validators{})
	asFetchError(t, err, fetch.ErrHTTPStatus)
	if _, err := f.Get(t.Context(), open.URL, fetch.Validators{}); err != nil {
		t.Errorf("another host: %v", err)
	}
}

func TestGetInvalidURL(t *testing.T) {
	t.Parallel()
	f := newFetcher(t, fetch.Config{})
	tests := []struct{ name, url string }{
		{"empty", ""},
		{"relative path", "/feeds/us.atom"},
		{"relative name", "example.com/page"},
		{"scheme-relative", "//example.com/page"},
		{"ftp", "ftp://example.com/file"},
		{"file", "file:///etc/passwd"},
		{"mailto", "mailto:someone@example.com"},
		{"javascript", "javascript:alert(1)"},
		{"no host", "http://"},
		{"empty host with path", "https:///path"},
		{"port only", "http://:8080/"},
		{"opaque", "http:example.com"},
		{"bad escape", "http://example.com/%zz"},
		{"unclosed bracket", "http://[::1"},
		{"space in host", "http://exa mple.com/"},
		{"too long", "http://example.com/" + strings.Repeat("a", 20<<10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := f.Get(t.Context(), tt.url, fetch.Validators{})
			fe := asFetchError(t, err, fetch.ErrInvalidURL)
			if fe.URL != tt.url || fe.StatusCode != 0 {
				t.Errorf("FetchError URL, StatusCode = %q, %d; want %q, 0", fe.URL, fe.StatusCode, tt.url)
			}
		})
	}
}

func TestBlockPrivate(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "private")
	})
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	customDial := &http.Transport{DialContext: (&net.Dialer{}).DialContext}
	t.Cleanup(customDial.CloseIdleConnections)
	plain := &http.Transport{}
	t.Cleanup(plain.CloseIdleConnections)
	tests := []struct {
		name    string
		cfg     fetch.Config
		url     string
		blocked bool
	}{
		{"off", fetch.Config{}, srv.URL, false},
		{"on", fetch.Config{BlockPrivate: true}, srv.URL, true},
		{"on, name resolving to loopback", fetch.Config{BlockPrivate: true}, "http://localhost:" + port, true},
		{"on, client with plain transport", fetch.Config{BlockPrivate: true, Client: &http.Client{Transport: plain}}, srv.URL, true},
		{"on, client with custom dialer", fetch.Config{BlockPrivate: true, Client: &http.Client{Transport: customDial}}, srv.URL, true},
		{"on, client with default transport", fetch.Config{BlockPrivate: true, Client: &http.Client{}}, srv.URL, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := hits.Load()
			f := newFetcher(t, tt.cfg)
			resp, err := f.Get(t.Context(), tt.url, fetch.Validators{})
			if !tt.blocked {
				if err != nil || string(resp.Body) != "private" {
					t.Fatalf("Get = %v; want the page", err)
				}
				return
			}
			if fe := asFetchError(t, err, fetch.ErrBlocked); fe.StatusCode != 0 {
				t.Errorf("StatusCode = %d, want 0", fe.StatusCode)
			}
			if hits.Load() != before {
				t.Error("a blocked Get reached the server")
			}
		})
	}
}
