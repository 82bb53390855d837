package job_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/vokter-go/vokter/job"
	"github.com/vokter-go/vokter/store"
)

// A page on loopback whose second version announces a flood.
func examplePage() (*httptest.Server, *atomic.Value) {
	var body atomic.Value
	body.Store("<p>The river is calm.</p>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, body.Load())
	}))
	return srv, &body
}

func ExampleNewManager() {
	srv, body := examplePage()
	defer srv.Close()
	ctx := context.Background()

	st := store.NewMemory() // store.OpenBolt("vokter.db", nil) in production
	defer st.Close()
	h := job.HandlerFuncs{Notification: func(_ context.Context, n job.Notification) error {
		for _, m := range n.Matches {
			fmt.Printf("%s: %s %q in %q\n", n.Session.ID, m.Event, m.Keyword, m.Snippet)
		}
		return nil
	}}
	m, err := job.NewManager("example", h, job.Config{Store: st})
	if err != nil {
		panic(err)
	}
	if err := m.Start(ctx); err != nil {
		panic(err)
	}
	defer m.Stop(ctx)

	_ = m.Add(ctx, job.Request{
		DocumentURL: srv.URL,
		Session:     job.Session{ID: "client_1"},
		Keywords:    []string{"flood", `"old bridge"`},
		Stemming:    true, IgnoreCase: true,
	})
	body.Store("<p>The river is calm.</p><p>Flooding expected near the old bridge.</p>")
	_ = m.Check(ctx, srv.URL) // or wait for the interval
	// Output:
	// client_1: added "flood" in "The river is calm. Flooding expected near the old bridge."
	// client_1: added "\"old bridge\"" in "The river is calm. Flooding expected near the old bridge."
}

func ExampleManager_Add() {
	st := store.NewMemory()
	defer st.Close()
	m, _ := job.NewManager("example", job.HandlerFuncs{}, job.Config{Store: st})
	defer m.Stop(context.Background())

	err := m.Add(context.Background(), job.Request{
		DocumentURL: "ftp://example.com/",
		Session:     job.Session{ID: "client_1"},
		Keywords:    []string{"argus"},
	})
	fmt.Println(err, "- code", job.Code(err))
	// Output:
	// job: invalid document URL: fetch: invalid URL: scheme "ftp" is not http or https - code 1
}

func ExampleManager_Cancel() {
	srv, _ := examplePage()
	defer srv.Close()
	ctx := context.Background()
	st := store.NewMemory()
	defer st.Close()
	m, _ := job.NewManager("example", job.HandlerFuncs{}, job.Config{Store: st})
	defer m.Stop(ctx)

	_ = m.Add(ctx, job.Request{DocumentURL: srv.URL, Session: job.Session{ID: "client_1"}, Keywords: []string{"argus"}})
	fmt.Println(m.Cancel(ctx, srv.URL, "client_1"))
	// The last subscription took the cluster with it.
	fmt.Println(m.Check(ctx, srv.URL) != nil, job.Code(m.Cancel(ctx, srv.URL, "client_1")))
	// Output:
	// <nil>
	// true 7
}

func ExampleHandlerFuncs() {
	h := job.HandlerFuncs{
		Notification: func(_ context.Context, n job.Notification) error {
			fmt.Println("changed:", n.DocumentURL)
			return nil
		},
		Timeout: func(_ context.Context, t job.Timeout) error {
			fmt.Println("gone:", t.DocumentURL, "after", t.Failures, "failures")
			return nil
		},
	}
	_ = h.OnTimeout(context.Background(), job.Timeout{DocumentURL: "http://example.com", Failures: 10})
	// Output:
	// gone: http://example.com after 10 failures
}
