package fetch

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// A declared Content-Length is a claim, not data: readBody must not
// allocate it up front.
func TestReadBodyDoesNotTrustContentLength(t *testing.T) {
	const declared = 64 << 20
	f, err := New(Config{MaxBytes: 2 * declared})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	body, err := f.readBody(strings.NewReader("short"), declared)
	runtime.ReadMemStats(&after)
	if err != nil || string(body) != "short" {
		t.Fatalf("readBody = %q, %v; want short, nil", body, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading 5 bytes announced as %d allocated %d bytes", declared, got)
	}
}

func TestReadBodySizes(t *testing.T) {
	t.Parallel()
	f, err := New(Config{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, maxInitialBody - 1, maxInitialBody, maxInitialBody + 1, 200 << 10, 1 << 20} {
		data := bytes.Repeat([]byte("x"), n)
		for _, size := range []int64{int64(n), -1, int64(n) + 10, int64(n / 2)} {
			got, err := f.readBody(bytes.NewReader(data), size)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("n=%d size=%d: got %d bytes, %v", n, size, len(got), err)
			}
		}
	}
}
