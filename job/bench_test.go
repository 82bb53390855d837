package job

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/store"
)

// benchText returns a page of about size bytes of word lines, and a copy
// with one word in a hundred replaced by a keyword of the benchmark.
func benchText(size int, keywords []string) (old, new string) {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the river rises over the old bridge while people of the town watch water reach the square and the market")
	var a, b strings.Builder
	for i := 0; a.Len() < size; i++ {
		w := words[r.IntN(len(words))]
		a.WriteString(w)
		if i%100 == 50 {
			w = keywords[r.IntN(len(keywords))]
		}
		b.WriteString(w)
		sep := " "
		if i%15 == 14 {
			sep = "\n"
		}
		a.WriteString(sep)
		b.WriteString(sep)
	}
	return a.String(), b.String()
}

func benchSubs(n int) []*subscription {
	subs := make([]*subscription, n)
	for i := range subs {
		subs[i] = &subscription{Request: Request{
			DocumentURL: "http://example.com/", Session: Session{ID: fmt.Sprint(i)},
			Keywords: []string{fmt.Sprintf("kw%06d", i)}, Stemming: true, IgnoreCase: true,
		}}
	}
	return subs
}

// BenchmarkMatch matches one check's diffs (a 200 KB page with 1% of its
// words changed) against N subscriptions with distinct keywords.
func BenchmarkMatch(b *testing.B) {
	// The changed words are keywords of the first 100 subscriptions, so
	// both sizes find the same matches: the difference is the index.
	keywords := make([]string, 100)
	for i := range keywords {
		keywords[i] = fmt.Sprintf("kw%06d", i)
	}
	old, new := benchText(200<<10, keywords)
	diffs := diff.Compute(old, new, nil)
	for _, n := range []int{100, 100_000} {
		mt := newMatcher(benchSubs(n), "en")
		b.Run(fmt.Sprintf("subs=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var matched int
			for b.Loop() {
				hits := mt.match(diffs)
				matched = len(mt.notifications(hits, diffs, old, new, DefaultSnippetChars))
			}
			b.ReportMetric(float64(matched), "notified")
		})
	}
}

// BenchmarkBuildMatcher measures the index built when a URL's
// subscriptions changed since its last check.
func BenchmarkBuildMatcher(b *testing.B) {
	subs := benchSubs(100_000)
	b.ReportAllocs()
	for b.Loop() {
		newMatcher(subs, "en")
	}
}

// BenchmarkScale adds 100,000 subscriptions on 10,000 clusters to a manager
// on a bbolt file, then restarts it. Run with -benchtime=1x.
func BenchmarkScale(b *testing.B) {
	const clusters, perCluster = 10_000, 10
	var fetches atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		fmt.Fprintf(w, "<p>page %s</p>", r.URL.Path)
	}))
	defer srv.Close()
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "scale.db")
		st, err := store.OpenBolt(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		cfg := Config{Store: st, MinInterval: time.Minute, DefaultInterval: time.Hour, StartJitter: time.Hour}
		cfg.Fetch.PerHostConcurrency = 64
		ctx := context.Background()
		m, err := NewManager("scale", HandlerFuncs{}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Start(ctx); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		var wg sync.WaitGroup
		work := make(chan int)
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					err := m.Add(ctx, Request{
						DocumentURL: fmt.Sprintf("%s/p/%d", srv.URL, i%clusters),
						Session:     Session{ID: fmt.Sprintf("s%d", i/clusters)},
						Keywords:    []string{fmt.Sprintf("kw%d", i), "flood"},
					})
					if err != nil {
						b.Error(err)
					}
				}
			}()
		}
		for i := range clusters * perCluster {
			work <- i
		}
		close(work)
		wg.Wait()
		addRate := float64(clusters*perCluster) / time.Since(start).Seconds()

		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		idleMB := float64(ms.HeapInuse) / (1 << 20)
		if err := m.Stop(ctx); err != nil {
			b.Fatal(err)
		}

		start = time.Now()
		m2, err := NewManager("scale", HandlerFuncs{}, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if err := m2.Start(ctx); err != nil {
			b.Fatal(err)
		}
		restart := time.Since(start)
		keys, _ := m2.sched.GetJobKeys()
		if len(keys) != clusters {
			b.Fatalf("%d clusters scheduled after restart, want %d", len(keys), clusters)
		}
		if err := m2.Stop(ctx); err != nil {
			b.Fatal(err)
		}
		_ = st.Close()
		b.ReportMetric(addRate, "adds/s")
		b.ReportMetric(idleMB, "idle-heap-MB")
		b.ReportMetric(restart.Seconds(), "restart-s")
		b.ReportMetric(float64(fetches.Load()), "baseline-fetches")
	}
}
