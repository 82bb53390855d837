package job

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/store"
)

// Store layout. Everything of a manager lives under
// "vokter.job" / <manager name>, so managers with different names can share
// one store:
//
//	subs       URL NUL sessionID -> subscription record
//	clusters   URL               -> cluster record
//	snapshots  URL               -> latest text, compressed
//	diffs      URL               -> latest diffs, compressed
//	outbox     sequence (8 bytes) -> a notification or timeout to deliver
//
// Subscriptions of one URL are a prefix scan. Records start with a version
// byte, then JSON (or compressed bytes), so the format can evolve.
var (
	rootBucket      = []byte("vokter.job")
	subsBucket      = []byte("subs")
	clustersBucket  = []byte("clusters")
	snapshotsBucket = []byte("snapshots")
	diffsBucket     = []byte("diffs")
	outboxBucket    = []byte("outbox")
)

const recordVersion = 1

// maxSnapshotBytes bounds the decompression of a stored snapshot, so a
// corrupt record cannot exhaust memory. Snapshots come from documents
// bounded by the fetch limit, and text is never longer than its source
// by more than a small factor.
const maxSnapshotBytes = 256 << 20

// subscription is the stored form of a Request.
type subscription struct {
	Request
	Created time.Time `json:"created"`
}

// cluster is the stored state of one document's detection job.
type cluster struct {
	URL string `json:"url"`
	// Gen tells clusters of one URL apart over time: a check that started
	// on a cluster since deleted must not write into its successor.
	Gen uint64 `json:"gen"`
	// Subs changes whenever a subscription of the URL is added or
	// cancelled; cached matchers are keyed by it.
	Subs        uint64           `json:"subs"`
	Interval    time.Duration    `json:"interval"`
	Validators  fetch.Validators `json:"validators"`
	Hash        []byte           `json:"hash,omitempty"` // of the last body read; nil before the baseline
	ContentType string           `json:"contentType,omitempty"`
	Language    string           `json:"language,omitempty"`
	Failures    int              `json:"failures,omitempty"`
	LastError   string           `json:"lastError,omitempty"`
	Created     time.Time        `json:"created"`
	LastCheck   time.Time        `json:"lastCheck,omitzero"`  // Config.Clock
	LastChange  time.Time        `json:"lastChange,omitzero"` // Config.Clock
	NextDue     time.Time        `json:"nextDue,omitzero"`    // system clock: the scheduler's`
}

// reinterval changes the interval, moving the next check by the
// difference: the next check stays one interval after the last one.
// NextDue is on the system clock, like the scheduler.
func (c *cluster) reinterval(interval time.Duration) {
	c.NextDue = c.NextDue.Add(interval - c.Interval)
	c.Interval = interval
}

// hasBaseline reports whether a snapshot was stored.
func (c *cluster) hasBaseline() bool { return c.Hash != nil }

func subKey(url, session string) []byte {
	k := make([]byte, 0, len(url)+1+len(session))
	k = append(k, url...)
	k = append(k, 0)
	return append(k, session...)
}

func subPrefix(url string) []byte { return append([]byte(url), 0) }

func encodeRecord(v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(recordVersion)
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeRecord(data []byte, v any) error {
	if len(data) == 0 || data[0] != recordVersion {
		return fmt.Errorf("job: unknown record version")
	}
	return json.Unmarshal(data[1:], v)
}

func compress(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(recordVersion)
	w, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decompress(data []byte) ([]byte, error) {
	if len(data) == 0 || data[0] != recordVersion {
		return nil, fmt.Errorf("job: unknown snapshot version")
	}
	r := flate.NewReader(bytes.NewReader(data[1:]))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, maxSnapshotBytes+1))
	if err != nil {
		return nil, fmt.Errorf("job: corrupt snapshot: %w", err)
	}
	if len(out) > maxSnapshotBytes {
		return nil, fmt.Errorf("job: snapshot over %d bytes", maxSnapshotBytes)
	}
	return out, nil
}

// buckets are a manager's buckets inside one transaction.
type buckets struct {
	subs, clusters, snapshots, diffs, outbox store.Bucket
}

