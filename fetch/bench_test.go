package fetch_test

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	"github.com/vokter-go/vokter/fetch"
)

// page200KB is a real feed repeated to 200 KB.
func page200KB(b *testing.B) []byte {
	feed := readTestdata(b, "us_nws_weather.atom")
	return bytes.Repeat(feed, 200<<10/len(feed)+1)[:200<<10]
}

func BenchmarkGet(b *testing.B) {
	page := page200KB(b)
	tests := []struct {
		name    string
		handler http.HandlerFunc
		prev    fetch.Validators
	}{
		{"200KB", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
			w.Write(page)
		}, fetch.Validators{}},
		{"200KB-chunked", func(w http.ResponseWriter, r *http.Request) {
			w.Write(page)
		}, fetch.Validators{}},
		{"304", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusNotModified)
		}, fetch.Validators{ETag: `"v1"`}},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			srv := serve(b, tt.handler)
			f := newFetcher(b, fetch.Config{})
			if tt.prev.IsZero() {
				b.SetBytes(int64(len(page)))
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f.Get(b.Context(), srv.URL, tt.prev); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
