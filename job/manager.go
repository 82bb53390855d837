package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/reugn/go-quartz/logger"
	"github.com/reugn/go-quartz/quartz"

	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/store"
)

// Manager runs the detection and matching jobs of a set of subscriptions.
// It is safe for concurrent use.
type Manager struct {
	name    string
	handler Handler
	cfg     Config
	log     *slog.Logger
	fetcher *fetch.Fetcher
	sched   quartz.Scheduler
	del     *deliverer

	// ctx lives until Stop gives up draining; checks and handler calls
	// that the manager starts by itself derive from it.
	ctx    context.Context
	cancel context.CancelFunc

	admin   keyedMutex // serialises Add, Cancel and expiry per URL
	running keyedMutex // one check per URL at a time

	matchers *matcherCache

	mu       sync.Mutex
	state    int
	inflight sync.WaitGroup
	stopped  chan struct{}
}

const (
	stateNew = iota
	stateStarting
	stateStarted
	stateStopped
)

// NewManager returns a manager named name that reports to h. The name
// separates the manager's records in a shared store: two managers with
// different names never see each other's subscriptions, and one name must
// be used by one running manager at a time.
func NewManager(name string, h Handler, cfg Config) (*Manager, error) {
	if name == "" {
		return nil, errors.New("job: manager name required")
	}
	if h == nil {
		return nil, errors.New("job: handler required")
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Fetch.Logger == nil {
		cfg.Fetch.Logger = cfg.Logger
	}
	f, err := fetch.New(cfg.Fetch)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	sched, err := quartz.NewStdScheduler(
		quartz.WithWorkerLimit(cfg.CheckWorkers),
		quartz.WithOutdatedThreshold(outdatedThreshold),
		quartz.WithLogger(logger.NewSlogLogger(ctx, cfg.Logger)),
		quartz.WithQueue(newJobQueue(), &sync.Mutex{}),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("job: scheduler: %w", err)
	}
	m := &Manager{
		name:     name,
		handler:  h,
		cfg:      cfg,
		log:      cfg.Logger.With(slog.String("manager", name)),
		fetcher:  f,
		sched:    sched,
		ctx:      ctx,
		cancel:   cancel,
		matchers: newMatcherCache(matcherCacheSize),
		stopped:  make(chan struct{}),
	}
	m.del = newDeliverer(m)
	return m, nil
}

// Name returns the manager's name.
func (m *Manager) Name() string { return m.name }

// Start loads every cluster from the store and schedules its checks:
// overdue ones spread over Config.StartJitter. It also resumes the
// deliveries left in the outbox by a previous run. It fails fast when the
// store cannot be read. ctx bounds the start-up only.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	switch m.state {
	case stateStarted, stateStarting:
		m.mu.Unlock()
		return ErrStarted
	case stateStopped:
		m.mu.Unlock()
		return ErrStopped
	}
	m.state = stateStarting
	m.mu.Unlock()

	var clusters []*cluster
	err := m.cfg.Store.Update(ctx, func(tx store.Tx) error {
		clusters = nil
		b, _, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		return b.clusters.Scan(store.ScanOptions{}, func(_, v []byte) error {
			c := new(cluster)
			if err := decodeRecord(v, c); err != nil {
				return err
			}
			clusters = append(clusters, c)
			return nil
		})
	})

	// Stop may have been called meanwhile: start nothing then.
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.state == stateStopped:
		return ErrStopped
	case err != nil:
		m.state = stateNew
		return fmt.Errorf("job: start: %w", err)
	}
	m.state = stateStarted
	m.del.start()
	m.sched.Start(m.ctx)
	now := time.Now()
	for _, c := range clusters {
		first := c.NextDue
		if !c.hasBaseline() || first.Before(now) {
			first = now.Add(m.jitter(c.Interval))
		}
		if err := m.schedule(c.URL, c.Interval, first); err != nil {
			m.log.Error("job: schedule failed", "url", c.URL, "error", err)
		}
	}
	m.log.Info("job: manager started", "clusters", len(clusters))
	return nil
}

