package job_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/job"
	"github.com/vokter-go/vokter/store"
)

// until polls cond every few milliseconds for up to d.
func until(t *testing.T, d time.Duration, cond func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return true
}

// A check that started before its cluster was deleted and re-created must
// not write into the new cluster: the new subscriber would be told that
// text present at its baseline was added.
func TestStaleCheckDoesNotTouchNewCluster(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm sea"))
	rec := newRecorder()
	m := startManager(t, "m", rec, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "calm", "A")
	block, entered := make(chan struct{}), make(chan struct{}, 1)
	p.setWrap(func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
		select {
		case entered <- struct{}{}:
			<-block // the first fetch after this point hangs until released
		default:
		}
		next(w, r)
	})
	p.set(html("calm sea", "a new line"))
	checked := make(chan error, 1)
	go func() { checked <- m.Check(ctx, p.URL()) }()
	<-entered
	if err := m.Cancel(ctx, p.URL(), "A"); err != nil {
		t.Fatal(err)
	}
	added := make(chan error, 1)
	go func() {
		added <- m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "B"}, Keywords: []string{"calm"}})
	}()
	if !until(t, 5*time.Second, func() bool { subs, _ := m.List(ctx); return len(subs) == 1 }) {
		t.Fatal("B never subscribed")
	}
	close(block)
	<-checked
	if err := <-added; err != nil {
		t.Fatal(err)
	}
	checkNotified(t, m, rec, p.URL(), 0) // nothing B had not seen
}

// Deliveries not made when Stop returns stay in the store and are made by
// the next manager on it: nothing is lost.
func TestUndeliveredNotificationsSurviveRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vokter.db")
	st, err := store.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, html("calm"))
	g := newGate()
	slow := g.handler()
	cfg := testConfig(st)
	cfg.DeliveryWorkers = 1
	m, err := job.NewManager("m", slow, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	const n = 5
	for i := range n {
		subscribe(t, m, p.URL(), "storm", fmt.Sprint(i))
	}
	p.set(html("calm", "storm"))
	checkCtx, cancel := context.WithCancel(ctx)
	go func() { _ = m.Check(checkCtx, p.URL()) }()
	<-g.entered // one delivery in progress, the others stored
	cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- m.Stop(ctx) }()
	close(g.release)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	first := g.delivered.Load()
	if first < 1 || first > n {
		t.Fatalf("delivered %d before Stop", first)
	}

	rec := newRecorder()
	startManager(t, "m", rec, testConfig(st))
	if !until(t, 5*time.Second, func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return int(first)+len(rec.notifications) >= n }) {
		t.Fatalf("after restart: %d + %d of %d delivered", first, len(rec.take()), n)
	}
	t.Cleanup(func() { _ = st.Close() })
}

// The context of one Check bounds only that caller's wait, never the
// delivery to the other subscribers.
func TestCheckContextDoesNotDropOthers(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	g := newGate()
	h := g.handler()
	cfg := testConfig(store.NewMemory())
	cfg.DeliveryWorkers = 1
	m := startManager(t, "m", h, cfg)
	ctx := context.Background()
	const n = 10
	for i := range n {
		subscribe(t, m, p.URL(), "storm", fmt.Sprint(i))
	}
	p.set(html("calm", "storm"))
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := m.Check(cctx, p.URL()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Check = %v, want its deadline", err)
	}
	close(g.release)
	if !until(t, 5*time.Second, func() bool { return g.delivered.Load() == n }) {
		t.Fatalf("%d of %d subscribers notified", g.delivered.Load(), n)
	}
}

