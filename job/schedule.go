package job

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reugn/go-quartz/quartz"
)

// outdatedThreshold is how late go-quartz may run a job before it skips it
// as misfired. A check that is due late must still run, so it is large.
const outdatedThreshold = 10 * 365 * 24 * time.Hour

// trigger fires first at a given time, then every interval. A run that
// happened late is followed by the next one an interval later, not by a
// burst of catch-up runs.
type trigger struct {
	interval time.Duration
	first    int64 // Unix nanoseconds
	fired    atomic.Bool
}

// NextFireTime implements quartz.Trigger.
func (t *trigger) NextFireTime(prev int64) (int64, error) {
	if !t.fired.Swap(true) {
		return max(t.first, prev), nil
	}
	next := prev + int64(t.interval)
	if now := quartz.NowNano(); next <= now {
		next = now + int64(t.interval)
	}
	return next, nil
}

// Description implements quartz.Trigger.
func (t *trigger) Description() string { return "vokter::" + t.interval.String() }

// checkJob is the detection job of one cluster.
type checkJob struct {
	m   *Manager
	url string
}

// Execute implements quartz.Job. It ignores the scheduler's context, which
// ends as soon as Stop is called: Stop drains checks in progress instead.
func (j *checkJob) Execute(context.Context) error {
	j.m.scheduledCheck(j.url)
	return nil
}

// Description implements quartz.Job.
func (j *checkJob) Description() string { return "vokter check " + j.url }

func (m *Manager) jobKey(url string) *quartz.JobKey {
	return quartz.NewJobKeyWithGroup(url, m.name)
}

// schedule (re)schedules the cluster of url to fire first at first, then
// every interval.
func (m *Manager) schedule(url string, interval time.Duration, first time.Time) error {
	detail := quartz.NewJobDetailWithOptions(&checkJob{m: m, url: url}, m.jobKey(url),
		&quartz.JobDetailOptions{Replace: true})
	return m.sched.ScheduleJob(detail, &trigger{interval: interval, first: first.UnixNano()})
}

func (m *Manager) unschedule(url string) {
	if err := m.sched.DeleteJob(m.jobKey(url)); err != nil && !errors.Is(err, quartz.ErrJobNotFound) {
		m.log.Warn("job: unschedule failed", "url", url, "error", err)
	}
}

// jitter returns a random delay below min(StartJitter, interval); none
// when StartJitter is negative.
func (m *Manager) jitter(interval time.Duration) time.Duration {
	if w := min(m.cfg.StartJitter, interval); w > 0 {
		return rand.N(w)
	}
	return 0
}

// keyedMutex is a set of mutexes, one per key, created on demand and
// freed when nobody holds or waits for them.
type keyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	ch   chan struct{} // holds a token while locked
	refs int
}

func (k *keyedMutex) acquire(key string) *keyedLock {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.locks == nil {
		k.locks = make(map[string]*keyedLock)
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{ch: make(chan struct{}, 1)}
		k.locks[key] = l
	}
	l.refs++
	return l
}

func (k *keyedMutex) release(key string, l *keyedLock) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if l.refs--; l.refs == 0 {
		delete(k.locks, key)
	}
}

// lock locks key, waiting until ctx ends.
func (k *keyedMutex) lock(ctx context.Context, key string) (unlock func(), err error) {
	l := k.acquire(key)
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; k.release(key, l) }, nil
	case <-ctx.Done():
		k.release(key, l)
		return nil, ctx.Err()
	}
}

// tryLock locks key if nobody holds it.
func (k *keyedMutex) tryLock(key string) (unlock func(), ok bool) {
	l := k.acquire(key)
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; k.release(key, l) }, true
	default:
		k.release(key, l)
		return nil, false
	}
}
