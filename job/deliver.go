package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/vokter-go/vokter/store"
)

// dispatchBatch bounds the entries one pass of the dispatcher reads from
// the outbox, so a large backlog never sits in memory at once.
const dispatchBatch = 256

// deliverer delivers the outbox: a dispatcher goroutine finds the entries
// that are due and hands them to a bounded pool of workers, which call the
// handler and delete each entry on success or reschedule it with backoff.
// Checks only write to the outbox, so a slow or hung handler never holds
// up detection.
type deliverer struct {
	m    *Manager
	work chan outboxItem
	kick chan struct{} // buffered: "look at the outbox again"
	quit chan struct{} // closed by stop
	wg   sync.WaitGroup

	startOnce, stopOnce sync.Once

	mu       sync.Mutex
	busy     map[string]bool            // entries handed to a worker
	waiters  map[string][]chan struct{} // closed after an entry's next attempt
	failures map[string]int             // consecutive failures per subscription
}

type outboxItem struct {
	key   string
	entry outboxEntry
}

func newDeliverer(m *Manager) *deliverer {
	return &deliverer{
		m:        m,
		work:     make(chan outboxItem),
		kick:     make(chan struct{}, 1),
		quit:     make(chan struct{}),
		busy:     make(map[string]bool),
		waiters:  make(map[string][]chan struct{}),
		failures: make(map[string]int),
	}
}

// start runs the dispatcher and the workers; it is called by Manager.Start
// and by the first check, whichever comes first.
func (d *deliverer) start() {
	d.startOnce.Do(func() {
		d.wg.Add(1 + d.m.cfg.DeliveryWorkers)
		go d.dispatch()
		for range d.m.cfg.DeliveryWorkers {
			go d.worker()
		}
	})
}

// stop ends the goroutines after the calls in progress. Entries not yet
// delivered stay in the outbox for the next Start.
func (d *deliverer) stop() {
	d.stopOnce.Do(func() { close(d.quit) })
	d.wg.Wait()
}

// notify tells the dispatcher that the outbox changed.
func (d *deliverer) notify() {
	select {
	case d.kick <- struct{}{}:
	default:
	}
}

// await registers a waiter for the next attempt of the entry key. It must
// be called before the entry is committed, so the attempt cannot come
// first.
func (d *deliverer) await(key string) <-chan struct{} {
	ch := make(chan struct{})
	d.mu.Lock()
	d.waiters[key] = append(d.waiters[key], ch)
	d.mu.Unlock()
	return ch
}

// release wakes the waiters of key.
func (d *deliverer) release(key string) {
	d.mu.Lock()
	ws := d.waiters[key]
	delete(d.waiters, key)
	d.mu.Unlock()
	for _, ch := range ws {
		close(ch)
	}
}

// releaseAll wakes the waiters of keys whose entries were never committed.
func (d *deliverer) releaseAll(keys []string) {
	for _, k := range keys {
		d.release(k)
	}
}

func (d *deliverer) dispatch() {
	defer d.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		wait, err := d.dispatchDue()
		if err != nil && !errors.Is(err, context.Canceled) {
			d.m.log.Error("job: reading the outbox failed", "error", err)
			wait = time.Second
		}
		timer.Reset(wait)
		select {
		case <-d.kick:
		case <-timer.C:
		case <-d.quit:
			return
		}
	}
}

