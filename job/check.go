package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/stem"
	"github.com/vokter-go/vokter/store"
)

// ErrContentTypeChanged is the cause of a failed check whose document came
// back with another media type than its snapshot: its text cannot be
// compared with the previous one.
var ErrContentTypeChanged = errors.New("job: document content type changed")

// Check runs detection and matching of documentURL now, and returns after
// the handler was called with the results (the first attempt of each call;
// retries go on in the background). A check that is already running for
// the URL is waited for first. It returns ErrNotFound for a URL nobody
// watches, and an error wrapping ErrCheckFailed when the document could
// not be loaded or read (which counts towards Config.MaxFailures). ctx
// bounds the check and the wait for the handler, never the delivery to the
// other subscribers.
func (m *Manager) Check(ctx context.Context, documentURL string) error {
	return m.onURL(documentURL, func(url string) error { return m.runCheck(ctx, url, true) })
}

// scheduledCheck is a check fired by the scheduler. It is skipped when a
// check of the same URL is still running, so a slow check never overlaps
// itself.
func (m *Manager) scheduledCheck(url string) {
	done, err := m.begin()
	if err != nil {
		return
	}
	defer done()
	unlock, ok := m.running.tryLock(url)
	if !ok {
		m.log.Debug("job: check still running, skipped", "url", url)
		return
	}
	_, err = m.detect(m.ctx, url, nil)
	unlock()
	switch {
	case errors.Is(err, ErrNotFound):
		m.unscheduleIfGone(url) // a job that outlived its cluster
	case err != nil:
		m.log.Warn("job: check failed", "url", url, "error", err)
	}
}

// unscheduleIfGone unschedules url unless its cluster exists again: under
// the admin lock, so an Add that re-creates it cannot lose its new job.
func (m *Manager) unscheduleIfGone(url string) {
	unlock, err := m.admin.lock(m.ctx, url)
	if err != nil {
		return
	}
	defer unlock()
	if _, _, err := m.loadState(m.ctx, url); errors.Is(err, ErrNotFound) {
		m.unschedule(url)
	}
}

// runCheck locks the URL and detects; with wait it returns after the first
// attempt of every handler call the check queued.
func (m *Manager) runCheck(ctx context.Context, url string, wait bool) error {
	unlock, err := m.running.lock(ctx, url)
	if err != nil {
		return err
	}
	var waits []<-chan struct{}
	var await func(string)
	if wait {
		m.del.start() // a Check before Start delivers too; Stop ends it
		await = func(key string) { waits = append(waits, m.del.await(key)) }
	}
	_, err = m.detect(ctx, url, await)
	unlock()
	for _, ch := range waits {
		select {
		case <-ch:
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-m.ctx.Done():
			return errors.Join(err, ErrStopped)
		}
	}
	return err
}

