package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Defaults of BoltOptions.
const (
	// DefaultTimeout is how long OpenBolt waits for the file lock.
	DefaultTimeout = time.Second
	// DefaultMaxBatchSize is the largest number of Batch calls combined into
	// one commit (bbolt's default).
	DefaultMaxBatchSize = 1000
	// DefaultMaxBatchDelay is how long a Batch call waits for others to join
	// it before committing (bbolt's default).
	DefaultMaxBatchDelay = 10 * time.Millisecond
	// DefaultFileMode is the permission of a new database file.
	DefaultFileMode fs.FileMode = 0o600
)

// compactTxMaxSize bounds the bytes copied per transaction by Compact, so
// that compacting a large file does not hold it all in one transaction.
const compactTxMaxSize = 64 << 20

// maxCheckErrors bounds the problems Check reports for a badly broken file.
const maxCheckErrors = 100

// BoltOptions configures OpenBolt. The zero value (or nil) means defaults.
type BoltOptions struct {
	// Timeout is how long OpenBolt waits for the lock on a file that another
	// process holds before failing with ErrLocked. A negative Timeout fails
	// at once. Defaults to DefaultTimeout; OpenBolt never waits forever.
	Timeout time.Duration

	// NoSync skips the fsync after each commit: much faster, but a machine
	// crash (not a process crash) may lose or corrupt recent commits. For
	// tests and throwaway data. Defaults to false.
	NoSync bool

	// MaxBatchSize is the largest number of Batch calls combined into one
	// commit. Defaults to DefaultMaxBatchSize.
	MaxBatchSize int

	// MaxBatchDelay is how long a Batch call waits for other calls to join
	// its commit. Defaults to DefaultMaxBatchDelay.
	MaxBatchDelay time.Duration

	// ReadOnly opens the file for reading only, with a lock shared with
	// other read-only openers. Update and Batch then fail with
	// ErrTxNotWritable, and a missing file is an error. Defaults to false.
	ReadOnly bool

	// FileMode is the permission of a new database file, before the umask.
	// Defaults to DefaultFileMode.
	FileMode fs.FileMode

	// InitialMmapSize is the size in bytes of the file's first memory map.
	// bbolt must re-map the file when it grows past the map, and waits for
	// open read transactions to do so; a map larger than the file avoids
	// that wait. Defaults to 0 (the size of the file).
	InitialMmapSize int
}

// withDefaults returns a copy of o with zero fields set to their defaults.
func (o *BoltOptions) withDefaults() BoltOptions {
	var out BoltOptions
	if o != nil {
		out = *o
	}
	if out.Timeout == 0 {
		out.Timeout = DefaultTimeout
	}
	if out.MaxBatchSize == 0 {
		out.MaxBatchSize = DefaultMaxBatchSize
	}
	if out.MaxBatchDelay == 0 {
		out.MaxBatchDelay = DefaultMaxBatchDelay
	}
	if out.FileMode == 0 {
		out.FileMode = DefaultFileMode
	}
	return out
}

// validate names the first bad field of o.
func (o BoltOptions) validate() error {
	switch {
	case o.MaxBatchSize < 0:
		return fmt.Errorf("store: BoltOptions.MaxBatchSize %d is negative", o.MaxBatchSize)
	case o.MaxBatchDelay < 0:
		return fmt.Errorf("store: BoltOptions.MaxBatchDelay %v is negative", o.MaxBatchDelay)
	case o.InitialMmapSize < 0:
		return fmt.Errorf("store: BoltOptions.InitialMmapSize %d is negative", o.InitialMmapSize)
	case o.FileMode&^fs.ModePerm != 0:
		return fmt.Errorf("store: BoltOptions.FileMode %v has bits other than permissions", o.FileMode)
	}
	return nil
}