// openBuckets returns the manager's buckets; in a writable transaction it
// creates them, in a read-only one it returns ok=false when they do not
// exist yet (nothing was ever stored).
func openBuckets(tx store.Tx, name string) (b buckets, ok bool, err error) {
	get := func(parent interface {
		Bucket([]byte) (store.Bucket, error)
		CreateBucketIfNotExists([]byte) (store.Bucket, error)
	}, key []byte) (store.Bucket, error) {
		if tx.Writable() {
			return parent.CreateBucketIfNotExists(key)
		}
		return parent.Bucket(key)
	}
	root, err := get(tx, rootBucket)
	if err == nil {
		var mgr store.Bucket
		if mgr, err = get(root, []byte(name)); err == nil {
			for _, p := range []struct {
				dst *store.Bucket
				key []byte
			}{{&b.subs, subsBucket}, {&b.clusters, clustersBucket}, {&b.snapshots, snapshotsBucket}, {&b.diffs, diffsBucket}, {&b.outbox, outboxBucket}} {
				if *p.dst, err = get(mgr, p.key); err != nil {
					break
				}
			}
		}
	}
	if errors.Is(err, store.ErrBucketNotFound) {
		return b, false, nil
	}
	if err != nil {
		return b, false, err
	}
	return b, true, nil
}

func (b buckets) getCluster(url string) (*cluster, error) {
	data, err := b.clusters.Get([]byte(url))
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	c := new(cluster)
	if err := decodeRecord(data, c); err != nil {
		return nil, fmt.Errorf("job: cluster %q: %w", url, err)
	}
	return c, nil
}

func (b buckets) putCluster(c *cluster) error {
	data, err := encodeRecord(c)
	if err != nil {
		return err
	}
	return b.clusters.Put([]byte(c.URL), data)
}

func (b buckets) putSubscription(s *subscription) error {
	data, err := encodeRecord(s)
	if err != nil {
		return err
	}
	return b.subs.Put(subKey(s.DocumentURL, s.Session.ID), data)
}

// subscriptions returns the subscriptions of url, in session order.
func (b buckets) subscriptions(url string) ([]*subscription, error) {
	var subs []*subscription
	err := b.subs.Scan(store.ScanOptions{Prefix: subPrefix(url)}, func(_, v []byte) error {
		s := new(subscription)
		if err := decodeRecord(v, s); err != nil {
			return fmt.Errorf("job: subscription of %q: %w", url, err)
		}
		subs = append(subs, s)
		return nil
	})
	return subs, err
}

// deleteCluster removes a cluster with its snapshot, diffs and
// subscriptions.
func (b buckets) deleteCluster(url string) error {
	var keys [][]byte
	err := b.subs.Scan(store.ScanOptions{Prefix: subPrefix(url)}, func(k, _ []byte) error {
		keys = append(keys, k)
		return nil
	})
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.subs.Delete(k); err != nil {
			return err
		}
	}
	for _, bk := range []store.Bucket{b.clusters, b.snapshots, b.diffs} {
		if err := bk.Delete([]byte(url)); err != nil {
			return err
		}
	}
	return nil
}

// errNoSnapshot: the cluster has no stored snapshot.
var errNoSnapshot = errors.New("job: no snapshot")

func (b buckets) snapshot(url string) (string, error) {
	data, err := b.snapshots.Get([]byte(url))
	if errors.Is(err, store.ErrNotFound) {
		return "", errNoSnapshot
	}
	if err != nil {
		return "", err
	}
	text, err := decompress(data)
	return string(text), err
}

// storedDiff is the stored form of a diff.Diff.
type storedDiff struct {
	Event diff.Event `json:"e"`
	Text  string     `json:"t"`
	Start int        `json:"s"`
}

func (b buckets) putChange(url, text string, diffs []diff.Diff) error {
	snap, err := compress([]byte(text))
	if err != nil {
		return err
	}
	if err := b.snapshots.Put([]byte(url), snap); err != nil {
		return err
	}
	sd := make([]storedDiff, len(diffs))
	for i, d := range diffs {
		sd[i] = storedDiff{Event: d.Event, Text: d.Text, Start: d.Start}
	}
	js, err := json.Marshal(sd)
	if err != nil {
		return err
	}
	enc, err := compress(js)
	if err != nil {
		return err
	}
	return b.diffs.Put([]byte(url), enc)
}

// outboxEntry is a handler call still to make. It is written in the same
// transaction as the change (or expiry) it reports, so a committed change
// is always delivered, at least once, even across a restart.
type outboxEntry struct {
	URL          string        `json:"url"`
	Session      string        `json:"session"`
	Notification *Notification `json:"notification,omitempty"`
	Timeout      *Timeout      `json:"timeout,omitempty"`
	// Attempts counts the failed calls so far; NextAttempt is when to try
	// again.
	Attempts    int       `json:"attempts,omitempty"`
	NextAttempt time.Time `json:"nextAttempt,omitzero"`
}

// putOutbox queues e and returns its key.
func (b buckets) putOutbox(e *outboxEntry) (string, error) {
	seq, err := b.outbox.NextSequence()
	if err != nil {
		return "", err
	}
	key := binary.BigEndian.AppendUint64(nil, seq)
	data, err := encodeRecord(e)
	if err != nil {
		return "", err
	}
	return string(key), b.outbox.Put(key, data)
}
