package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/stem"
	"github.com/vokter-go/vokter/store"
)

// Check runs detection and matching of documentURL now, and returns after
// the handler was called with the results (the first attempt of each call;
// retries go on in the background). A check that is already running for
// the URL is waited for first. It returns ErrNotFound for a URL nobody
// watches, and an error wrapping ErrCheckFailed when the document could
// not be loaded or read (which counts towards Config.MaxFailures).
func (m *Manager) Check(ctx context.Context, documentURL string) error {
	if err := checkURL(documentURL); err != nil {
		return err
	}
	done, err := m.begin()
	if err != nil {
		return err
	}
	defer done()
	return m.runCheck(ctx, documentURL, true)
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
	out, err := m.detect(m.ctx, url)
	unlock()
	if err != nil && !errors.Is(err, ErrNotFound) {
		m.log.Warn("job: check failed", "url", url, "error", err)
	}
	m.deliver(m.ctx, out, false)
}

// runCheck locks the URL, detects, and delivers; with wait it returns after
// the first attempt of every handler call.
func (m *Manager) runCheck(ctx context.Context, url string, wait bool) error {
	unlock, err := m.running.lock(ctx, url)
	if err != nil {
		return err
	}
	out, err := m.detect(ctx, url)
	unlock()
	if derr := m.deliver(ctx, out, wait); err == nil {
		err = derr
	}
	return err
}

// outcome is what a check has to deliver.
type outcome struct {
	notifications []Notification
	timeouts      []Timeout
}