// detect fetches, reads and diffs the document, matches the subscriptions,
// and commits the new snapshot with the outbox entries of its
// notifications in one transaction. await, if not nil, is called with the
// key of each outbox entry before it is committed. The caller holds the
// URL's running lock.
func (m *Manager) detect(ctx context.Context, url string, await func(string)) (*cluster, error) {
	c, old, err := m.loadState(ctx, url)
	if err != nil {
		return nil, err
	}
	log := m.log.With(slog.String("url", url))
	resp, err := m.fetcher.Get(ctx, url, c.Validators)
	switch {
	case err != nil && (errors.Is(err, fetch.ErrRetryLater) || ctx.Err() != nil):
		// The server asked us to wait, or the check was cancelled:
		// neither says anything about the document.
		return c, fmt.Errorf("%w: %w", ErrCheckFailed, err)
	case err != nil:
		return c, m.fail(ctx, c, err, await)
	case resp.NotModified || bytes.Equal(resp.Hash[:], c.Hash):
		log.Debug("job: unchanged")
		return c, m.commit(ctx, c, true, func(b buckets, c *cluster) error {
			c.Validators = resp.Validators
			return nil
		})
	}
	doc, err := m.cfg.Readers.Read(ctx, resp.ContentType, bytes.NewReader(resp.Body), nil)
	if err != nil {
		return c, m.fail(ctx, c, err, await)
	}
	if c.hasBaseline() && c.ContentType != "" && doc.MediaType != c.ContentType {
		return c, m.fail(ctx, c, fmt.Errorf("%w: from %s to %s", ErrContentTypeChanged, c.ContentType, doc.MediaType), await)
	}
	lang := stem.Detector{Default: m.cfg.Language, TrustScript: true}.Detect(doc.Text).Lang

	var diffs []diff.Diff
	if c.hasBaseline() {
		diffs = diff.Compute(old, doc.Text, &diff.Options{SnippetChars: m.cfg.SnippetChars, Logger: m.log})
	}
	now := m.cfg.Clock.Now()
	var notes []Notification
	if len(diffs) > 0 {
		log.Debug("job: changed", "diffs", len(diffs), "lang", lang)
		if notes, err = m.notifications(ctx, c, lang, diffs, old, doc.Text); err != nil {
			return c, err
		}
		for i := range notes {
			notes[i].ContentType, notes[i].CheckedAt = doc.MediaType, now
		}
	}
	changed := !c.hasBaseline() || old != doc.Text
	var queued []string
	err = m.commit(ctx, c, len(notes) == 0, func(b buckets, c *cluster) error {
		c.Validators, c.Hash = resp.Validators, resp.Hash[:]
		c.ContentType, c.Language = doc.MediaType, lang
		if !changed {
			return nil
		}
		c.LastChange = now
		if err := b.putChange(url, doc.Text, diffs); err != nil {
			return err
		}
		for i := range notes {
			n := &notes[i]
			// A subscription cancelled during the check is not notified.
			if _, err := b.subs.Get(subKey(url, n.Session.ID)); errors.Is(err, store.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			key, err := b.putOutbox(&outboxEntry{URL: url, Session: n.Session.ID, Notification: n})
			if err != nil {
				return err
			}
			queued = append(queued, key)
			if await != nil {
				await(key)
			}
		}
		return nil
	})
	if err != nil {
		m.del.releaseAll(queued) // nothing was queued after all
	} else if len(queued) > 0 {
		m.del.notify()
	}
	return c, err
}

// notifications matches the subscriptions of c against diffs: one
// notification per subscription with at least one match.
func (m *Manager) notifications(ctx context.Context, c *cluster, lang string, diffs []diff.Diff, oldText, newText string) ([]Notification, error) {
	mt, err := m.matcher(ctx, c, lang)
	if err != nil {
		return nil, err
	}
	hits := mt.match(diffs)
	bySub := mt.notifications(hits, diffs, oldText, newText, m.cfg.SnippetChars)
	subs := make([]int, 0, len(bySub))
	for si := range bySub {
		subs = append(subs, si)
	}
	sort.Ints(subs)
	notes := make([]Notification, 0, len(subs))
	for _, si := range subs {
		notes = append(notes, Notification{DocumentURL: c.URL, Session: mt.subs[si].Session, Matches: bySub[si]})
	}
	return notes, nil
}

// updateCluster runs update on the stored cluster of url in one
// transaction, under the URL's admin lock so that it cannot interleave with
// Add or Cancel. A cluster deleted meanwhile, or replaced by a new one of
// the same URL, is left alone and update is not called. update returns
// whether to keep the cluster; if not, the cluster is deleted with its
// subscriptions, snapshot and diffs.
//
// An idempotent update (one that queues no outbox entry) goes through
// Store.Batch, which may run it more than once but shares one commit, and
// one fsync, among concurrent checks.
func (m *Manager) updateCluster(ctx context.Context, url string, gen uint64, idempotent bool, update func(b buckets, c *cluster) (keep bool, err error)) error {
	unlock, err := m.admin.lock(ctx, url)
	if err != nil {
		return err
	}
	defer unlock()
	write := m.cfg.Store.Update
	if idempotent {
		write = m.cfg.Store.Batch
	}
	err = write(ctx, func(tx store.Tx) error {
		b, _, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		c, err := b.getCluster(url)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil || c.Gen != gen {
			return err
		}
		keep, err := update(b, c)
		switch {
		case err != nil:
			return err
		case keep:
			return b.putCluster(c)
		default:
			return b.deleteCluster(url)
		}
	})
	return err
}

// commit records a successful check, with update's other writes;
// idempotent as for updateCluster.
func (m *Manager) commit(ctx context.Context, c *cluster, idempotent bool, update func(buckets, *cluster) error) error {
	now := m.cfg.Clock.Now()
	return m.updateCluster(ctx, c.URL, c.Gen, idempotent, func(b buckets, c *cluster) (bool, error) {
		c.Failures, c.LastError = 0, ""
		c.LastCheck, c.NextDue = now, time.Now().Add(c.Interval)
		return true, update(b, c)
	})
}

// fail counts a failed check; at Config.MaxFailures it deletes the cluster
// and queues a Timeout for each of its subscribers. It returns the check's
// error.
func (m *Manager) fail(ctx context.Context, c *cluster, cause error, await func(string)) error {
	failed := fmt.Errorf("%w: %w", ErrCheckFailed, cause)
	now := m.cfg.Clock.Now()
	var expired bool
	var keys []string
	err := m.updateCluster(ctx, c.URL, c.Gen, false, func(b buckets, c *cluster) (bool, error) {
		c.Failures++
		c.LastError = cause.Error()
		c.LastCheck, c.NextDue = now, time.Now().Add(c.Interval)
		if c.Failures < m.cfg.MaxFailures {
			return true, nil
		}
		expired = true
		subs, err := b.subscriptions(c.URL)
		if err != nil {
			return false, err
		}
		for _, s := range subs {
			key, err := b.putOutbox(&outboxEntry{URL: c.URL, Session: s.Session.ID, Timeout: &Timeout{
				DocumentURL: c.URL, ContentType: c.ContentType, Session: s.Session,
				Failures: c.Failures, LastError: c.LastError,
			}})
			if err != nil {
				return false, err
			}
			keys = append(keys, key)
			if await != nil {
				await(key)
			}
		}
		return false, nil
	})
	if err != nil {
		m.del.releaseAll(keys)
		return errors.Join(failed, err)
	}
	if expired {
		m.log.Warn("job: document failed too often, cluster expired", "url", c.URL, "failures", m.cfg.MaxFailures, "error", cause)
		m.unschedule(c.URL)
		m.del.notify()
	}
	return failed
}

// loadState reads the cluster of url and its snapshot in one transaction.
// A cluster whose snapshot is missing is treated as having no baseline.
func (m *Manager) loadState(ctx context.Context, url string) (*cluster, string, error) {
	var c *cluster
	var text string
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		if c, err = b.getCluster(url); err != nil || !c.hasBaseline() {
			return err
		}
		text, err = b.snapshot(url)
		if errors.Is(err, errNoSnapshot) {
			c.Hash = nil
			return nil
		}
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return nil, "", fmt.Errorf("%w: nobody watches %q", ErrNotFound, url)
	}
	return c, text, err
}
