package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

func ExampleNew() {
	f, err := fetch.New(fetch.Config{
		Timeout:         10 * time.Second,
		MaxBytes:        2 << 20,
		PerHostInterval: time.Second,
		BlockPrivate:    true, // URLs come from users: keep them off the internal network
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.CloseIdleConnections()

	_, err = f.Get(context.Background(), "http://127.0.0.1:8080/admin", fetch.Validators{})
	fmt.Println(errors.Is(err, fetch.ErrBlocked))
	// Output: true
}

func ExampleFetcher_Get() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fmt.Fprint(w, "Zeus Larissaios")
	}))
	defer srv.Close()

	f, err := fetch.New(fetch.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.CloseIdleConnections()
	ctx := context.Background()

	first, err := f.Get(ctx, srv.URL, fetch.Validators{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d %q etag=%s\n", first.StatusCode, first.Body, first.Validators.ETag)

	// Pass the validators back: an unchanged page costs a 304 and no body.
	second, err := f.Get(ctx, srv.URL, first.Validators)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(second.StatusCode, second.NotModified, second.Body == nil)
	// Output:
	// 200 "Zeus Larissaios" etag="v1"
	// 304 true true
}

func ExampleFetchError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	}))
	defer srv.Close()

	f, err := fetch.New(fetch.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.CloseIdleConnections()

	for range 2 {
		_, err := f.Get(context.Background(), srv.URL, fetch.Validators{})
		var fe *fetch.FetchError
		if !errors.As(err, &fe) {
			return
		}
		switch {
		case errors.Is(err, fetch.ErrRetryLater):
			fmt.Println("not sent: host closed for about", fe.RetryAfter.Round(time.Minute))
		case errors.Is(err, fetch.ErrHTTPStatus):
			fmt.Println("status", fe.StatusCode, "retry after", fe.RetryAfter)
		}
	}
	// Output:
	// status 429 retry after 2m0s
	// not sent: host closed for about 2m0s
}