// dispatchDue hands the due entries to the workers and returns how long to
// wait before the next one is due.
func (d *deliverer) dispatchDue() (time.Duration, error) {
	for {
		now := time.Now()
		next := now.Add(time.Hour)
		var due []outboxItem
		// Read first, hand over after: a worker writes to the store, and
		// bbolt writers may wait for open readers.
		err := d.m.cfg.Store.View(d.m.ctx, func(tx store.Tx) error {
			b, ok, err := openBuckets(tx, d.m.name)
			if err != nil || !ok {
				return err
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			return b.outbox.Scan(store.ScanOptions{}, func(k, v []byte) error {
				if d.busy[string(k)] {
					return nil
				}
				var e outboxEntry
				if err := decodeRecord(v, &e); err != nil {
					return fmt.Errorf("job: outbox entry: %w", err)
				}
				if e.NextAttempt.After(now) {
					next = minTime(next, e.NextAttempt)
					return nil
				}
				due = append(due, outboxItem{key: string(k), entry: e})
				if len(due) == dispatchBatch {
					return store.ErrStop
				}
				return nil
			})
		})
		if err != nil {
			return 0, err
		}
		for _, it := range due {
			d.mu.Lock()
			d.busy[it.key] = true
			d.mu.Unlock()
			select {
			case d.work <- it:
			case <-d.quit:
				return 0, nil
			}
		}
		if len(due) < dispatchBatch {
			return time.Until(next), nil
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (d *deliverer) worker() {
	defer d.wg.Done()
	for {
		select {
		case it := <-d.work:
			d.attempt(it)
		case <-d.quit:
			return
		}
	}
}

// attempt makes one handler call for an outbox entry and records the
// result.
func (d *deliverer) attempt(it outboxItem) {
	retry := false
	defer func() {
		// Not busy any more before the dispatcher looks again, or it
		// would skip the entry and sleep until something else is due.
		d.mu.Lock()
		delete(d.busy, it.key)
		d.mu.Unlock()
		d.release(it.key)
		if retry {
			d.notify()
		}
	}()
	e := it.entry
	sub := string(subKey(e.URL, e.Session))
	log := d.m.log.With(slog.String("url", e.URL), slog.String("session", e.Session))
	if e.Notification != nil && !d.m.subscribed(e.URL, e.Session) {
		d.finish(it.key, nil) // cancelled meanwhile
		return
	}
	err := d.call(e)
	d.mu.Lock()
	if err == nil {
		delete(d.failures, sub)
	} else {
		d.failures[sub]++
	}
	n := d.failures[sub]
	d.mu.Unlock()
	switch {
	case err == nil:
		d.finish(it.key, nil)
	case n >= d.m.cfg.MaxDeliveryFailures:
		log.Error("job: client unreachable", slog.Int("failures", n), slog.Any("error", err))
		d.forget(sub)
		d.finish(it.key, nil)
		if e.Notification != nil {
			d.m.expireSubscription(e.URL, e.Session)
		}
	default:
		log.Warn("job: handler failed, will retry", slog.Int("consecutive", n), slog.Any("error", err))
		e.Attempts++
		e.NextAttempt = time.Now().Add(d.backoff(e.Attempts))
		d.finish(it.key, &e)
		retry = true
	}
}

// finish deletes an outbox entry, or stores it for a retry.
func (d *deliverer) finish(key string, retry *outboxEntry) {
	err := d.m.cfg.Store.Batch(d.m.ctx, func(tx store.Tx) error {
		b, _, err := openBuckets(tx, d.m.name)
		if err != nil {
			return err
		}
		if retry == nil {
			return b.outbox.Delete([]byte(key))
		}
		data, err := encodeRecord(retry)
		if err != nil {
			return err
		}
		return b.outbox.Put([]byte(key), data)
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		d.m.log.Error("job: updating the outbox failed", "error", err)
	}
}

// call runs the handler with a timeout, turning a panic into an error.
func (d *deliverer) call(e outboxEntry) (err error) {
	ctx, cancel := context.WithTimeout(d.m.ctx, d.m.cfg.DeliveryTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job: handler panicked: %v", p)
		}
	}()
	if e.Notification != nil {
		return d.m.handler.OnNotification(ctx, *e.Notification)
	}
	return d.m.handler.OnTimeout(ctx, *e.Timeout)
}

func (d *deliverer) backoff(attempt int) time.Duration {
	b := d.m.cfg.DeliveryBackoff
	for i := 1; i < attempt && b < d.m.cfg.MaxDeliveryBackoff; i++ {
		b *= 2
	}
	return min(b, d.m.cfg.MaxDeliveryBackoff)
}

// forget drops the failure count of a subscription.
func (d *deliverer) forget(sub string) {
	d.mu.Lock()
	delete(d.failures, sub)
	d.mu.Unlock()
}