// boltOptions translates o for bbolt.
func (o BoltOptions) boltOptions() *bolt.Options {
	timeout := o.Timeout
	if timeout < 0 {
		// bbolt waits forever for a zero timeout; the smallest positive one
		// makes it give up after its first attempt.
		timeout = time.Nanosecond
	}
	return &bolt.Options{
		Timeout:         timeout,
		NoSync:          o.NoSync,
		ReadOnly:        o.ReadOnly,
		InitialMmapSize: o.InitialMmapSize,
		// Check needs the free pages, which bbolt loads only for writers.
		PreLoadFreelist: true,
	}
}

// Bolt is a Store kept in a bbolt file. OpenBolt returns it as a Store;
// type-assert to *Bolt for Compact, Check and Path.
//
// # Caveats
//
// One process at a time may open a file for writing; bbolt locks it. Inside
// a process, Update and Batch must not be called from within View, Update or
// Batch: bbolt lets one writer in at a time and a writer may need to wait
// for open readers before it can grow the file.
//
// Keys and values live in a memory map that is valid only inside a
// transaction, so Get and Scan hand out copies.
type Bolt struct {
	db   *bolt.DB
	path string
	opts BoltOptions
	// writer holds a token while an Update runs, so that waiting for the
	// writer's turn ends when the caller's context is done; bbolt's own
	// lock cannot be given up.
	writer chan struct{}
}

var _ Store = (*Bolt)(nil)

// OpenBolt opens the bbolt database at path, creating it when it does not
// exist (unless opts.ReadOnly). opts may be nil for defaults. The Store it
// returns is a *Bolt.
//
// A failed open never changes the file. Errors wrap:
//   - ErrLocked when another process holds the file past opts.Timeout;
//   - ErrInvalidFile when the file is not a bbolt database, is corrupt, is
//     empty or is not a regular file;
//   - the fs error (fs.ErrNotExist, fs.ErrPermission, ...) when the file or
//     its directory cannot be opened or created.
//
// A new file is initialised under a temporary name in the same directory
// and linked into place, so a crash while creating it never leaves an empty
// or half-written file at path. On a file system without hard links it is
// renamed into place instead, over an empty file first created exclusively
// at path so that no other opener's file is replaced; a crash between those
// two steps leaves the empty file, which OpenBolt then refuses.
func OpenBolt(path string, opts *BoltOptions) (Store, error) {
	return opener{link: os.Link}.open(path, opts)
}

// opener holds the file system steps of OpenBolt that tests replace.
type opener struct {
	// link gives the file oldname the second name newname (os.Link).
	link func(oldname, newname string) error
}

// open is OpenBolt.
func (op opener) open(path string, opts *BoltOptions) (Store, error) {
	o := opts.withDefaults()
	if err := o.validate(); err != nil {
		return nil, err
	}
	created := false // path is the empty database this call made
	info, err := os.Stat(path)
	switch {
	case err == nil:
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%w: %s: not a regular file (%v)", ErrInvalidFile, path, info.Mode().Type())
		}
		if info.Size() == 0 {
			// bbolt would initialise an empty file. An empty file at a
			// database's path is more likely a truncated database than a new
			// one, and OpenBolt never creates one itself.
			return nil, fmt.Errorf("%w: %s: empty file (remove it to start a new database)", ErrInvalidFile, path)
		}
	case errors.Is(err, fs.ErrNotExist) && !o.ReadOnly:
		created, err = op.createBolt(path, o)
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("store: %w", err)
	}
	if !o.ReadOnly && !created {
		// A writer's open may write (bbolt rewrites a missing free list,
		// and grows the file to what the meta page claims) before the
		// file was fully read. Read it first, writing nothing.
		ro := o
		ro.ReadOnly = true
		db, err := openBoltFile(path, ro)
		if err != nil {
			return nil, err
		}
		if err := db.Close(); err != nil {
			return nil, fmt.Errorf("store: open %s: %w", path, err)
		}
	}
	db, err := openBoltFile(path, o)
	if err != nil {
		return nil, err
	}
	db.MaxBatchSize = o.MaxBatchSize
	db.MaxBatchDelay = o.MaxBatchDelay
	return &Bolt{db: db, path: path, opts: o, writer: make(chan struct{}, 1)}, nil
}