// Stop returns at its deadline even while a handler ignores its context.
func TestStopHonoursDeadline(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	entered, release := make(chan struct{}, 1), make(chan struct{})
	h := job.HandlerFuncs{Notification: func(context.Context, job.Notification) error {
		select {
		case entered <- struct{}{}:
		default:
		}
		<-release // ignores its context
		return nil
	}}
	m, err := job.NewManager("m", h, testConfig(store.NewMemory()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	subscribe(t, m, p.URL(), "storm", "c")
	p.set(html("calm", "storm"))
	go func() { _ = m.Check(ctx, p.URL()) }()
	<-entered
	sctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := m.Stop(sctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v, want its deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Stop with a 100ms deadline took %v", d)
	}
	close(release)
	select {
	case <-m.Stopped():
	case <-time.After(5 * time.Second):
		t.Fatal("goroutines still running after the handler returned")
	}
}

// The same document served with another media type cannot be compared
// with its snapshot: a failed check, not a change.
func TestContentTypeChangeIsAFailure(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	rec := newRecorder()
	m := startManager(t, "m", rec, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "body", "c")
	p.mu.Lock()
	p.ctype, p.body = "text/plain", p.body+" "
	p.mu.Unlock()
	if err := m.Check(ctx, p.URL()); !errors.Is(err, job.ErrContentTypeChanged) || !errors.Is(err, job.ErrCheckFailed) {
		t.Fatalf("Check = %v, want ErrContentTypeChanged", err)
	}
	if got := rec.take(); len(got) != 0 {
		t.Fatalf("notified: %+v", got)
	}
	if subs, _ := m.List(ctx); subs[0].Cluster.Failures != 1 {
		t.Fatalf("failures = %d, want 1", subs[0].Cluster.Failures)
	}
}

// A manager works before Start: Add fetches the baseline, Check detects and
// delivers.
func TestAddAndCheckBeforeStart(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	rec := newRecorder()
	m, err := job.NewManager("m", rec, testConfig(store.NewMemory()))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop(context.Background())
	subscribe(t, m, p.URL(), "storm", "c")
	p.set(html("calm", "storm"))
	checkNotified(t, m, rec, p.URL(), 1)
}

// A 304 answer to a conditional request stores nothing and notifies
// nobody.
func TestNotModified(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	var conditional atomic.Int64
	p.setWrap(func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
		if r.Header.Get("If-None-Match") == `"v1"` {
			conditional.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		next(w, r)
	})
	rec := newRecorder()
	m := startManager(t, "m", rec, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "calm", "c")
	before, _ := m.List(ctx)
	p.set(html("storm")) // not served: the server answers 304
	if err := m.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	after, _ := m.List(ctx)
	if conditional.Load() != 1 || len(rec.take()) != 0 {
		t.Fatalf("conditional requests %d", conditional.Load())
	}
	if !after[0].Cluster.LastChange.Equal(before[0].Cluster.LastChange) || !after[0].Cluster.LastCheck.After(before[0].Cluster.LastCheck) {
		t.Fatalf("cluster before %+v after %+v", before[0].Cluster, after[0].Cluster)
	}
}

// The cluster runs at the shortest interval of its subscriptions, and stops
// when the last one is cancelled.
func TestIntervalFollowsSubscriptions(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	m := startManager(t, "m", newRecorder(), testConfig(store.NewMemory()))
	ctx := context.Background()
	add := func(id string, every time.Duration) {
		t.Helper()
		if err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: id}, Keywords: []string{"x"}, Interval: every}); err != nil {
			t.Fatal(err)
		}
	}
	add("slow", time.Hour)
	time.Sleep(50 * time.Millisecond)
	if n := p.fetches.Load(); n != 1 {
		t.Fatalf("hourly cluster fetched %d times", n)
	}
	add("fast", 10*time.Millisecond)
	if !until(t, 5*time.Second, func() bool { return p.fetches.Load() >= 4 }) {
		t.Fatalf("fast subscription did not speed the cluster up: %d fetches", p.fetches.Load())
	}
	if subs, _ := m.List(ctx); subs[0].Cluster.Interval != 10*time.Millisecond {
		t.Fatalf("interval = %v", subs[0].Cluster.Interval)
	}
	if err := m.Cancel(ctx, p.URL(), "fast"); err != nil {
		t.Fatal(err)
	}
	if subs, _ := m.List(ctx); subs[0].Cluster.Interval != time.Hour {
		t.Fatalf("interval after cancel = %v", subs[0].Cluster.Interval)
	}
	time.Sleep(30 * time.Millisecond) // a check in flight may still finish
	n := p.fetches.Load()
	time.Sleep(100 * time.Millisecond)
	if got := p.fetches.Load(); got != n {
		t.Fatalf("hourly cluster kept fetching: %d then %d", n, got)
	}
	if err := m.Cancel(ctx, p.URL(), "slow"); err != nil {
		t.Fatal(err)
	}
}

// A handler call that outlives Config.DeliveryTimeout sees its context end
// and is retried.
func TestDeliveryTimeout(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	var calls atomic.Int64
	done := make(chan struct{})
	h := job.HandlerFuncs{Notification: func(ctx context.Context, _ job.Notification) error {
		if calls.Add(1) == 1 {
			<-ctx.Done()
			return ctx.Err()
		}
		close(done)
		return nil
	}}
	cfg := testConfig(store.NewMemory())
	cfg.DeliveryTimeout = 50 * time.Millisecond
	m := startManager(t, "m", h, cfg)
	subscribe(t, m, p.URL(), "storm", "c")
	p.set(html("calm", "storm"))
	if err := m.Check(context.Background(), p.URL()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("no retry after the timeout (%d calls)", calls.Load())
	}
}

// A check that hangs does not hold up the checks of other documents.
func TestHungDocumentDoesNotBlockOthers(t *testing.T) {
	t.Parallel()
	hung, good := newPage(t, html("calm")), newPage(t, html("calm"))
	release := make(chan struct{})
	defer close(release)
	rec := newRecorder()
	m := startManager(t, "m", rec, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, hung.URL(), "storm", "c")
	subscribe(t, m, good.URL(), "storm", "c")
	hung.setWrap(func(w http.ResponseWriter, r *http.Request, _ http.HandlerFunc) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = m.Check(hctx, hung.URL()) }()
	good.set(html("calm", "storm"))
	checkNotified(t, m, rec, good.URL(), 1)
}

// URLs that differ only in the case of scheme and host, or in a fragment,
// name one document.
func TestURLNormalization(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	m := startManager(t, "m", newRecorder(), testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "x", "a")
	upper := "HTTP://" + p.URL()[len("http://"):] + "#section"
	err := m.Add(ctx, job.Request{DocumentURL: upper, Session: job.Session{ID: "a"}, Keywords: []string{"x"}})
	if !errors.Is(err, job.ErrExists) {
		t.Fatalf("Add of the same URL in other case = %v, want ErrExists", err)
	}
	if err := m.Cancel(ctx, upper, "a"); err != nil {
		t.Fatal(err)
	}
}

// gate is a handler whose first call blocks until release is closed.
type gate struct {
	entered   chan struct{} // receives once the first call blocks
	release   chan struct{}
	delivered atomic.Int64
}

func newGate() *gate {
	return &gate{entered: make(chan struct{}, 1), release: make(chan struct{})}
}

func (g *gate) handler() job.HandlerFuncs {
	return job.HandlerFuncs{Notification: func(context.Context, job.Notification) error {
		select {
		case g.entered <- struct{}{}:
			<-g.release
		default:
		}
		g.delivered.Add(1)
		return nil
	}}
}