// deliver hands the outcome to the delivery pool.
func (m *Manager) deliver(ctx context.Context, out outcome, wait bool) error {
	var firsts []chan struct{}
	submit := func(dl *delivery) error {
		if wait {
			dl.firstDone = make(chan struct{})
			firsts = append(firsts, dl.firstDone)
		}
		return m.del.submit(ctx, dl)
	}
	for i := range out.notifications {
		n := &out.notifications[i]
		if err := submit(&delivery{sub: string(subKey(n.DocumentURL, n.Session.ID)), url: n.DocumentURL, session: n.Session.ID, notification: n}); err != nil {
			return err
		}
	}
	for i := range out.timeouts {
		t := &out.timeouts[i]
		if err := submit(&delivery{sub: string(subKey(t.DocumentURL, t.Session.ID)), url: t.DocumentURL, session: t.Session.ID, timeout: t}); err != nil {
			return err
		}
	}
	for _, ch := range firsts {
		select {
		case <-ch:
		case <-m.del.quit:
			return ErrStopped
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// detect fetches, reads and diffs the document, stores the new snapshot,
// and matches the subscriptions. The caller holds the URL's running lock.
func (m *Manager) detect(ctx context.Context, url string) (outcome, error) {
	c, err := m.loadCluster(ctx, url)
	if err != nil {
		return outcome{}, err
	}
	log := m.log.With(slog.String("url", url))
	resp, err := m.fetcher.Get(ctx, url, c.Validators)
	switch {
	case err != nil && (errors.Is(err, fetch.ErrRetryLater) || ctx.Err() != nil):
		// The server asked us to wait, or the check was cancelled:
		// neither says anything about the document.
		return outcome{}, fmt.Errorf("%w: %w", ErrCheckFailed, err)
	case err != nil:
		return m.fail(ctx, url, err)
	case resp.NotModified || bytes.Equal(resp.Hash[:], c.Hash):
		log.Debug("job: unchanged")
		return outcome{}, m.commit(ctx, url, func(b buckets, c *cluster) error {
			c.Validators = resp.Validators
			return nil
		})
	}
	doc, err := m.cfg.Readers.Read(ctx, resp.ContentType, bytes.NewReader(resp.Body), nil)
	if err != nil {
		return m.fail(ctx, url, err)
	}
	lang := stem.Detector{Default: m.cfg.Language, TrustScript: true}.Detect(doc.Text).Lang

	var old string
	var diffs []diff.Diff
	if c.hasBaseline() {
		if old, err = m.loadSnapshot(ctx, url); err != nil {
			return outcome{}, err
		}
		diffs = diff.Compute(old, doc.Text, &diff.Options{SnippetChars: m.cfg.SnippetChars})
	}
	changed := !c.hasBaseline() || old != doc.Text
	now := m.cfg.Clock.Now()
	err = m.commit(ctx, url, func(b buckets, c *cluster) error {
		c.Validators, c.Hash = resp.Validators, resp.Hash[:]
		c.ContentType, c.Language = doc.MediaType, lang
		if !changed {
			return nil
		}
		c.LastChange = now
		return b.putChange(url, doc.Text, diffs)
	})
	if err != nil || len(diffs) == 0 {
		return outcome{}, err
	}
	log.Debug("job: changed", "diffs", len(diffs), "lang", lang)

	mt, err := m.matcher(ctx, url, lang)
	if err != nil {
		return outcome{}, err
	}
	hits := mt.match(diffs)
	bySub := mt.notifications(hits, diffs, old, doc.Text, m.cfg.SnippetChars)
	subs := make([]int, 0, len(bySub))
	for si := range bySub {
		subs = append(subs, si)
	}
	sort.Ints(subs)
	var out outcome
	for _, si := range subs {
		s := mt.subs[si]
		out.notifications = append(out.notifications, Notification{
			DocumentURL: url, ContentType: doc.MediaType, Session: s.Session,
			Matches: bySub[si], CheckedAt: now,
		})
	}
	return out, nil
}

// updateCluster runs update on the stored cluster of url in one
// transaction, under the URL's admin lock so that it cannot interleave with
// Add or Cancel. A cluster deleted meanwhile (its last subscription was
// cancelled) is left deleted and update is not called. update returns
// whether to keep the cluster; if not, the cluster is deleted with its
// subscriptions, snapshot and diffs.
func (m *Manager) updateCluster(ctx context.Context, url string, update func(b buckets, c *cluster) (keep bool, err error)) error {
	unlock, err := m.admin.lock(ctx, url)
	if err != nil {
		return err
	}
	defer unlock()
	return m.cfg.Store.Update(ctx, func(tx store.Tx) error {
		b, _, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		c, err := b.getCluster(url)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
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
}

// commit records a successful check, with update's other writes.
func (m *Manager) commit(ctx context.Context, url string, update func(buckets, *cluster) error) error {
	now := m.cfg.Clock.Now()
	return m.updateCluster(ctx, url, func(b buckets, c *cluster) (bool, error) {
		c.Failures, c.LastError = 0, ""
		c.LastCheck, c.NextDue = now, now.Add(c.Interval)
		return true, update(b, c)
	})
}

// fail counts a failed check; at Config.MaxFailures it deletes the cluster
// and returns a Timeout for each of its subscribers.
func (m *Manager) fail(ctx context.Context, url string, cause error) (outcome, error) {
	failed := fmt.Errorf("%w: %w", ErrCheckFailed, cause)
	now := m.cfg.Clock.Now()
	var out outcome
	var expired bool
	err := m.updateCluster(ctx, url, func(b buckets, c *cluster) (bool, error) {
		out, expired = outcome{}, false // the store may run this more than once
		c.Failures++
		c.LastError = cause.Error()
		c.LastCheck, c.NextDue = now, now.Add(c.Interval)
		if c.Failures < m.cfg.MaxFailures {
			return true, nil
		}
		expired = true
		subs, err := b.subscriptions(url)
		for _, s := range subs {
			out.timeouts = append(out.timeouts, Timeout{
				DocumentURL: url, ContentType: c.ContentType, Session: s.Session,
				Failures: c.Failures, LastError: c.LastError,
			})
		}
		return false, err
	})
	if err != nil {
		return outcome{}, errors.Join(failed, err)
	}
	if expired {
		m.log.Warn("job: document failed too often, cluster expired", "url", url, "failures", m.cfg.MaxFailures, "error", cause)
		m.unschedule(url)
		m.invalidate(url)
	}
	return out, failed
}

func (m *Manager) loadCluster(ctx context.Context, url string) (*cluster, error) {
	var c *cluster
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		c, err = b.getCluster(url)
		return err
	})
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: nobody watches %q", ErrNotFound, url)
	}
	return c, err
}

func (m *Manager) loadSnapshot(ctx context.Context, url string) (string, error) {
	var text string
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		text, err = b.snapshot(url)
		return err
	})
	return text, err
}

// matcher returns the matcher of url's subscriptions for a document in
// language lang, building it when the cached one is stale.
func (m *Manager) matcher(ctx context.Context, url, lang string) (*matcher, error) {
	m.mu.Lock()
	mt, gen := m.matchers[url], m.subsGen[url]
	m.mu.Unlock()
	if mt != nil && mt.lang == lang {
		return mt, nil
	}
	var subs []*subscription
	err := m.cfg.Store.View(ctx, func(tx store.Tx) error {
		b, ok, err := openBuckets(tx, m.name)
		if err != nil || !ok {
			return err
		}
		subs, err = b.subscriptions(url)
		return err
	})
	if err != nil {
		return nil, err
	}
	mt = newMatcher(subs, lang)
	m.mu.Lock()
	if m.subsGen[url] == gen {
		m.matchers[url] = mt
	}
	m.mu.Unlock()
	return mt, nil
}
