// Command quickstart watches a local web page that changes every second and
// prints each notification. It needs no internet: the page is served on
// loopback, and the manager keeps its state in a bbolt file in a temporary
// directory. It exits by itself after a few changes.
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/vokter-go/vokter/job"
	"github.com/vokter-go/vokter/store"
)

// headlines are the news the page shows, one more each second.
var headlines = []string{
	"Sunny weather across Thessaly this morning.",
	"Heavy rain expected tonight in Larissa.",
	"River Pineios rising: flooding possible near the old bridge.",
	"Flood warning lifted; the temple of Zeus Larissaios reopens.",
}

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	// A page that shows a moving window of two headlines.
	var mu sync.Mutex
	shown := 1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		lo := max(0, shown-2)
		items := headlines[lo:shown]
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><body><h1>Thessaly news</h1><ul><li>%s</li></ul></body></html>", strings.Join(items, "</li><li>"))
	}))
	defer srv.Close()

	dir, err := os.MkdirTemp("", "vokter-quickstart")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := store.OpenBolt(filepath.Join(dir, "vokter.db"), nil)
	if err != nil {
		return err
	}
	defer st.Close()

	notified := make(chan struct{}, 16)
	handler := job.HandlerFuncs{Notification: func(_ context.Context, n job.Notification) error {
		for _, m := range n.Matches {
			fmt.Printf("[%s] %-7s %-20q %q\n", n.Session.ID, m.Event, m.Keyword, m.Snippet)
		}
		notified <- struct{}{}
		return nil
	}}
	m, err := job.NewManager("quickstart", handler, job.Config{
		Store:       st,
		MinInterval: 100 * time.Millisecond, // a demo; production keeps the one-minute floor
		Logger:      slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	if err := m.Start(ctx); err != nil {
		return err
	}
	defer m.Stop(context.Background())

	for _, r := range []job.Request{
		{Session: job.Session{ID: "alice"}, Keywords: []string{"flood", "rain"}, Stemming: true, IgnoreCase: true},
		{Session: job.Session{ID: "bob"}, Keywords: []string{`"zeus larissaios"`, "bridge"}, IgnoreCase: true, IgnoreRemoved: true},
	} {
		r.DocumentURL, r.Interval = srv.URL, 200*time.Millisecond
		if err := m.Add(ctx, r); err != nil {
			return err
		}
	}
	fmt.Println("watching", srv.URL, "for alice (flood, rain) and bob (\"zeus larissaios\", bridge)")

	for shown < len(headlines) {
		time.Sleep(time.Second)
		mu.Lock()
		shown++
		mu.Unlock()
		fmt.Println("-- the page changed")
		select {
		case <-notified:
		case <-ctx.Done():
			return ctx.Err()
		}
		time.Sleep(300 * time.Millisecond) // let the other subscriber's notification print
	}
	subs, err := m.List(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("done: %d subscriptions were kept in %s (removed on exit)\n", len(subs), filepath.Join(dir, "vokter.db"))
	return nil
}