// openBoltFile opens path with bbolt and classifies its errors.
func openBoltFile(path string, o BoltOptions) (db *bolt.DB, err error) {
	bo := o.boltOptions()
	var (
		file    *os.File
		fileErr error
	)
	bo.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		file, fileErr = os.OpenFile(name, flag, perm)
		return file, fileErr
	}
	// bbolt trusts the pages it reads: it panics on some garbage, and
	// faults on pages past the end of a truncated file. SetPanicOnFault
	// turns such a fault into a panic on this goroutine.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		// Closing the file releases its lock; a memory map bbolt may have
		// made before panicking stays until the process exits.
		if r := recover(); r != nil {
			if file != nil {
				_ = file.Close()
			}
			db, err = nil, fmt.Errorf("%w: %s: %v", ErrInvalidFile, path, r)
		}
	}()
	db, err = bolt.Open(path, o.FileMode, bo)
	switch {
	case err == nil:
		if err := checkSize(db, file); err != nil {
			_ = db.Close()
			return nil, fmt.Errorf("%w: %s: %w", ErrInvalidFile, path, err)
		}
		return db, nil
	case fileErr != nil:
		return nil, fmt.Errorf("store: %w", fileErr)
	case errors.Is(err, berrors.ErrTimeout):
		return nil, fmt.Errorf("%w: %s (waited %v)", ErrLocked, path, o.Timeout)
	case isOSError(err):
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	default:
		// bbolt's own complaints are about the contents: ErrInvalid,
		// ErrVersionMismatch, ErrChecksum, "file size too small", ...
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidFile, path, err)
	}
}

// checkSize checks that the file holds every page its meta page counts, so
// that no later read faults past its end (bbolt does not check).
func checkSize(db *bolt.DB, file *os.File) error {
	info, err := file.Stat()
	if err != nil {
		return err
	}
	var size int64
	if err := db.View(func(tx *bolt.Tx) error {
		size = tx.Size()
		return nil
	}); err != nil {
		return err
	}
	if size > info.Size() {
		return fmt.Errorf("truncated: %d bytes, %d expected", info.Size(), size)
	}
	return nil
}

// isOSError reports whether err comes from the operating system (reading,
// mapping or writing the file failed) rather than from bbolt reading it.
func isOSError(err error) bool {
	var (
		pathErr *fs.PathError
		errno   syscall.Errno
	)
	return errors.As(err, &pathErr) || errors.As(err, &errno)
}

// createBolt creates an initialised, empty database at path, which did not
// exist a moment ago, and reports whether it did: false means that another
// opener created path first, and its file wins.
//
// The database is initialised under a temporary name in the same directory
// and then given the name path, so that a crash never leaves an empty or
// half-written file at path. Link, unlike Rename, never replaces a file
// another opener created in the meantime. On a file system without hard
// links (SMB, vfat, some container volumes) path is instead claimed by
// creating it empty and exclusively, and the temporary file renamed over
// the claim: no other file is ever replaced, but until the rename another
// opener sees an empty file (and fails with ErrInvalidFile), and a crash
// between the two steps leaves that empty file behind.
func (op opener) createBolt(path string, o BoltOptions) (bool, error) {
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); err != nil {
		return false, fmt.Errorf("store: open %s: %w", path, err)
	}
	tmp, err := createExclusive(path, o.FileMode)
	if err != nil {
		return false, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer os.Remove(tmp)
	// The temporary file is ours alone: it needs no lock timeout.
	db, err := bolt.Open(tmp, o.FileMode, &bolt.Options{Timeout: time.Nanosecond, NoSync: o.NoSync})
	if err != nil {
		return false, fmt.Errorf("store: create %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return false, fmt.Errorf("store: create %s: %w", path, err)
	}
	err = op.link(tmp, path)
	switch {
	case errors.Is(err, fs.ErrExist):
		return false, nil
	case err != nil:
		if created, err := renameExclusive(tmp, path, o.FileMode); err != nil || !created {
			return false, err
		}
	}
	if !o.NoSync {
		if err := syncDir(dir); err != nil {
			return false, err
		}
	}
	return true, nil
}

// renameExclusive renames tmp to path unless path exists, and reports
// whether it did. It claims path with an exclusive create first, so it
// replaces only its own empty claim.
func renameExclusive(tmp, path string, mode fs.FileMode) (bool, error) {
	claim, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: create %s: %w", path, err)
	}
	if err := claim.Close(); err != nil {
		_ = os.Remove(path)
		return false, fmt.Errorf("store: create %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(path)
		return false, fmt.Errorf("store: create %s: %w", path, err)
	}
	return true, nil
}

// createExclusive creates a new, empty file next to path and returns its
// name.
func createExclusive(path string, mode fs.FileMode) (string, error) {
	var suffix [8]byte
	for range 10 {
		_, _ = rand.Read(suffix[:])
		name := path + ".tmp-" + hex.EncodeToString(suffix[:])
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, f.Close()
	}
	return "", fmt.Errorf("no free temporary name next to %s", path)
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: sync %s: %w", dir, err)
	}
	return nil
}