// Stop stops scheduling checks, waits for the checks and handler calls in
// progress, and releases the manager's goroutines. Deliveries not yet made
// stay in the store and resume at the next Start. If ctx ends first, Stop
// cancels the work in progress (fetches, and the contexts given to the
// handler) and returns ctx.Err() without waiting further; Stopped tells
// when the last goroutine is gone. A stopped manager cannot be started
// again.
func (m *Manager) Stop(ctx context.Context) error {
	m.mu.Lock()
	prev := m.state
	m.state = stateStopped
	m.mu.Unlock()
	if prev != stateStopped {
		if prev == stateStarted {
			m.sched.Stop()
		}
		go func() {
			m.inflight.Wait()
			if prev == stateStarted {
				m.sched.Wait(context.Background())
			}
			m.del.stop()
			m.cancel()
			m.log.Info("job: manager stopped")
			close(m.stopped)
		}()
	}
	select {
	case <-m.stopped:
		return nil
	case <-ctx.Done():
		m.cancel()
		return ctx.Err()
	}
}

// Stopped returns a channel closed when Stop has finished.
func (m *Manager) Stopped() <-chan struct{} { return m.stopped }

// begin registers work in progress; it fails once Stop was called.
func (m *Manager) begin() (done func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == stateStopped {
		return nil, ErrStopped
	}
	m.inflight.Add(1)
	return m.inflight.Done, nil
}

// Add subscribes a session to a document. The first subscription of a URL
// creates its cluster and fetches the baseline before Add returns (bounded
// by the fetch timeout and ctx), so every change made after Add returns is
// reported; a failed baseline counts as the cluster's first failure and
// does not fail Add. Add returns ErrExists if the session already watches
// the URL, and the request errors described in errors.go; on error
// nothing is stored.
func (m *Manager) Add(ctx context.Context, req Request) error {
	r, err := req.validate(&m.cfg)
	if err != nil {
		return err
	}
	done, err := m.begin()
	if err != nil {
		return err
	}
	defer done()

	created, err := m.addSubscription(ctx, r)
	if err != nil || !created {
		return err
	}
	if err := m.runCheck(ctx, r.DocumentURL, false); err != nil {
		m.log.Warn("job: baseline failed", "url", r.DocumentURL, "error", err)
	}
	return nil
}

// addSubscription stores the subscription and (re)schedules its cluster.
// created reports a new cluster.
func (m *Manager) addSubscription(ctx context.Context, r Request) (created bool, err error) {
	unlock, err := m.admin.lock(ctx, r.DocumentURL)
	if err != nil {
		return false, err
	}
	defer unlock()

	now := m.cfg.Clock.Now()
	var c *cluster
	var reschedule bool
	err = m.cfg.Store.Batch(ctx, func(tx store.Tx) error {
		created, reschedule = false, false // Batch may run this more than once
		b, _, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		key := subKey(r.DocumentURL, r.Session.ID)
		if _, err := b.subs.Get(key); err == nil {
			return fmt.Errorf("%w: %q watches %q", ErrExists, r.Session.ID, r.DocumentURL)
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err := b.putSubscription(&subscription{Request: r, Created: now}); err != nil {
			return err
		}
		c, err = b.getCluster(r.DocumentURL)
		switch {
		case errors.Is(err, ErrNotFound):
			gen, err := b.clusters.NextSequence()
			if err != nil {
				return err
			}
			c = &cluster{URL: r.DocumentURL, Gen: gen, Interval: r.Interval, Created: now, NextDue: time.Now()}
			created = true
		case err != nil:
			return err
		case r.Interval < c.Interval:
			c.reinterval(r.Interval)
			reschedule = true
		}
		c.Subs++
		return b.putCluster(c)
	})
	if err != nil {
		return false, err
	}
	switch {
	case created:
		// Add fetches the baseline itself; the schedule starts after it.
		err = m.schedule(c.URL, c.Interval, time.Now().Add(c.Interval))
	case reschedule:
		err = m.schedule(c.URL, c.Interval, c.NextDue)
	}
	if err != nil {
		m.log.Error("job: schedule failed", "url", c.URL, "error", err)
	}
	return created, nil
}

// Cancel removes the subscription of session to documentURL. Cancelling
// the last subscription of a URL deletes its cluster, schedule, snapshot
// and diffs. ErrNotFound if there is no such subscription.
func (m *Manager) Cancel(ctx context.Context, documentURL, sessionID string) error {
	return m.onURL(documentURL, func(url string) error { return m.cancelSubscription(ctx, url, sessionID) })
}

// onURL runs f with the normalised documentURL as work in progress, which
// Stop waits for.
func (m *Manager) onURL(documentURL string, f func(url string) error) error {
	url, err := normalizeURL(documentURL)
	if err != nil {
		return err
	}
	done, err := m.begin()
	if err != nil {
		return err
	}
	defer done()
	return f(url)
}

func (m *Manager) cancelSubscription(ctx context.Context, url, session string) error {
	unlock, err := m.admin.lock(ctx, url)
	if err != nil {
		return err
	}
	defer unlock()

	var removed, reschedule bool
	var c *cluster
	err = m.cfg.Store.Update(ctx, func(tx store.Tx) error {
		removed, reschedule = false, false
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		key := subKey(url, session)
		if _, err := b.subs.Get(key); errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("%w: %q does not watch %q", ErrNotFound, session, url)
		} else if err != nil {
			return err
		}
		if err := b.subs.Delete(key); err != nil {
			return err
		}
		subs, err := b.subscriptions(url)
		if err != nil {
			return err
		}
		if len(subs) == 0 {
			removed = true
			return b.deleteCluster(url)
		}
		if c, err = b.getCluster(url); err != nil {
			return err
		}
		c.Subs++
		interval := subs[0].Interval
		for _, s := range subs[1:] {
			interval = min(interval, s.Interval)
		}
		if interval != c.Interval {
			c.reinterval(interval)
			reschedule = true
		}
		return b.putCluster(c)
	})
	if err != nil {
		return err
	}
	m.del.forget(string(subKey(url, session)))
	switch {
	case removed:
		m.unschedule(url)
	case reschedule:
		if err := m.schedule(url, c.Interval, c.NextDue); err != nil {
			m.log.Error("job: schedule failed", "url", url, "error", err)
		}
	}
	return nil
}

