package store

import (
	"bytes"
	"context"
	"sync/atomic"

	"github.com/google/btree"
)

// memDegree is the degree of the memory store's B-trees.
const memDegree = 32

// memStore is the Store returned by NewMemory.
//
// Every bucket is a copy-on-write B-tree. The committed state is an
// immutable tree of buckets reached through root. A writer clones the root
// (O(1)) and, lazily, each bucket on the path to what it changes; commit
// swaps root atomically. Readers load root and never wait.
type memStore struct {
	root     atomic.Pointer[memBucket] // nil once closed
	writer   chan struct{}             // holds a token while a writer runs
	freelist *btree.FreeListG[memItem]
}

// memBucket is one bucket: its entries and its sequence.
type memBucket struct {
	items *btree.BTreeG[memItem]
	seq   uint64
}

// memItem is one entry of a bucket: a value, or a nested bucket (child).
// key and value are never changed once stored.
type memItem struct {
	key   []byte
	value []byte
	child *memBucket
}

func lessItem(a, b memItem) bool { return bytes.Compare(a.key, b.key) < 0 }

// NewMemory returns an empty Store held in memory, with the semantics of
// OpenBolt: serialisable transactions (one writer at a time, readers on a
// consistent snapshot that a writer never blocks), rollback when fn fails,
// nested buckets, bytewise order, per-bucket sequences, and copies of keys
// and values in and out. Batch is Update. Waiting for the writer's turn
// ends when ctx is done.
func NewMemory() Store {
	s := &memStore{
		writer:   make(chan struct{}, 1),
		freelist: btree.NewFreeListG[memItem](btree.DefaultFreeListSize),
	}
	s.root.Store(s.newBucket())
	return s
}

func (s *memStore) newBucket() *memBucket {
	return &memBucket{items: btree.NewWithFreeListG(memDegree, lessItem, s.freelist)}
}

// View implements Store.
func (s *memStore) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root := s.root.Load()
	if root == nil {
		return ErrClosed
	}
	tx := &memTx{root: root}
	tx.top = memHandle{tx: tx, b: root}
	defer tx.close()
	return fn(tx)
}

// Update implements Store.
func (s *memStore) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	// select picks at random when ctx was done as the token came free.
	if err := ctx.Err(); err != nil {
		return err
	}
	committed := s.root.Load()
	if committed == nil {
		return ErrClosed
	}
	tx := &memTx{s: s, writable: true, owned: make(map[*memBucket]struct{})}
	tx.root = tx.own(committed)
	tx.top = memHandle{tx: tx, b: tx.root, ver: tx.version}
	defer tx.close()
	if err := fn(tx); err != nil {
		return err
	}
	s.root.Store(tx.root)
	return nil
}

// Batch implements Store: it is Update, since a commit costs nothing here.
func (s *memStore) Batch(ctx context.Context, fn func(Tx) error) error {
	return s.Update(ctx, fn)
}

// Close implements Store. It waits for a running writer, then drops the
// data; transactions still open keep their snapshot. Closing twice is not an
// error.
func (s *memStore) Close() error {
	s.writer <- struct{}{}
	s.root.Store(nil)
	<-s.writer
	return nil
}

// memTx is a Tx of the memory store. A writable one owns the buckets it has
// copied (owned) and may change them in place; everything else is shared
// with committed snapshots and must not change.
type memTx struct {
	s        *memStore
	root     *memBucket
	top      memHandle
	writable bool
	done     bool
	owned    map[*memBucket]struct{}
	// version changes whenever a bucket is copied or deleted, which is when
	// a handle's cached *memBucket may stop being the one its path leads to.
	version uint64
}

// own returns a copy of b that the transaction may change.
func (tx *memTx) own(b *memBucket) *memBucket {
	c := &memBucket{items: b.items.Clone(), seq: b.seq}
	tx.owned[c] = struct{}{}
	tx.version++
	return c
}

func (tx *memTx) close() { tx.done = true }

func (tx *memTx) Bucket(name []byte) (Bucket, error)       { return tx.top.Bucket(name) }
func (tx *memTx) CreateBucket(name []byte) (Bucket, error) { return tx.top.CreateBucket(name) }
func (tx *memTx) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	return tx.top.CreateBucketIfNotExists(name)
}
func (tx *memTx) DeleteBucket(name []byte) error { return tx.top.DeleteBucket(name) }
func (tx *memTx) Writable() bool                 { return tx.writable }

// memHandle is a Bucket: the path of bucket names from the root, and the
// bucket it led to when the transaction's version was ver.
type memHandle struct {
	tx   *memTx
	path [][]byte
	b    *memBucket
	ver  uint64
}

// resolve returns the bucket h names, checking that the transaction is
// still running. With write set it returns a copy the transaction owns,
// copying the buckets on the path as needed.
func (h *memHandle) resolve(write bool) (*memBucket, error) {
	tx := h.tx
	if tx.done {
		return nil, ErrTxClosed
	}
	if write && !tx.writable {
		return nil, ErrTxNotWritable
	}
	if h.ver == tx.version {
		if !write {
			return h.b, nil
		}
		if _, ok := tx.owned[h.b]; ok {
			return h.b, nil
		}
	}
	b := tx.root
	for _, name := range h.path {
		it, ok := b.items.Get(memItem{key: name})
		if !ok || it.child == nil {
			return nil, ErrBucketNotFound
		}
		child := it.child
		if _, owned := tx.owned[child]; write && !owned {
			child = tx.own(child)
			b.items.ReplaceOrInsert(memItem{key: it.key, child: child})
		}
		b = child
	}
	h.b, h.ver = b, tx.version
	return b, nil
}

