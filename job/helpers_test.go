package job_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/job"
	"github.com/vokter-go/vokter/store"
)

// page is a web page on loopback whose content the test changes.
type page struct {
	srv    *httptest.Server
	mu     sync.Mutex
	body   string
	ctype  string
	status int
	// wrap, when set, serves requests instead, calling next for the
	// page's normal answer.
	wrap    func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc)
	fetches atomic.Int64
}

func newPage(t *testing.T, body string) *page {
	t.Helper()
	p := &page{body: body, ctype: "text/html; charset=utf-8", status: http.StatusOK}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		wrap := p.wrap
		p.mu.Unlock()
		if wrap != nil {
			wrap(w, r, p.serve)
			return
		}
		p.serve(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *page) serve(w http.ResponseWriter, _ *http.Request) {
	p.fetches.Add(1)
	p.mu.Lock()
	body, ctype, status := p.body, p.ctype, p.status
	p.mu.Unlock()
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

func (p *page) setWrap(wrap func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc)) {
	p.mu.Lock()
	p.wrap = wrap
	p.mu.Unlock()
}

func (p *page) URL() string { return p.srv.URL + "/page" }

func (p *page) set(body string) {
	p.mu.Lock()
	p.body = body
	p.mu.Unlock()
}

func (p *page) setStatus(status int) {
	p.mu.Lock()
	p.status = status
	p.mu.Unlock()
}

func html(paragraphs ...string) string {
	s := "<html><head><title>t</title></head><body>"
	for _, p := range paragraphs {
		s += "<p>" + p + "</p>\n"
	}
	return s + "</body></html>"
}

// recorder is a Handler that keeps what it is given.
type recorder struct {
	mu            sync.Mutex
	notifications []job.Notification
	timeouts      []job.Timeout
	fail          atomic.Int64 // calls to fail before succeeding; -1 forever
	calls         atomic.Int64
	got           chan struct{}
}

func newRecorder() *recorder { return &recorder{got: make(chan struct{}, 1024)} }

func (r *recorder) OnNotification(_ context.Context, n job.Notification) error {
	r.calls.Add(1)
	if r.failing() {
		return errFailing
	}
	r.mu.Lock()
	r.notifications = append(r.notifications, n)
	r.mu.Unlock()
	r.got <- struct{}{}
	return nil
}

func (r *recorder) OnTimeout(_ context.Context, t job.Timeout) error {
	r.calls.Add(1)
	r.mu.Lock()
	r.timeouts = append(r.timeouts, t)
	r.mu.Unlock()
	r.got <- struct{}{}
	return nil
}

func (r *recorder) failing() bool {
	for {
		n := r.fail.Load()
		if n == 0 {
			return false
		}
		if n < 0 || r.fail.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

var errFailing = &failErr{}

type failErr struct{}

func (*failErr) Error() string { return "client gone" }

// take returns and clears the notifications received so far.
func (r *recorder) take() []job.Notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.notifications
	r.notifications = nil
	return n
}

func (r *recorder) takeTimeouts() []job.Timeout {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.timeouts
	r.timeouts = nil
	return t
}

// wait blocks until a handler call succeeded or the deadline passed.
func (r *recorder) wait(t *testing.T, d time.Duration) bool {
	t.Helper()
	select {
	case <-r.got:
		return true
	case <-time.After(d):
		return false
	}
}

// stores runs f on a memory store and on a bbolt file.
func stores(t *testing.T, f func(t *testing.T, newStore func(t *testing.T) store.Store)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		f(t, func(t *testing.T) store.Store {
			st := store.NewMemory()
			t.Cleanup(func() { _ = st.Close() })
			return st
		})
	})
	t.Run("bolt", func(t *testing.T) {
		t.Parallel()
		f(t, func(t *testing.T) store.Store {
			st, err := store.OpenBolt(filepath.Join(t.TempDir(), "vokter.db"), &store.BoltOptions{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			return st
		})
	})
}

// testConfig is a config for tests: checks are run by hand (long
// intervals) unless a test asks for less.
func testConfig(st store.Store) job.Config {
	return job.Config{
		Store:           st,
		MinInterval:     time.Millisecond,
		DefaultInterval: time.Hour,
		DeliveryBackoff: time.Millisecond,
		StartJitter:     time.Millisecond,
	}
}

func startManager(t *testing.T, name string, h job.Handler, cfg job.Config) *job.Manager {
	t.Helper()
	m, err := job.NewManager(name, h, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := m.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return m
}

// subscribe adds one subscription per session to url, watching keyword.
func subscribe(t *testing.T, m *job.Manager, url, keyword string, sessions ...string) {
	t.Helper()
	for _, id := range sessions {
		err := m.Add(context.Background(), job.Request{DocumentURL: url, Session: job.Session{ID: id}, Keywords: []string{keyword}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkNotified runs a check of url and returns its notifications, failing
// unless there are want of them.
func checkNotified(t *testing.T, m *job.Manager, rec *recorder, url string, want int) []job.Notification {
	t.Helper()
	if err := m.Check(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	got := rec.take()
	if len(got) != want {
		t.Fatalf("%d notifications, want %d: %+v", len(got), want, got)
	}
	return got
}

// watched starts a manager "m" on st whose sessions watch a calm page for
// keyword.
func watched(t *testing.T, st store.Store, keyword string, sessions ...string) (*page, *recorder, *job.Manager) {
	t.Helper()
	p := newPage(t, html("calm"))
	rec := newRecorder()
	m := startManager(t, "m", rec, testConfig(st))
	subscribe(t, m, p.URL(), keyword, sessions...)
	return p, rec, m
}
