package fetch_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		field string
		cfg   fetch.Config
	}{
		{"Timeout", fetch.Config{Timeout: -time.Second}},
		{"MaxBytes", fetch.Config{MaxBytes: -1}},
		{"PerHostConcurrency", fetch.Config{PerHostConcurrency: -2}},
		{"PerHostInterval", fetch.Config{PerHostInterval: -time.Millisecond}},
		{"MaxRetryAfter", fetch.Config{MaxRetryAfter: -time.Minute}},
		{"UserAgent", fetch.Config{UserAgent: "bot\r\nX-Injected: 1"}},
		{"Transport", fetch.Config{BlockPrivate: true, Client: &http.Client{Transport: roundTripFunc(nil)}}},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			t.Parallel()
			f, err := fetch.New(tt.cfg)
			if !errors.Is(err, fetch.ErrInvalidConfig) || f != nil {
				t.Fatalf("New = %v, %v; want nil, ErrInvalidConfig", f, err)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestNewCopiesClient(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/end", http.StatusFound)
			return
		}
		fmt.Fprint(w, r.UserAgent())
	})
	inner := &http.Transport{}
	t.Cleanup(inner.CloseIdleConnections)
	var trips atomic.Int32
	base := &http.Client{
		Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			trips.Add(1)
			return inner.RoundTrip(r)
		}),
		Timeout: time.Nanosecond, // would fail every request if it were used
	}
	f := newFetcher(t, fetch.Config{Client: base, UserAgent: "vokter-test/0"})
	resp, err := f.Get(t.Context(), srv.URL+"/start", fetch.Validators{})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if string(resp.Body) != "vokter-test/0" || resp.URL != srv.URL+"/end" {
		t.Errorf("Body, URL = %q, %q; want the user agent and /end", resp.Body, resp.URL)
	}
	if trips.Load() != 2 {
		t.Errorf("base transport made %d round trips, want 2", trips.Load())
	}
	if base.CheckRedirect != nil || base.Timeout != time.Nanosecond {
		t.Error("New modified the base client")
	}
}

func TestFetchErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  *fetch.FetchError
		want string
	}{
		{"status and retry", &fetch.FetchError{URL: "https://example.com/", StatusCode: 503, RetryAfter: 2 * time.Minute, Err: fetch.ErrHTTPStatus},
			"fetch: GET https://example.com/: 503 Service Unavailable (retry after 2m0s): fetch: unexpected HTTP status"},
		{"no response", &fetch.FetchError{URL: "ftp://x", Err: fetch.ErrInvalidURL},
			"fetch: GET ftp://x: fetch: invalid URL"},
		{"unknown status", &fetch.FetchError{URL: "http://x/", StatusCode: 599, Err: fetch.ErrHTTPStatus},
			"fetch: GET http://x/: 599: fetch: unexpected HTTP status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
			if !errors.Is(tt.err, tt.err.Err) || tt.err.Unwrap() != tt.err.Err {
				t.Error("Unwrap does not return Err")
			}
		})
	}
}
