package fetch_test

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

// A redirect hop is held to the Retry-After window of the host it reaches,
// not only of the host first asked.
func TestRedirectHonoursRetryAfter(t *testing.T) {
	t.Parallel()
	var hitsB atomic.Int32
	b := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hitsB.Add(1)
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	a := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/page", http.StatusMovedPermanently)
	})
	f := newFetcher(t, fetch.Config{Clock: newFakeClock()})

	_, err := f.Get(t.Context(), a.URL+"/x", fetch.Validators{})
	if fe := asFetchError(t, err, fetch.ErrHTTPStatus); fe.StatusCode != http.StatusTooManyRequests || fe.RetryAfter != time.Hour {
		t.Fatalf("first Get: StatusCode, RetryAfter = %d, %v; want 429, 1h", fe.StatusCode, fe.RetryAfter)
	}
	for i := range 3 {
		_, err := f.Get(t.Context(), a.URL+"/x", fetch.Validators{})
		if fe := asFetchError(t, err, fetch.ErrRetryLater); fe.RetryAfter != time.Hour {
			t.Errorf("Get %d through the redirect: RetryAfter = %v, want 1h", i, fe.RetryAfter)
		}
	}
	if n := hitsB.Load(); n != 1 {
		t.Errorf("closed host contacted %d times, want 1", n)
	}
}

// Requests that reach one host through redirects from many share its slots.
func TestRedirectHonoursPerHostConcurrency(t *testing.T) {
	t.Parallel()
	const sources = 8
	var inFlight, peak atomic.Int32
	entered, release := make(chan struct{}), make(chan struct{})
	b := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		entered <- struct{}{}
		<-release
	})
	f := newFetcher(t, fetch.Config{PerHostConcurrency: 1})
	var wg sync.WaitGroup
	for range sources {
		a := serve(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL, http.StatusFound)
		})
		wg.Go(func() {
			if _, err := f.Get(t.Context(), a.URL, fetch.Validators{}); err != nil {
				t.Errorf("Get: %v", err)
			}
		})
	}
	// One request at a time may be inside b: each release lets the next in.
	for range sources {
		<-entered
		release <- struct{}{}
	}
	wg.Wait()
	if got := peak.Load(); got != 1 {
		t.Errorf("peak concurrency at the redirect target = %d, want 1", got)
	}
}

// A Get does not keep its first host's slot while it waits for the slot of
// the host it was redirected to: two hosts redirecting to each other's
// other path must not deadlock with one slot each.
func TestRedirectCrossHostNoDeadlock(t *testing.T) {
	t.Parallel()
	var aURL, bURL string
	aEntered, bEntered := make(chan struct{}), make(chan struct{})
	handler := func(self chan struct{}, other *string) http.HandlerFunc {
		var once sync.Once
		return func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/start" {
				// Hold the slot until both Gets started, so each then
				// needs the other host's slot.
				once.Do(func() { close(self) })
				<-aEntered
				<-bEntered
				http.Redirect(w, r, *other+"/end", http.StatusFound)
				return
			}
			w.Write([]byte("end"))
		}
	}
	a := serve(t, handler(aEntered, &bURL))
	b := serve(t, handler(bEntered, &aURL))
	aURL, bURL = a.URL, b.URL
	f := newFetcher(t, fetch.Config{PerHostConcurrency: 1, Timeout: 5 * time.Second})
	var wg sync.WaitGroup
	for _, start := range []string{a.URL, b.URL} {
		wg.Go(func() {
			if resp, err := f.Get(t.Context(), start+"/start", fetch.Validators{}); err != nil {
				t.Errorf("Get %s: %v", start, err)
			} else if string(resp.Body) != "end" {
				t.Errorf("Get %s: body %q", start, resp.Body)
			}
		})
	}
	wg.Wait()
}

func TestMaxRedirectsNegativeDisables(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/end", http.StatusFound)
		}
	})
	for _, max := range []int{-1, -100} {
		t.Run(strconv.Itoa(max), func(t *testing.T) {
			hits.Store(0)
			f := newFetcher(t, fetch.Config{MaxRedirects: max})
			_, err := f.Get(t.Context(), srv.URL+"/start", fetch.Validators{})
			if fe := asFetchError(t, err, fetch.ErrTooManyRedirects); fe.StatusCode != http.StatusFound {
				t.Errorf("StatusCode = %d, want 302", fe.StatusCode)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("server saw %d requests, want 1", n)
			}
		})
	}
}
