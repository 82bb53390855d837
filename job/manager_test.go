package job_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/job"
	"github.com/vokter-go/vokter/store"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestAddRejectsBadRequests(t *testing.T) {
	t.Parallel()
	ok := job.Request{DocumentURL: "http://example.com/", Session: job.Session{ID: "c1"}, Keywords: []string{"argus"}}
	tests := []struct {
		name   string
		modify func(r *job.Request)
		want   error
		code   int
	}{
		{"empty URL", func(r *job.Request) { r.DocumentURL = "" }, job.ErrInvalidDocumentURL, 1},
		{"relative URL", func(r *job.Request) { r.DocumentURL = "/page" }, job.ErrInvalidDocumentURL, 1},
		{"ftp URL", func(r *job.Request) { r.DocumentURL = "ftp://example.com/x" }, job.ErrInvalidDocumentURL, 1},
		{"no host", func(r *job.Request) { r.DocumentURL = "http:///x" }, job.ErrInvalidDocumentURL, 1},
		{"control character", func(r *job.Request) { r.DocumentURL = "http://example.com/\x7f" }, job.ErrInvalidDocumentURL, 1},
		{"empty session", func(r *job.Request) { r.Session.ID = "" }, job.ErrInvalidSession, 2},
		{"blank session", func(r *job.Request) { r.Session.ID = "  " }, job.ErrInvalidSession, 2},
		{"no keywords", func(r *job.Request) { r.Keywords = nil }, job.ErrNoKeywords, 3},
		{"empty keyword", func(r *job.Request) { r.Keywords = []string{""} }, job.ErrNoKeywords, 3},
		{"blank keyword", func(r *job.Request) { r.Keywords = []string{"argus", "   "} }, job.ErrNoKeywords, 3},
		{"empty phrase", func(r *job.Request) { r.Keywords = []string{`""`} }, job.ErrNoKeywords, 3},
		{"punctuation only", func(r *job.Request) { r.Keywords = []string{"!?"} }, job.ErrNoKeywords, 3},
		{"both events ignored", func(r *job.Request) { r.IgnoreAdded, r.IgnoreRemoved = true, true }, job.ErrNoEvents, 4},
		{"interval below floor", func(r *job.Request) { r.Interval = time.Second }, job.ErrInvalidInterval, 6},
		{"negative interval", func(r *job.Request) { r.Interval = -time.Minute }, job.ErrInvalidInterval, 6},
	}
	m, err := job.NewManager("m", job.HandlerFuncs{}, job.Config{Store: store.NewMemory(), MinInterval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop(context.Background())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ok
			tt.modify(&r)
			err := m.Add(context.Background(), r)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Add = %v, want %v", err, tt.want)
			}
			if got := job.Code(err); got != tt.code {
				t.Errorf("Code = %d, want %d", got, tt.code)
			}
		})
	}
	subs, err := m.List(context.Background())
	if err != nil || len(subs) != 0 {
		t.Fatalf("List = %v, %v; want nothing stored", subs, err)
	}
}

func TestCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{job.ErrInvalidDocumentURL, 1},
		{fmt.Errorf("wrapped: %w", job.ErrInvalidSession), 2},
		{job.ErrNoKeywords, 3},
		{job.ErrNoEvents, 4},
		{job.ErrExists, 5},
		{job.ErrNotFound, 7},
		{errors.New("other"), job.CodeUnknown},
	}
	for _, tt := range tests {
		if got := job.Code(tt.err); got != tt.want {
			t.Errorf("Code(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestAddedAndRemovedMatches(t *testing.T) {
	stores(t, func(t *testing.T, newStore func(*testing.T) store.Store) {
		p := newPage(t, html("The river is calm today.", "Nothing to report from Larissa."))
		rec := newRecorder()
		m := startManager(t, "m", rec, testConfig(newStore(t)))
		ctx := context.Background()
		err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "c1", Token: "secret"},
			Keywords: []string{"flood"}, Stemming: true, IgnoreCase: true})
		if err != nil {
			t.Fatal(err)
		}
		if n := p.fetches.Load(); n != 1 {
			t.Fatalf("Add fetched %d times, want 1 (the baseline)", n)
		}

		p.set(html("The river is calm today.", "Severe flooding is expected near the old bridge tonight.", "Nothing to report from Larissa."))
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		got := rec.take()
		if len(got) != 1 {
			t.Fatalf("got %d notifications, want 1: %+v", len(got), got)
		}
		n := got[0]
		if n.DocumentURL != p.URL() || n.Session.ID != "c1" || n.Session.Token != "secret" || n.ContentType != "text/html" {
			t.Errorf("notification header = %+v", n)
		}
		want := job.Match{Event: job.Added, Keyword: "flood", Text: "flooding"}
		if len(n.Matches) != 1 || n.Matches[0].Event != want.Event || n.Matches[0].Keyword != want.Keyword || n.Matches[0].Text != want.Text {
			t.Fatalf("matches = %+v, want %+v", n.Matches, want)
		}
		if s := n.Matches[0].Snippet; !strings.Contains(s, "Severe flooding is expected") || strings.Contains(s, "\n") {
			t.Errorf("snippet = %q", s)
		}

		p.set(html("The river is calm today.", "Nothing to report from Larissa."))
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		got = rec.take()
		if len(got) != 1 || len(got[0].Matches) != 1 || got[0].Matches[0].Event != job.Removed || got[0].Matches[0].Text != "flooding" {
			t.Fatalf("after removal: %+v", got)
		}

		// Unchanged: no notification.
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		if got := rec.take(); len(got) != 0 {
			t.Fatalf("unchanged page notified: %+v", got)
		}
	})
}