// Path returns the path the database was opened with.
func (s *Bolt) Path() string { return s.path }

// View implements Store.
func (s *Bolt) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return run(ctx, s.db.View, fn)
}

// Update implements Store. Waiting for another Update's turn ends when ctx
// is done; waiting behind a Batch commit does not, but fn is then not
// called and nothing is written.
func (s *Bolt) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case s.writer <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writer }()
	return run(ctx, s.db.Update, fn)
}

// Batch implements Store with bbolt's DB.Batch: calls from several
// goroutines within BoltOptions.MaxBatchDelay share one commit. A lone
// caller therefore waits up to MaxBatchDelay; use Update when there is no
// concurrency to exploit. The wait for the commit does not end when ctx is
// done, but fn is not called once it is, so nothing is written for a caller
// that gave up.
func (s *Bolt) Batch(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return run(ctx, s.db.Batch, fn)
}

// run calls fn through one of bbolt's managed transaction methods, unless
// ctx is done by the time the transaction starts: then the transaction is
// rolled back and ctx's error returned.
func run(ctx context.Context, method func(func(*bolt.Tx) error) error, fn func(Tx) error) error {
	var fnErr error
	err := method(func(btx *bolt.Tx) error {
		if fnErr = ctx.Err(); fnErr != nil {
			return fnErr
		}
		tx := &boltTx{tx: btx}
		tx.root = boltBucket{tx: tx, b: btx.Cursor().Bucket()}
		fnErr = fn(tx)
		tx.done = true
		return fnErr
	})
	if err != nil && fnErr != nil {
		// The transaction was rolled back because fn failed (or ctx was
		// done): return that error, untouched.
		return err
	}
	return fromBolt(err)
}

// Close implements Store. It waits for open transactions to finish. Closing
// twice is not an error.
func (s *Bolt) Close() error {
	return fromBolt(s.db.Close())
}

// Compact writes a compacted copy of the database to dstPath, which must not
// exist, leaving the open database as it is. The copy holds the same buckets,
// keys, values and sequences in the fewest pages. On error dstPath is
// removed. ctx is checked before the copy starts; the copy itself runs to
// the end.
func (s *Bolt) Compact(ctx context.Context, dstPath string) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.OpenFile(dstPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, s.opts.FileMode)
	if err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(dstPath)
		}
	}()
	dst, err := bolt.Open(dstPath, s.opts.FileMode, &bolt.Options{Timeout: time.Nanosecond, NoSync: s.opts.NoSync})
	if err != nil {
		return fmt.Errorf("store: compact: %w", err)
	}
	err = bolt.Compact(dst, s.db, compactTxMaxSize)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: compact %s to %s: %w", s.path, dstPath, fromBolt(err))
	}
	return nil
}

