package job

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// delivery is one handler call to make, with its retries.
type delivery struct {
	sub          string // subscription key, for the failure count
	url, session string
	notification *Notification // one of notification and timeout is set
	timeout      *Timeout
	attempt      int
	// firstDone is closed after the first attempt, so Check can return
	// once the handler was called.
	firstDone chan struct{}
}

// deliverer runs handler calls on a bounded pool of goroutines and retries
// failed ones with exponential backoff.
type deliverer struct {
	m     *Manager
	queue chan *delivery
	quit  chan struct{} // closed by stop: no new retries
	wg    sync.WaitGroup

	startOnce sync.Once

	mu       sync.Mutex
	failures map[string]int // consecutive failures per subscription key
	retries  map[*time.Timer]*delivery
}

func newDeliverer(m *Manager) *deliverer {
	return &deliverer{
		m:        m,
		queue:    make(chan *delivery, 4*m.cfg.DeliveryWorkers),
		quit:     make(chan struct{}),
		failures: make(map[string]int),
		retries:  make(map[*time.Timer]*delivery),
	}
}

// start runs the workers; it is called by Manager.Start and by the first
// submit, whichever comes first.
func (d *deliverer) start() { d.startOnce.Do(d.run) }

func (d *deliverer) run() {
	for range d.m.cfg.DeliveryWorkers {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			for {
				select {
				case dl := <-d.queue:
					d.attempt(dl)
				case <-d.quit:
					return
				}
			}
		}()
	}
}

// submit queues dl; it blocks while the queue is full, until ctx ends.
func (d *deliverer) submit(ctx context.Context, dl *delivery) error {
	d.start()
	select {
	case d.queue <- dl:
		return nil
	case <-d.quit:
		return ErrStopped
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attempt calls the handler once and schedules a retry on failure.
func (d *deliverer) attempt(dl *delivery) {
	err := d.call(dl)
	dl.attempt++
	if dl.firstDone != nil {
		close(dl.firstDone)
		dl.firstDone = nil
	}
	log := d.m.log.With(slog.String("url", dl.url), slog.String("session", dl.session))
	if err == nil {
		d.mu.Lock()
		delete(d.failures, dl.sub)
		d.mu.Unlock()
		return
	}
	d.mu.Lock()
	d.failures[dl.sub]++
	n := d.failures[dl.sub]
	d.mu.Unlock()
	log.Warn("job: handler failed", slog.Int("consecutive", n), slog.Any("error", err))
	if n >= d.m.cfg.MaxDeliveryFailures {
		d.forget(dl.sub)
		if dl.notification != nil {
			log.Error("job: client unreachable, cancelling its subscription", slog.Int("failures", n))
			d.m.expireSubscription(dl.url, dl.session)
		}
		return
	}
	d.retryLater(dl)
}

// call runs the handler with a timeout, turning a panic into an error.
func (d *deliverer) call(dl *delivery) (err error) {
	ctx, cancel := context.WithTimeout(d.m.ctx, d.m.cfg.DeliveryTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("job: handler panicked: %v", p)
		}
	}()
	if dl.notification != nil {
		return d.m.handler.OnNotification(ctx, *dl.notification)
	}
	return d.m.handler.OnTimeout(ctx, *dl.timeout)
}

func (d *deliverer) backoff(attempt int) time.Duration {
	b := d.m.cfg.DeliveryBackoff
	for i := 1; i < attempt && b < d.m.cfg.MaxDeliveryBackoff; i++ {
		b *= 2
	}
	return min(b, d.m.cfg.MaxDeliveryBackoff)
}

func (d *deliverer) retryLater(dl *delivery) {
	d.mu.Lock()
	defer d.mu.Unlock()
	select {
	case <-d.quit:
		return // stopping: pending retries are dropped
	default:
	}
	var t *time.Timer
	t = time.AfterFunc(d.backoff(dl.attempt), func() {
		d.mu.Lock()
		_, pending := d.retries[t]
		delete(d.retries, t)
		d.mu.Unlock()
		if !pending {
			return
		}
		// The queue may be full: wait in this timer goroutine, owned by
		// the deliverer through wg, rather than in a worker.
		defer d.wg.Done()
		if dl.notification != nil && !d.m.subscribed(dl.url, dl.session) {
			return // cancelled meanwhile
		}
		select {
		case d.queue <- dl:
		case <-d.quit:
		}
	})
	d.retries[t] = dl
	d.wg.Add(1)
}

// forget drops the failure count of a subscription.
func (d *deliverer) forget(sub string) {
	d.mu.Lock()
	delete(d.failures, sub)
	d.mu.Unlock()
}

// stop ends the workers and drops pending retries. Calls in progress
// finish first.
func (d *deliverer) stop() {
	d.mu.Lock()
	close(d.quit)
	// Whoever removes a retry from the map owns its wg count: here, or
	// the timer's function if it got there first.
	for t := range d.retries {
		t.Stop()
		delete(d.retries, t)
		d.wg.Done()
	}
	d.mu.Unlock()
	d.wg.Wait()
}