func TestKeywords(t *testing.T) {
	t.Parallel()
	const before = "Welcome to the museum of Thessaly."
	tests := []struct {
		name    string
		req     job.Request
		after   string
		matches []string // Text of each expected match, in order
		before  string   // defaults to the English one
	}{
		{"single word", job.Request{Keywords: []string{"argus"}}, "Visit argus today.", []string{"argus"}, ""},
		{"case is significant", job.Request{Keywords: []string{"Argus"}}, "Visit argus today.", nil, ""},
		{"ignore case", job.Request{Keywords: []string{"Argus"}, IgnoreCase: true}, "Visit ARGUS today.", []string{"ARGUS"}, ""},
		{"words in any order", job.Request{Keywords: []string{"zeus larissaios"}}, "The larissaios temple of zeus opens.", []string{"larissaios temple of zeus"}, ""},
		{"all words needed", job.Request{Keywords: []string{"zeus larissaios"}}, "The temple of zeus opens.", nil, ""},
		{"quoted phrase", job.Request{Keywords: []string{`"zeus larissaios"`}}, "The temple of zeus larissaios opens.", []string{"zeus larissaios"}, ""},
		{"quoted phrase in other order", job.Request{Keywords: []string{`"zeus larissaios"`}}, "The larissaios temple of zeus opens.", nil, ""},
		{"stemming", job.Request{Keywords: []string{"flood"}, Stemming: true}, "Flooding reported.", []string{"Flooding"}, ""},
		{"no stemming", job.Request{Keywords: []string{"flood"}}, "Flooding reported.", nil, ""},
		{"stop-words and stemming", job.Request{Keywords: []string{"House of the Gods"}, Stemming: true, Stopwords: true, IgnoreCase: true}, "A god house was found.", []string{"god house"}, ""},
		{"stop-words kept", job.Request{Keywords: []string{"House of the Gods"}, Stemming: true, IgnoreCase: true}, "A god house was found.", nil, ""},
		{"only stop-words", job.Request{Keywords: []string{"the"}, Stopwords: true}, "And the rest.", []string{"the"}, ""},
		{"two keywords", job.Request{Keywords: []string{"argus", "hera"}}, "Hera and argus.\nMore hera here.", []string{"argus", "hera"}, ""},
		{"ignore added", job.Request{Keywords: []string{"argus"}, IgnoreAdded: true}, "Visit argus today.", nil, ""},
		{"greek", job.Request{Keywords: []string{"πλημμύρα"}, IgnoreCase: true}, "Μεγάλη ΠΛΗΜΜΥΡΑ στη Λάρισα.", nil, ""},
		{"greek exact", job.Request{Keywords: []string{"πλημμύρα"}, IgnoreCase: true}, "Μεγάλη πλημμύρα στη Λάρισα.", []string{"πλημμύρα"}, ""},
		{"russian stemming", job.Request{Keywords: []string{"наводнение"}, Stemming: true}, "Сильные наводнения в городе и в области сегодня.", []string{"наводнения"}, "Новости дня: погода в городе и в области."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			old := before
			if tt.before != "" {
				old = tt.before
			}
			p := newPage(t, html(old))
			rec := newRecorder()
			m := startManager(t, "m", rec, testConfig(store.NewMemory()))
			ctx := context.Background()
			r := tt.req
			r.DocumentURL, r.Session = p.URL(), job.Session{ID: "c"}
			if err := m.Add(ctx, r); err != nil {
				t.Fatal(err)
			}
			p.set(html(old, tt.after))
			if err := m.Check(ctx, p.URL()); err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, n := range rec.take() {
				for _, mt := range n.Matches {
					texts = append(texts, mt.Text)
				}
			}
			if fmt.Sprint(texts) != fmt.Sprint(tt.matches) {
				t.Errorf("matches = %q, want %q", texts, tt.matches)
			}
		})
	}
}