// Check verifies the consistency of the whole file in a read transaction:
// every page reachable once, free pages not in use, keys in order. It
// returns nil or an error wrapping ErrInvalidFile that joins the problems
// found (at most 100). ctx is checked before the check starts.
//
// bbolt checksums its meta pages but not its data pages: Check finds
// structural damage such as a torn write or a bug, but garbage written over
// data pages may crash the process in Check (as in any read) instead of
// being reported. Check a file of unknown origin in a separate process.
func (s *Bolt) Check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var (
		errs    []error
		dropped int
	)
	err := s.db.View(func(tx *bolt.Tx) error {
		// Drain the channel to the end: bbolt's checking goroutine blocks
		// until every error is received.
		for err := range tx.Check() {
			if len(errs) < maxCheckErrors {
				errs = append(errs, err)
			} else {
				dropped++
			}
		}
		return nil
	})
	if err != nil {
		return fromBolt(err)
	}
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("and %d more problems", dropped))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: %s: %w", ErrInvalidFile, s.path, errors.Join(errs...))
	}
	return nil
}

// fromBolt maps bbolt's errors to this package's sentinels.
func fromBolt(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, berrors.ErrBucketNotFound):
		return ErrBucketNotFound
	case errors.Is(err, berrors.ErrBucketExists):
		return ErrBucketExists
	case errors.Is(err, berrors.ErrBucketNameRequired):
		return ErrBucketNameRequired
	case errors.Is(err, berrors.ErrKeyRequired):
		return ErrKeyRequired
	case errors.Is(err, berrors.ErrKeyTooLarge):
		return ErrKeyTooLarge
	case errors.Is(err, berrors.ErrValueTooLarge):
		return ErrValueTooLarge
	case errors.Is(err, berrors.ErrIncompatibleValue):
		return ErrIncompatibleValue
	case errors.Is(err, berrors.ErrTxNotWritable):
		return ErrTxNotWritable
	case errors.Is(err, berrors.ErrDatabaseReadOnly):
		return fmt.Errorf("%w: database opened read-only", ErrTxNotWritable)
	case errors.Is(err, berrors.ErrTxClosed):
		return ErrTxClosed
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return ErrClosed
	default:
		return fmt.Errorf("store: %w", err)
	}
}

// boltTx is a Tx over a bbolt transaction. root is bbolt's root bucket,
// whose nested buckets are the top-level buckets.
type boltTx struct {
	tx   *bolt.Tx
	root boltBucket
	done bool
}

func (tx *boltTx) Bucket(name []byte) (Bucket, error) { return tx.root.Bucket(name) }
func (tx *boltTx) CreateBucket(name []byte) (Bucket, error) {
	return tx.root.CreateBucket(name)
}
func (tx *boltTx) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	return tx.root.CreateBucketIfNotExists(name)
}
func (tx *boltTx) DeleteBucket(name []byte) error { return tx.root.DeleteBucket(name) }
func (tx *boltTx) Writable() bool                 { return tx.tx.Writable() }

// boltBucket is a Bucket over a bbolt bucket.
type boltBucket struct {
	tx *boltTx
	b  *bolt.Bucket
}

// open checks that the transaction is still running: bbolt's own check
// comes too late for reads, which would touch unmapped memory.
func (b *boltBucket) open() error {
	if b.tx.done {
		return ErrTxClosed
	}
	return nil
}

// writable checks that the bucket may be written.
func (b *boltBucket) writable() error {
	if err := b.open(); err != nil {
		return err
	}
	if !b.tx.tx.Writable() {
		return ErrTxNotWritable
	}
	return nil
}

func (b *boltBucket) Get(key []byte) ([]byte, error) {
	if err := b.open(); err != nil {
		return nil, err
	}
	v := b.b.Get(key)
	if v == nil {
		return nil, ErrNotFound
	}
	return bytes.Clone(v), nil
}

func (b *boltBucket) Put(key, value []byte) error {
	if err := b.writable(); err != nil {
		return err
	}
	if err := checkPut(key, value); err != nil {
		return err
	}
	// bbolt keeps a reference to value until the commit; the caller may
	// change it sooner.
	return fromBolt(b.b.Put(key, bytes.Clone(value)))
}