// expireSubscription cancels a subscription whose client keeps failing.
func (m *Manager) expireSubscription(url, session string) {
	err := m.cancelSubscription(m.ctx, url, session)
	if err != nil && !errors.Is(err, ErrNotFound) {
		m.log.Error("job: cancel of unreachable client failed", "url", url, "session", session, "error", err)
	}
}

// subscribed reports whether the subscription still exists.
func (m *Manager) subscribed(url, session string) bool {
	found := false
	_ = m.cfg.Store.View(m.ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		_, err = b.subs.Get(subKey(url, session))
		found = err == nil
		return nil
	})
	return found
}

// Subscription is a stored subscription with the state of its cluster, as
// returned by List.
type Subscription struct {
	Request
	// Created is when the subscription was added.
	Created time.Time
	// Cluster is the state of the document's detection job.
	Cluster ClusterState
}

// ClusterState is the state of one document's detection job.
type ClusterState struct {
	// Interval between checks: the shortest of the subscriptions'.
	Interval time.Duration
	// Baseline reports whether a snapshot of the document is stored.
	Baseline bool
	// ContentType and Language of the document at the last change.
	ContentType, Language string
	// Failures counts the consecutive failed checks; LastError says why
	// the last one failed.
	Failures  int
	LastError string
	// LastCheck, LastChange and NextDue are the times of the last check,
	// the last change seen and the next check.
	LastCheck, LastChange, NextDue time.Time
}

// List returns every subscription of this manager, ordered by document
// URL and session ID.
func (m *Manager) List(ctx context.Context) ([]Subscription, error) {
	var out []Subscription
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		clusters := make(map[string]*cluster)
		return b.subs.Scan(store.ScanOptions{}, func(_, v []byte) error {
			s := new(subscription)
			if err := decodeRecord(v, s); err != nil {
				return err
			}
			c, ok := clusters[s.DocumentURL]
			if !ok {
				if c, err = b.getCluster(s.DocumentURL); err != nil {
					return err
				}
				clusters[s.DocumentURL] = c
			}
			out = append(out, Subscription{Request: s.Request, Created: s.Created, Cluster: ClusterState{
				Interval: c.Interval, Baseline: c.hasBaseline(), ContentType: c.ContentType, Language: c.Language,
				Failures: c.Failures, LastError: c.LastError,
				LastCheck: c.LastCheck, LastChange: c.LastChange, NextDue: c.NextDue,
			}})
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("job: list: %w", err)
	}
	return out, nil
}