func TestSessionsShareOneCluster(t *testing.T) {
	stores(t, func(t *testing.T, newStore func(*testing.T) store.Store) {
		p, rec, m := watched(t, newStore(t), "storm", "a", "b")
		ctx := context.Background()
		err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "a"}, Keywords: []string{"other"}})
		if !errors.Is(err, job.ErrExists) || job.Code(err) != 5 {
			t.Fatalf("second Add of a = %v, want ErrExists", err)
		}
		if n := p.fetches.Load(); n != 1 {
			t.Fatalf("fetches after two Adds = %d, want 1", n)
		}
		p.set(html("calm", "storm coming"))
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		if n := p.fetches.Load(); n != 2 {
			t.Fatalf("fetches after one check = %d, want 2", n)
		}
		got := rec.take()
		if len(got) != 2 || got[0].Session.ID == got[1].Session.ID {
			t.Fatalf("notifications = %+v, want one per session", got)
		}
		subs, err := m.List(ctx)
		if err != nil || len(subs) != 2 || !subs[0].Cluster.Baseline {
			t.Fatalf("List = %+v, %v", subs, err)
		}
	})
}

func TestCancel(t *testing.T) {
	stores(t, func(t *testing.T, newStore func(*testing.T) store.Store) {
		p, rec, m := watched(t, newStore(t), "storm", "a", "b")
		ctx := context.Background()
		if err := m.Cancel(ctx, p.URL(), "nobody"); !errors.Is(err, job.ErrNotFound) || job.Code(err) != 7 {
			t.Fatalf("Cancel unknown = %v", err)
		}
		if err := m.Cancel(ctx, p.URL(), "a"); err != nil {
			t.Fatal(err)
		}
		p.set(html("calm", "storm"))
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		if got := rec.take(); len(got) != 1 || got[0].Session.ID != "b" {
			t.Fatalf("after cancel of a: %+v", got)
		}
		if err := m.Cancel(ctx, p.URL(), "b"); err != nil {
			t.Fatal(err)
		}
		if err := m.Check(ctx, p.URL()); !errors.Is(err, job.ErrNotFound) {
			t.Fatalf("Check after last cancel = %v, want ErrNotFound", err)
		}
		if err := m.Cancel(ctx, p.URL(), "b"); !errors.Is(err, job.ErrNotFound) {
			t.Fatalf("second Cancel = %v", err)
		}
		// A new subscription starts from a new baseline.
		fetches := p.fetches.Load()
		if err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "a"}, Keywords: []string{"storm"}}); err != nil {
			t.Fatal(err)
		}
		if p.fetches.Load() != fetches+1 {
			t.Fatal("re-added URL did not fetch a new baseline")
		}
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		if got := rec.take(); len(got) != 0 {
			t.Fatalf("stale snapshot survived the cluster: %+v", got)
		}
	})
}