func (b *boltBucket) Delete(key []byte) error {
	if err := b.writable(); err != nil {
		return err
	}
	return fromBolt(b.b.Delete(key))
}

func (b *boltBucket) Bucket(name []byte) (Bucket, error) {
	if err := b.open(); err != nil {
		return nil, err
	}
	child := b.b.Bucket(name)
	if child == nil {
		return nil, ErrBucketNotFound
	}
	return &boltBucket{tx: b.tx, b: child}, nil
}

func (b *boltBucket) CreateBucket(name []byte) (Bucket, error) {
	return b.create(name, (*bolt.Bucket).CreateBucket)
}

func (b *boltBucket) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	return b.create(name, (*bolt.Bucket).CreateBucketIfNotExists)
}

func (b *boltBucket) create(name []byte, create func(*bolt.Bucket, []byte) (*bolt.Bucket, error)) (Bucket, error) {
	if err := b.writable(); err != nil {
		return nil, err
	}
	if err := checkBucketName(name); err != nil {
		return nil, err
	}
	child, err := create(b.b, name)
	if err != nil {
		return nil, fromBolt(err)
	}
	return &boltBucket{tx: b.tx, b: child}, nil
}

func (b *boltBucket) DeleteBucket(name []byte) error {
	if err := b.writable(); err != nil {
		return err
	}
	return fromBolt(b.b.DeleteBucket(name))
}

func (b *boltBucket) NextSequence() (uint64, error) {
	if err := b.writable(); err != nil {
		return 0, err
	}
	n, err := b.b.NextSequence()
	return n, fromBolt(err)
}

func (b *boltBucket) Scan(opts ScanOptions, fn func(key, value []byte) error) error {
	return b.walk(opts, false, func(k, v []byte) error { return fn(copyPair(k, v)) })
}

func (b *boltBucket) ForEachBucket(fn func(name []byte) error) error {
	return b.walk(ScanOptions{}, true, func(k, _ []byte) error { return fn(bytes.Clone(k)) })
}

// walk calls fn with the values (or, if buckets, the nested buckets) that
// opts selects. bbolt's k and v are passed on uncopied.
//
// In a writable transaction fn may change the bucket, which invalidates a
// bbolt cursor, so the cursor seeks past the last key visited after each
// call: the walk then sees the bucket as fn left it.
func (b *boltBucket) walk(opts ScanOptions, buckets bool, fn func(k, v []byte) error) error {
	if err := b.open(); err != nil {
		return err
	}
	live := b.tx.tx.Writable()
	c := b.b.Cursor()
	seek, inclusive := scanStart(opts)
	var last []byte
	for k, v := seekCursor(c, seek, inclusive, opts.Reverse); k != nil && bytes.HasPrefix(k, opts.Prefix); {
		if (v == nil) != buckets {
			k, v = stepCursor(c, opts.Reverse)
			continue
		}
		if live {
			last = append(last[:0], k...)
		}
		if err := fn(k, v); err != nil {
			return stopToNil(err)
		}
		if live {
			k, v = seekCursor(c, last, false, opts.Reverse)
		} else {
			k, v = stepCursor(c, opts.Reverse)
		}
	}
	return nil
}

// seekCursor moves c to the first key >= seek (forwards) or the last key <=
// seek (in reverse; a nil seek means the last key), skipping a key equal to
// seek unless inclusive.
func seekCursor(c *bolt.Cursor, seek []byte, inclusive, reverse bool) (k, v []byte) {
	if reverse && seek == nil {
		return c.Last()
	}
	k, v = c.Seek(seek)
	switch {
	case !reverse:
		if !inclusive && bytes.Equal(k, seek) {
			return c.Next()
		}
		return k, v
	case k == nil:
		return c.Last()
	case inclusive && bytes.Equal(k, seek):
		return k, v
	default:
		return c.Prev()
	}
}

// stepCursor moves c one key on.
func stepCursor(c *bolt.Cursor, reverse bool) (k, v []byte) {
	if reverse {
		return c.Prev()
	}
	return c.Next()
}
