package fetch

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// testClock is a settable clock for the internal tests.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestHostKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ url, want string }{
		{"http://Example.COM/a", "example.com"},
		{"https://example.com/a", "example.com"},
		{"http://example.com:80/a", "example.com"},
		{"https://example.com:443/a", "example.com"},
		{"HTTPS://example.com:8443/", "example.com:8443"},
		{"http://example.com:443/", "example.com:443"},
		{"http://example.com./a", "example.com"},
		{"https://EXAMPLE.com.:443/a", "example.com"},
		{"http://example.com.:8080/", "example.com:8080"},
		{"http://[2001:db8::1]/", "2001:db8::1"},
		{"http://[2001:db8::1]:8080/", "[2001:db8::1]:8080"},
		{"http://127.0.0.1:8080/x", "127.0.0.1:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			u, err := url.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if got := hostKey(u); got != tt.want {
				t.Errorf("hostKey = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHostTableForgetsIdleHosts(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Unix(1_700_000_000, 0)}
	tab := newHostTable(2, 0, clock.Now)
	ctx := context.Background()

	// Hosts without constraints are forgotten as soon as released.
	for i := range 1000 {
		release, _, err := tab.acquire(ctx, "h"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	if n := tab.size(); n != 0 {
		t.Errorf("after 1000 released hosts the table holds %d, want 0", n)
	}

	// Hosts closed by Retry-After stay until their window passes, and the
	// table never holds much more than the closed hosts.
	const closed = 1000
	for i := range closed {
		tab.closeUntil("c"+strconv.Itoa(i), clock.Now().Add(30*time.Second))
	}
	if n := tab.size(); n != closed {
		t.Errorf("table holds %d hosts, want the %d closed ones", n, closed)
	}
	if _, _, err := tab.acquire(ctx, "c7"); !errors.Is(err, ErrRetryLater) {
		t.Errorf("acquire of a closed host: err = %v, want ErrRetryLater", err)
	}
	clock.Advance(sweepEvery)
	release, _, err := tab.acquire(ctx, "new")
	if err != nil {
		t.Fatal(err)
	}
	release()
	if n := tab.size(); n != 0 {
		t.Errorf("after the windows passed the table holds %d hosts, want 0", n)
	}
}

func TestHostTableKeepsBusyHosts(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Unix(1_700_000_000, 0)}
	tab := newHostTable(1, 0, clock.Now)
	ctx := context.Background()
	release, _, err := tab.acquire(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(sweepEvery)
	for i := range 2 * minSweep {
		r, _, err := tab.acquire(ctx, "h"+strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		r()
	}
	// The busy host survived the sweeps: a second acquire must wait.
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, _, err := tab.acquire(short, "busy"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second acquire of a busy host: err = %v, want DeadlineExceeded", err)
	}
	release()
	if n := tab.size(); n != 0 {
		t.Errorf("table holds %d hosts after release, want 0", n)
	}
}