func TestTimeoutAfterMaxFailures(t *testing.T) {
	stores(t, func(t *testing.T, newStore func(*testing.T) store.Store) {
		p, rec, m := watched(t, newStore(t), "x", "a", "b")
		ctx := context.Background()
		p.setStatus(http.StatusInternalServerError)
		for i := 1; i <= job.DefaultMaxFailures; i++ {
			err := m.Check(ctx, p.URL())
			var fe *fetch.FetchError
			if !errors.Is(err, job.ErrCheckFailed) || !errors.As(err, &fe) || fe.StatusCode != 500 {
				t.Fatalf("check %d = %v, want a failed check with status 500", i, err)
			}
			if i == job.DefaultMaxFailures-1 {
				if got := rec.takeTimeouts(); len(got) != 0 {
					t.Fatalf("timeout after %d failures", i)
				}
				subs, _ := m.List(ctx)
				if len(subs) != 2 || subs[0].Cluster.Failures != i {
					t.Fatalf("List after %d failures = %+v", i, subs)
				}
			}
		}
		got := rec.takeTimeouts()
		if len(got) != 2 {
			t.Fatalf("timeouts = %+v, want one per session", got)
		}
		for _, to := range got {
			if to.DocumentURL != p.URL() || to.ContentType != "text/html" || to.Failures != 10 {
				t.Errorf("timeout = %+v", to)
			}
		}
		if subs, _ := m.List(ctx); len(subs) != 0 {
			t.Fatalf("subscriptions survived the timeout: %+v", subs)
		}
		if err := m.Check(ctx, p.URL()); !errors.Is(err, job.ErrNotFound) {
			t.Fatalf("Check after timeout = %v", err)
		}
	})
}

func TestSuccessResetsFailures(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	m := startManager(t, "m", newRecorder(), testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "x", "a")
	p.setStatus(http.StatusServiceUnavailable + 1) // 504, no Retry-After
	for range 9 {
		_ = m.Check(ctx, p.URL())
	}
	p.setStatus(http.StatusOK)
	if err := m.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	subs, _ := m.List(ctx)
	if len(subs) != 1 || subs[0].Cluster.Failures != 0 {
		t.Fatalf("after success: %+v", subs)
	}
}

func TestRestartResumes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vokter.db")
	p := newPage(t, html("calm"))
	ctx := context.Background()

	st, err := store.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	m1, err := job.NewManager("m", newRecorder(), testConfig(st))
	if err != nil {
		t.Fatal(err)
	}
	if err := m1.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m1.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "a"}, Keywords: []string{"storm"}, Interval: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := m1.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	p.set(html("calm", "storm warning"))
	st, err = store.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec := newRecorder()
	startManager(t, "m", rec, testConfig(st))
	// No Check: the resumed schedule finds the change by itself.
	if !rec.wait(t, 10*time.Second) {
		t.Fatal("no notification after restart")
	}
	got := rec.take()
	if len(got) != 1 || got[0].Matches[0].Text != "storm" {
		t.Fatalf("notifications = %+v", got)
	}
}

func TestScheduledChecksDoNotOverlap(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	inFlight, maxInFlight := 0, 0
	p := newPage(t, html("calm"))
	p.setWrap(func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
		mu.Lock()
		inFlight++
		maxInFlight = max(maxInFlight, inFlight)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond) // a slow server: longer than the interval
		next(w, r)
		mu.Lock()
		inFlight--
		mu.Unlock()
	})
	m := startManager(t, "m", newRecorder(), testConfig(store.NewMemory()))
	if err := m.Add(context.Background(), job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "a"}, Keywords: []string{"x"}, Interval: 10 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.fetches.Load() < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if p.fetches.Load() < 4 {
		t.Fatalf("only %d fetches: the schedule did not run", p.fetches.Load())
	}
	if maxInFlight != 1 {
		t.Fatalf("%d checks of one URL ran at once", maxInFlight)
	}
}

func TestHandlerFailuresExpireSubscription(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	rec := newRecorder()
	rec.fail.Store(-1)
	cfg := testConfig(store.NewMemory())
	cfg.MaxDeliveryFailures = 3
	m := startManager(t, "m", rec, cfg)
	ctx := context.Background()
	subscribe(t, m, p.URL(), "storm", "gone")
	p.set(html("calm", "storm"))
	if err := m.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		subs, err := m.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscription not expired after %d calls", rec.calls.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := rec.calls.Load(); n != 3 {
		t.Fatalf("handler called %d times, want 3", n)
	}
}

func TestHandlerRetrySucceeds(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	rec := newRecorder()
	rec.fail.Store(2)
	m := startManager(t, "m", rec, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "storm", "c")
	p.set(html("calm", "storm"))
	if err := m.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	if !rec.wait(t, 5*time.Second) {
		t.Fatal("notification never delivered")
	}
	if n := rec.calls.Load(); n != 3 {
		t.Fatalf("calls = %d, want 3 (two failures, one success)", n)
	}
	if subs, _ := m.List(ctx); len(subs) != 1 {
		t.Fatal("subscription lost after a recovered client")
	}
}

