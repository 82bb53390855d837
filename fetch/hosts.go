package fetch

import (
	"context"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Idle hosts are swept when the table reaches sweepAt entries (at least
// minSweep, then twice the entries left by the last sweep) or sweepEvery after
// the last sweep, whichever comes first.
const (
	minSweep   = 64
	sweepEvery = time.Minute
)

// hostTable holds the per-host state: a semaphore bounding requests in
// flight, the earliest start of the next request (spacing), and the end of a
// Retry-After window. An entry lives while a request holds or awaits it and
// until its time constraints pass; idle entries are deleted on release or by
// a sweep that runs whenever the table doubles and at least every
// sweepEvery, so the table stays proportional to the hosts that are busy,
// spaced or closed by Retry-After.
type hostTable struct {
	limit    int              // semaphore size
	interval time.Duration    // minimum spacing of starts
	now      func() time.Time // the Config clock, for Retry-After windows

	mu        sync.Mutex
	m         map[string]*hostState
	sweepAt   int
	lastSweep time.Time // Config clock
}

type hostState struct {
	sem       chan struct{}
	refs      int       // requests holding or awaiting sem; guarded by hostTable.mu
	nextStart time.Time // real time; guarded by hostTable.mu
	notBefore time.Time // Config clock; guarded by hostTable.mu
}

func newHostTable(limit int, interval time.Duration, now func() time.Time) *hostTable {
	return &hostTable{limit: limit, interval: interval, now: now, m: make(map[string]*hostState), sweepAt: minSweep, lastSweep: now()}
}

// hostKey names the host of u for the table: the lower-case host name
// without a trailing dot, followed by the port only when it is not the
// default of the scheme, so that http://h/ and https://h/ (one server, as
// far as politeness goes) share their limits.
func hostKey(u *url.URL) string {
	name := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port == "" || port == "80" && strings.EqualFold(u.Scheme, "http") || port == "443" && strings.EqualFold(u.Scheme, "https") {
		return name
	}
	return net.JoinHostPort(name, port)
}

// acquire waits for a slot of host key and for its spacing. It returns the
// function releasing the slot, or ErrRetryLater with the time left in the
// host's Retry-After window, or ctx's error.
func (t *hostTable) acquire(ctx context.Context, key string) (release func(), retryIn time.Duration, err error) {
	t.mu.Lock()
	h := t.getLocked(key)
	if d := h.notBefore.Sub(t.now()); d > 0 {
		t.mu.Unlock()
		return nil, d, ErrRetryLater
	}
	h.refs++
	t.mu.Unlock()

	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		t.unref(key, h)
		return nil, 0, ctx.Err()
	}
	release = func() {
		<-h.sem
		t.unref(key, h)
	}

	// A request that finished while this one waited may have closed the host.
	t.mu.Lock()
	if d := h.notBefore.Sub(t.now()); d > 0 {
		t.mu.Unlock()
		release()
		return nil, d, ErrRetryLater
	}
	start := time.Now()
	if start.Before(h.nextStart) {
		start = h.nextStart
	}
	h.nextStart = start.Add(t.interval)
	t.mu.Unlock()

	if wait := time.Until(start); wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-ctx.Done():
			release()
			return nil, 0, ctx.Err()
		}
	}
	return release, 0, nil
}

// closeUntil records that host key must not be contacted before until.
func (t *hostTable) closeUntil(key string, until time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h := t.getLocked(key); until.After(h.notBefore) {
		h.notBefore = until
	}
}

func (t *hostTable) getLocked(key string) *hostState {
	h := t.m[key]
	if h == nil {
		if len(t.m) >= t.sweepAt || t.now().Sub(t.lastSweep) >= sweepEvery {
			t.sweepLocked()
		}
		h = &hostState{sem: make(chan struct{}, t.limit)}
		t.m[key] = h
	}
	return h
}

func (t *hostTable) unref(key string, h *hostState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h.refs--
	if h.idle(time.Now(), t.now()) {
		delete(t.m, key)
	}
}

// idle reports whether h constrains nothing any more, at real time now and
// Config clock time clockNow. The caller holds hostTable.mu.
func (h *hostState) idle(now, clockNow time.Time) bool {
	return h.refs == 0 && !now.Before(h.nextStart) && !clockNow.Before(h.notBefore)
}

func (t *hostTable) sweepLocked() {
	now, clockNow := time.Now(), t.now()
	for k, h := range t.m {
		if h.idle(now, clockNow) {
			delete(t.m, k)
		}
	}
	t.sweepAt = max(2*len(t.m), minSweep)
	t.lastSweep = clockNow
}

// size reports the number of hosts with state.
func (t *hostTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