func (h *memHandle) Get(key []byte) ([]byte, error) {
	b, err := h.resolve(false)
	if err != nil {
		return nil, err
	}
	it, ok := b.items.Get(memItem{key: key})
	if !ok || it.child != nil {
		return nil, ErrNotFound
	}
	return bytes.Clone(it.value), nil
}

func (h *memHandle) Put(key, value []byte) error {
	b, err := h.resolve(true)
	if err != nil {
		return err
	}
	if err := checkPut(key, value); err != nil {
		return err
	}
	it, ok := b.items.Get(memItem{key: key})
	switch {
	case !ok:
		it.key = bytes.Clone(key)
	case it.child != nil:
		return ErrIncompatibleValue
	}
	// bytes.Clone keeps an empty value non-nil, which marks it a value.
	it.value = bytes.Clone(value)
	b.items.ReplaceOrInsert(it)
	return nil
}

func (h *memHandle) Delete(key []byte) error {
	b, err := h.resolve(true)
	if err != nil {
		return err
	}
	it, ok := b.items.Get(memItem{key: key})
	switch {
	case !ok:
		return nil
	case it.child != nil:
		return ErrIncompatibleValue
	}
	b.items.Delete(it)
	return nil
}

// child returns a handle on the nested bucket name of b.
func (h *memHandle) child(b *memBucket, name []byte) *memHandle {
	path := make([][]byte, len(h.path), len(h.path)+1)
	copy(path, h.path)
	return &memHandle{tx: h.tx, path: append(path, bytes.Clone(name)), b: b, ver: h.tx.version}
}

func (h *memHandle) Bucket(name []byte) (Bucket, error) {
	b, err := h.resolve(false)
	if err != nil {
		return nil, err
	}
	it, ok := b.items.Get(memItem{key: name})
	if !ok || it.child == nil {
		return nil, ErrBucketNotFound
	}
	return h.child(it.child, name), nil
}

func (h *memHandle) CreateBucket(name []byte) (Bucket, error) {
	return h.create(name, false)
}

func (h *memHandle) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	return h.create(name, true)
}

func (h *memHandle) create(name []byte, mayExist bool) (Bucket, error) {
	b, err := h.resolve(true)
	if err != nil {
		return nil, err
	}
	if err := checkBucketName(name); err != nil {
		return nil, err
	}
	it, ok := b.items.Get(memItem{key: name})
	switch {
	case ok && it.child == nil:
		return nil, ErrIncompatibleValue
	case ok && !mayExist:
		return nil, ErrBucketExists
	case ok:
		return h.child(it.child, name), nil
	}
	child := h.tx.s.newBucket()
	h.tx.owned[child] = struct{}{}
	b.items.ReplaceOrInsert(memItem{key: bytes.Clone(name), child: child})
	return h.child(child, name), nil
}

func (h *memHandle) DeleteBucket(name []byte) error {
	b, err := h.resolve(true)
	if err != nil {
		return err
	}
	it, ok := b.items.Get(memItem{key: name})
	switch {
	case !ok:
		return ErrBucketNotFound
	case it.child == nil:
		return ErrIncompatibleValue
	}
	b.items.Delete(it)
	h.tx.version++
	return nil
}

func (h *memHandle) NextSequence() (uint64, error) {
	b, err := h.resolve(true)
	if err != nil {
		return 0, err
	}
	b.seq++
	return b.seq, nil
}

func (h *memHandle) Scan(opts ScanOptions, fn func(key, value []byte) error) error {
	return h.walk(opts, false, func(it memItem) error { return fn(copyPair(it.key, it.value)) })
}

func (h *memHandle) ForEachBucket(fn func(name []byte) error) error {
	return h.walk(ScanOptions{}, true, func(it memItem) error { return fn(bytes.Clone(it.key)) })
}

// walk calls fn with the values (or, if buckets, the nested buckets) that
// opts selects.
//
// A read transaction walks its immutable snapshot in one pass. In a
// writable transaction fn may change the tree, which a B-tree iteration
// does not allow, so each step is a new search from the last key visited:
// the walk then sees the bucket as fn left it, as on bbolt.
func (h *memHandle) walk(opts ScanOptions, buckets bool, fn func(memItem) error) error {
	b, err := h.resolve(false)
	if err != nil {
		return err
	}
	live := h.tx.writable
	seek, inclusive := scanStart(opts)
	for {
		var (
			next  memItem
			found bool
		)
		iterate(b.items, seek, inclusive, opts.Reverse, func(it memItem) bool {
			if !bytes.HasPrefix(it.key, opts.Prefix) {
				return false
			}
			if (it.child != nil) != buckets {
				return true
			}
			if live {
				next, found = it, true
				return false
			}
			err = fn(it)
			return err == nil
		})
		if !found {
			return stopToNil(err)
		}
		if err := fn(next); err != nil {
			return stopToNil(err)
		}
		if b, err = h.resolve(false); err != nil {
			return err
		}
		seek, inclusive = next.key, false
	}
}

// iterate calls visit with the items of t from the first key >= seek
// (forwards) or the last key <= seek (in reverse; nil seek means from the
// last key), skipping a key equal to seek unless inclusive, until visit
// returns false.
func iterate(t *btree.BTreeG[memItem], seek []byte, inclusive, reverse bool, visit func(memItem) bool) {
	if !inclusive {
		inner := visit
		visit = func(it memItem) bool {
			return bytes.Equal(it.key, seek) || inner(it)
		}
	}
	switch {
	case !reverse:
		t.AscendGreaterOrEqual(memItem{key: seek}, visit)
	case seek == nil:
		t.Descend(visit)
	default:
		t.DescendLessOrEqual(memItem{key: seek}, visit)
	}
}