func TestHandlerPanicIsRecovered(t *testing.T) {
	t.Parallel()
	p := newPage(t, html("calm"))
	var calls sync.WaitGroup
	calls.Add(2)
	var once sync.Once
	h := job.HandlerFuncs{Notification: func(context.Context, job.Notification) error {
		defer calls.Done()
		var panicked bool
		once.Do(func() { panicked = true })
		if panicked {
			panic("boom")
		}
		return nil
	}}
	m := startManager(t, "m", h, testConfig(store.NewMemory()))
	ctx := context.Background()
	subscribe(t, m, p.URL(), "storm", "c")
	p.set(html("calm", "storm"))
	if err := m.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	retried := make(chan struct{})
	go func() { calls.Wait(); close(retried) }()
	select {
	case <-retried: // the retry after the panic
	case <-time.After(10 * time.Second):
		t.Fatal("no retry after a panicking handler")
	}
}

func TestManagersShareStore(t *testing.T) {
	t.Parallel()
	st := store.NewMemory()
	p := newPage(t, html("calm"))
	ctx := context.Background()
	recA, recB := newRecorder(), newRecorder()
	a := startManager(t, "a", recA, testConfig(st))
	b := startManager(t, "b", recB, testConfig(st))
	for _, m := range []*job.Manager{a, b} {
		if err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "same"}, Keywords: []string{"storm"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Cancel(ctx, p.URL(), "same"); err != nil {
		t.Fatal(err)
	}
	subs, err := b.List(ctx)
	if err != nil || len(subs) != 1 {
		t.Fatalf("b lost its subscription when a cancelled: %+v %v", subs, err)
	}
	p.set(html("calm", "storm"))
	if err := b.Check(ctx, p.URL()); err != nil {
		t.Fatal(err)
	}
	if len(recB.take()) != 1 || len(recA.take()) != 0 {
		t.Fatal("notifications crossed managers")
	}
}

func TestBadPagesAreBoundedFailures(t *testing.T) {
	t.Parallel()
	good := newPage(t, html("calm"))
	hang := newPage(t, html("calm"))
	release := make(chan struct{})
	defer close(release)
	hang.setWrap(func(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
		if hang.fetches.Load() == 0 {
			next(w, r) // the baseline
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	loop := newPage(t, html("calm"))
	huge := newPage(t, html("calm"))
	binary := newPage(t, html("calm"))

	cfg := testConfig(store.NewMemory())
	cfg.Fetch = fetch.Config{Timeout: 300 * time.Millisecond, MaxBytes: 64 << 10}
	rec := newRecorder()
	m := startManager(t, "m", rec, cfg)
	ctx := context.Background()
	for _, p := range []*page{good, hang, loop, huge, binary} {
		if err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: "c"}, Keywords: []string{"storm"}}); err != nil {
			t.Fatal(err)
		}
	}
	var loops atomic.Int64
	loop.setWrap(func(w http.ResponseWriter, r *http.Request, _ http.HandlerFunc) {
		loops.Add(1)
		http.Redirect(w, r, fmt.Sprintf("/again%d", loops.Load()), http.StatusFound)
	})
	huge.set(strings.Repeat("storm ", 1<<20))
	binary.mu.Lock()
	binary.ctype, binary.body = "text/html", "\x00\x01\x02\x03\xff\xfe"+strings.Repeat("\x00", 4096)
	binary.mu.Unlock()
	for _, p := range []*page{hang, loop, huge, binary} {
		start := time.Now()
		err := m.Check(ctx, p.URL())
		if !errors.Is(err, job.ErrCheckFailed) {
			t.Errorf("%s: Check = %v, want ErrCheckFailed", p.URL(), err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("check took %v", d)
		}
	}
	good.set(html("calm", "storm"))
	if err := m.Check(ctx, good.URL()); err != nil {
		t.Fatal(err)
	}
	if got := rec.take(); len(got) != 1 || got[0].DocumentURL != good.URL() {
		t.Fatalf("good page: %+v", got)
	}
	subs, _ := m.List(ctx)
	for _, s := range subs {
		want := 1
		if s.DocumentURL == good.URL() {
			want = 0
		}
		if s.Cluster.Failures != want || (want == 1 && s.Cluster.LastError == "") {
			t.Errorf("%s: failures %d (%q), want %d", s.DocumentURL, s.Cluster.Failures, s.Cluster.LastError, want)
		}
	}
	if n := loops.Load(); n > fetch.DefaultMaxRedirects+1 {
		t.Errorf("redirect loop fetched %d times", n)
	}
}

func TestConcurrentAddCancelCheck(t *testing.T) {
	stores(t, func(t *testing.T, newStore func(*testing.T) store.Store) {
		p := newPage(t, html("calm"))
		m := startManager(t, "m", newRecorder(), testConfig(newStore(t)))
		ctx := context.Background()
		const sessions = 8
		run := func(n int, f func(i int)) {
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() { defer wg.Done(); f(i) }()
			}
			wg.Wait()
		}

		// Two goroutines per session add it while others check: each
		// session is added exactly once, to one cluster.
		var added, exists atomic.Int64
		run(2*sessions, func(i int) {
			err := m.Add(ctx, job.Request{DocumentURL: p.URL(), Session: job.Session{ID: fmt.Sprintf("s%d", i%sessions)}, Keywords: []string{"storm"}})
			switch {
			case err == nil:
				added.Add(1)
			case errors.Is(err, job.ErrExists):
				exists.Add(1)
			default:
				t.Error(err)
			}
			_ = m.Check(ctx, p.URL())
		})
		if added.Load() != sessions || exists.Load() != sessions {
			t.Fatalf("added %d, ErrExists %d; want %d each", added.Load(), exists.Load(), sessions)
		}

		// Half the sessions cancel, twice each, while the rest check.
		var cancelled, missing atomic.Int64
		run(2*sessions, func(i int) {
			if i%4 >= 2 {
				_ = m.Check(ctx, p.URL())
				return
			}
			err := m.Cancel(ctx, p.URL(), fmt.Sprintf("s%d", i/4)) // s0..s3, twice each
			switch {
			case err == nil:
				cancelled.Add(1)
			case errors.Is(err, job.ErrNotFound):
				missing.Add(1)
			default:
				t.Error(err)
			}
		})
		subs, err := m.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) != sessions/2 || cancelled.Load() != sessions/2 || missing.Load() != sessions/2 {
			t.Fatalf("%d subscriptions left after %d cancels (%d not found): %+v", len(subs), cancelled.Load(), missing.Load(), subs)
		}
		// One cluster: one fetch per check.
		before := p.fetches.Load()
		if err := m.Check(ctx, p.URL()); err != nil {
			t.Fatal(err)
		}
		if got := p.fetches.Load() - before; got != 1 || !subs[0].Cluster.Baseline {
			t.Fatalf("one check fetched %d times", got)
		}
	})
}

func TestStopDrainsAndRefuses(t *testing.T) {
	t.Parallel()
	m, err := job.NewManager("m", job.HandlerFuncs{}, testConfig(store.NewMemory()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ctx); !errors.Is(err, job.ErrStarted) {
		t.Fatalf("second Start = %v", err)
	}
	if err := m.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-m.Stopped():
	default:
		t.Fatal("Stopped not closed")
	}
	if err := m.Add(ctx, job.Request{DocumentURL: "http://example.com", Session: job.Session{ID: "c"}, Keywords: []string{"x"}}); !errors.Is(err, job.ErrStopped) {
		t.Fatalf("Add after Stop = %v", err)
	}
	if err := m.Stop(ctx); err != nil {
		t.Fatalf("second Stop = %v", err)
	}
}

func TestNewManagerValidates(t *testing.T) {
	t.Parallel()
	if _, err := job.NewManager("m", job.HandlerFuncs{}, job.Config{}); err == nil || !strings.Contains(err.Error(), "Store") {
		t.Fatalf("missing store: %v", err)
	}
	if _, err := job.NewManager("", job.HandlerFuncs{}, job.Config{Store: store.NewMemory()}); err == nil {
		t.Fatal("empty name accepted")
	}
	if _, err := job.NewManager("m", nil, job.Config{Store: store.NewMemory()}); err == nil {
		t.Fatal("nil handler accepted")
	}
	if _, err := job.NewManager("m", job.HandlerFuncs{}, job.Config{Store: store.NewMemory(), MaxFailures: -1}); err == nil || !strings.Contains(err.Error(), "MaxFailures") {
		t.Fatalf("negative MaxFailures: %v", err)
	}
}
