package store_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vokter-go/vokter/store"
	"github.com/vokter-go/vokter/store/storetest"
)

// Environment of the helper process the tests start by re-running the test
// binary: the mode ("lock" or "crash") and the database path.
const (
	helperEnvMode = "VOKTER_STORE_HELPER"
	helperEnvPath = "VOKTER_STORE_HELPER_PATH"
)

func newBolt(tb testing.TB) store.Store {
	s, err := store.OpenBolt(filepath.Join(tb.TempDir(), "test.db"), &store.BoltOptions{NoSync: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

func TestBoltConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return newBolt(t) })
}

func TestBoltPersistent(t *testing.T) {
	t.Parallel()
	storetest.RunPersistent(t, func(t *testing.T, path string) store.Store {
		return mustOpen(t, path, &store.BoltOptions{NoSync: true})
	})
}

// mustOpen opens path or fails the test; the store is closed at cleanup.
func mustOpen(tb testing.TB, path string, opts *store.BoltOptions) *store.Bolt {
	tb.Helper()
	s, err := store.OpenBolt(path, opts)
	if err != nil {
		tb.Fatalf("OpenBolt: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s.(*store.Bolt)
}

// put writes key=value pairs into bucket name.
func put(tb testing.TB, s store.Store, name string, kv ...string) {
	tb.Helper()
	err := s.Update(context.Background(), func(tx store.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if err := b.Put([]byte(kv[i]), []byte(kv[i+1])); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("Update: %v", err)
	}
}

// contents returns every "key=value" of bucket name and the bucket's next
// sequence number (read in a transaction that is rolled back).
func contents(tb testing.TB, s store.Store, name string) ([]string, uint64) {
	tb.Helper()
	var (
		out []string
		seq uint64
	)
	err := s.View(context.Background(), func(tx store.Tx) error {
		b, err := tx.Bucket([]byte(name))
		if err != nil {
			return err
		}
		return b.Scan(store.ScanOptions{}, func(k, v []byte) error {
			out = append(out, string(k)+"="+string(v))
			return nil
		})
	})
	if err != nil {
		tb.Fatalf("View: %v", err)
	}
	errRollback := errors.New("roll back")
	err = s.Update(context.Background(), func(tx store.Tx) error {
		b, err := tx.Bucket([]byte(name))
		if err != nil {
			return err
		}
		if seq, err = b.NextSequence(); err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		tb.Fatalf("Update: %v", err)
	}
	return out, seq
}

func TestBoltReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "reopen.db")
	s, err := store.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.(*store.Bolt).Path(); got != path {
		t.Errorf("Path() = %q, want %q", got, path)
	}
	put(t, s, "b", "k1", "v1", "k2", "v2")
	want, wantSeq := contents(t, s, "b")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	s = mustOpen(t, path, nil)
	got, gotSeq := contents(t, s, "b")
	if strings.Join(got, ",") != strings.Join(want, ",") || gotSeq != wantSeq {
		t.Errorf("after reopening: %q seq %d, want %q seq %d", got, gotSeq, want, wantSeq)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the database (no temporary files)", len(entries))
	}
}

// validDB returns the bytes of a small database holding some data.
func validDB(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "valid.db")
	s, err := store.OpenBolt(path, &store.BoltOptions{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "b", "k", "v")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pageSize is the page size of the databases the tests create (the OS
// page size bbolt defaults to; 4 KiB on the platforms CI runs on).
var pageSize = os.Getpagesize()

func TestOpenBoltErrors(t *testing.T) {
	t.Parallel()
	valid := validDB(t)
	// Offsets in a meta page: a 16-byte page header, then magic (4 bytes)
	// and version (4 bytes), then the fields the checksum covers.
	corrupt := func(offset int, b byte) []byte {
		data := bytes.Clone(valid)
		for _, page := range []int{0, 1} {
			data[page*pageSize+offset] ^= b
		}
		return data
	}
	random := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name string
		// data is written at path first, unless nil.
		data []byte
		// path returns where to open, given the test's directory.
		path func(dir string) string
		opts *store.BoltOptions
		want []error
	}{
		{name: "empty file", data: []byte{}, want: []error{store.ErrInvalidFile}},
		{name: "short garbage", data: []byte("hello, world"), want: []error{store.ErrInvalidFile}},
		{name: "random bytes", data: random, want: []error{store.ErrInvalidFile}},
		{name: "zeros", data: make([]byte, 4*pageSize), want: []error{store.ErrInvalidFile}},
		{name: "bad magic", data: corrupt(16, 0xff), want: []error{store.ErrInvalidFile}},
		{name: "bad version", data: corrupt(20, 0x0f), want: []error{store.ErrInvalidFile}},
		{name: "bad checksum", data: corrupt(16+16, 0x01), want: []error{store.ErrInvalidFile}},
		{name: "truncated", data: valid[:pageSize+100], want: []error{store.ErrInvalidFile}},
		{name: "directory", path: func(dir string) string { return dir }, want: []error{store.ErrInvalidFile}},
		{
			name: "missing directory",
			path: func(dir string) string { return filepath.Join(dir, "no", "such", "x.db") },
			want: []error{fs.ErrNotExist},
		},
		{
			name: "read-only missing file",
			path: func(dir string) string { return filepath.Join(dir, "x.db") },
			opts: &store.BoltOptions{ReadOnly: true},
			want: []error{fs.ErrNotExist},
		},
		{name: "read-only empty file", data: []byte{}, opts: &store.BoltOptions{ReadOnly: true}, want: []error{store.ErrInvalidFile}},
		{name: "bad option", data: valid, opts: &store.BoltOptions{MaxBatchSize: -1}, want: nil},
		{name: "bad file mode", opts: &store.BoltOptions{FileMode: fs.ModeDir | 0o600}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			if tt.path != nil {
				path = tt.path(dir)
			}
			if tt.data != nil {
				if err := os.WriteFile(path, tt.data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := dirState(t, dir)
			start := time.Now()
			s, err := store.OpenBolt(path, tt.opts)
			if err == nil {
				_ = s.Close()
				t.Fatal("OpenBolt succeeded")
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("OpenBolt took %v", time.Since(start))
			}
			for _, want := range tt.want {
				if !errors.Is(err, want) {
					t.Errorf("error %q does not wrap %q", err, want)
				}
			}
			if !strings.Contains(err.Error(), "store: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if tt.want != nil && !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the path %s", err, path)
			}
			if tt.want == nil && !strings.Contains(err.Error(), "BoltOptions.") {
				t.Errorf("error %q does not name the bad option", err)
			}
			if after := dirState(t, dir); after != before {
				t.Errorf("a failed open changed the directory:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// dirState describes the files of dir and their contents.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&sb, "%s ", e.Name())
		if e.Type().IsRegular() {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sb, "%x ", sha256.Sum256(data))
		}
	}
	return sb.String()
}

func TestOpenBoltReadOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ro.db")
	s, err := store.OpenBolt(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, "b", "k", "v")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Read-only openers share the lock.
	r1 := mustOpen(t, path, &store.BoltOptions{ReadOnly: true})
	r2 := mustOpen(t, path, &store.BoltOptions{ReadOnly: true, Timeout: -1})
	for _, r := range []*store.Bolt{r1, r2} {
		err := r.View(context.Background(), func(tx store.Tx) error {
			b, err := tx.Bucket([]byte("b"))
			if err != nil {
				return err
			}
			v, err := b.Get([]byte("k"))
			if string(v) != "v" {
				return fmt.Errorf("Get = %q, %v", v, err)
			}
			return err
		})
		if err != nil {
			t.Error(err)
		}
		if err := r.Check(context.Background()); err != nil {
			t.Errorf("Check: %v", err)
		}
		for name, run := range map[string]func(context.Context, func(store.Tx) error) error{"Update": r.Update, "Batch": r.Batch} {
			if err := run(context.Background(), func(store.Tx) error { return nil }); !errors.Is(err, store.ErrTxNotWritable) {
				t.Errorf("%s on a read-only store: %v, want ErrTxNotWritable", name, err)
			}
		}
	}
}

func TestOpenBoltLockedInProcess(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "locked.db")
	mustOpen(t, path, nil)
	for _, timeout := range []time.Duration{-1, 100 * time.Millisecond} {
		start := time.Now()
		s, err := store.OpenBolt(path, &store.BoltOptions{Timeout: timeout})
		if err == nil {
			_ = s.Close()
			t.Fatalf("second OpenBolt (timeout %v) succeeded", timeout)
		}
		if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), path) {
			t.Errorf("timeout %v: error %q, want ErrLocked naming %s", timeout, err, path)
		}
		if elapsed := time.Since(start); elapsed > timeout+2*time.Second {
			t.Errorf("timeout %v: OpenBolt gave up after %v", timeout, elapsed)
		}
	}
}

// TestHelperProcess is not a test: it is the child process of the tests that
// need a second process, selected by the environment.
func TestHelperProcess(t *testing.T) {
	mode, path := os.Getenv(helperEnvMode), os.Getenv(helperEnvPath)
	switch mode {
	case "":
		t.Skip("helper process for other tests")
	case "lock":
		// Hold the file until stdin closes.
		s, err := store.OpenBolt(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("ready")
		_, _ = io.Copy(io.Discard, os.Stdin)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	case "crash":
		// Commit numbered transactions until killed, reporting each after
		// its commit returned.
		s, err := store.OpenBolt(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(os.Stdout)
		for i := uint64(1); ; i++ {
			if err := s.Update(context.Background(), func(tx store.Tx) error {
				return commitNumbered(tx, i)
			}); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(w, i)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	default:
		t.Fatalf("unknown helper mode %q", mode)
	}
}

// crashValue is the value transaction i of the crash test stores; large
// enough that a commit writes several pages.
func crashValue(i uint64) []byte {
	return bytes.Repeat([]byte(strconv.FormatUint(i, 10)+";"), 1000)
}

// commitNumbered writes transaction i of the crash test: its key and
// value, and the bucket's sequence, which must then equal i.
func commitNumbered(tx store.Tx, i uint64) error {
	b, err := tx.CreateBucketIfNotExists([]byte("crash"))
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	if seq != i {
		return fmt.Errorf("sequence %d in transaction %d", seq, i)
	}
	return b.Put(binary.BigEndian.AppendUint64(nil, i), crashValue(i))
}

// startHelper starts the helper process in mode on path and returns it with
// its stdin and a reader of its stdout. The process is killed at cleanup.
func startHelper(t *testing.T, mode, path string) (*exec.Cmd, io.WriteCloser, *bufio.Scanner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnvMode+"="+mode, helperEnvPath+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, stdin, bufio.NewScanner(stdout)
}

func TestOpenBoltLockedByProcess(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "locked.db")
	cmd, stdin, stdout := startHelper(t, "lock", path)
	if !stdout.Scan() || stdout.Text() != "ready" {
		t.Fatalf("helper did not get ready: %q %v", stdout.Text(), stdout.Err())
	}
	const timeout = 300 * time.Millisecond
	start := time.Now()
	s, err := store.OpenBolt(path, &store.BoltOptions{Timeout: timeout})
	if err == nil {
		_ = s.Close()
		t.Fatal("OpenBolt of a file another process holds succeeded")
	}
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %q, want ErrLocked naming %s", err, path)
	}
	if elapsed := time.Since(start); elapsed > timeout+2*time.Second {
		t.Errorf("OpenBolt gave up after %v, timeout %v", elapsed, timeout)
	}
	// Once the other process lets go, the file opens.
	if err := stdin.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	mustOpen(t, path, &store.BoltOptions{Timeout: 5 * time.Second})
}

// TestBoltCrash kills a process that is committing transactions and checks
// that every transaction it saw committed survived, and the file is sound.
func TestBoltCrash(t *testing.T) {
	t.Parallel()
	const minCommits = 40
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd, _, stdout := startHelper(t, "crash", path)
	var reported uint64
	for stdout.Scan() {
		n, err := strconv.ParseUint(stdout.Text(), 10, 64)
		if err != nil || n != reported+1 {
			t.Fatalf("helper printed %q after %d", stdout.Text(), reported)
		}
		reported = n
		if n == minCommits {
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
		}
	}
	err := cmd.Wait()
	if reported < minCommits {
		t.Fatalf("helper reported %d commits, then ended: %v", reported, err)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Exited() {
		t.Fatalf("helper was not killed: %v", err)
	}
	s := mustOpen(t, path, nil)
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check after the crash: %v", err)
	}
	var found uint64
	err = s.View(context.Background(), func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("crash"))
		if err != nil {
			return err
		}
		return b.Scan(store.ScanOptions{}, func(k, v []byte) error {
			found++
			if i := binary.BigEndian.Uint64(k); i != found || !bytes.Equal(v, crashValue(i)) {
				return fmt.Errorf("key %d (%d bytes) where %d was expected", i, len(v), found)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	// The transaction in flight when the process died may have committed
	// before it could report it.
	if found < reported || found > reported+1 {
		t.Errorf("found transactions 1..%d, helper reported 1..%d committed", found, reported)
	}
	// The store takes new commits where the dead process stopped.
	if err := s.Update(context.Background(), func(tx store.Tx) error { return commitNumbered(tx, found+1) }); err != nil {
		t.Errorf("commit after the crash: %v", err)
	}
	t.Logf("killed after %d reported commits; %d found", reported, found)
}

func TestBoltCompact(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := mustOpen(t, filepath.Join(dir, "src.db"), &store.BoltOptions{NoSync: true})
	value := strings.Repeat("v", 1000)
	var kv []string
	for i := range 2000 {
		kv = append(kv, fmt.Sprintf("k%04d", i), value)
	}
	put(t, src, "b", kv...)
	err := src.Update(context.Background(), func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		if _, err := b.NextSequence(); err != nil {
			return err
		}
		nested, err := b.CreateBucket([]byte("nested"))
		if err != nil {
			return err
		}
		if err := nested.Put([]byte("n"), []byte("1")); err != nil {
			return err
		}
		for i := range 2000 {
			if i%10 != 0 {
				if err := b.Delete([]byte(fmt.Sprintf("k%04d", i))); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dstPath := filepath.Join(dir, "dst.db")
	if err := src.Compact(context.Background(), dstPath); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	srcInfo, err := os.Stat(src.Path())
	if err != nil {
		t.Fatal(err)
	}
	dstInfo, err := os.Stat(dstPath)
	if err != nil {
		t.Fatal(err)
	}
	if dstInfo.Size() > srcInfo.Size() {
		t.Errorf("compacted file is %d bytes, the original %d", dstInfo.Size(), srcInfo.Size())
	}
	t.Logf("compacted %d bytes to %d", srcInfo.Size(), dstInfo.Size())
	dst := mustOpen(t, dstPath, nil)
	if err := dst.Check(context.Background()); err != nil {
		t.Errorf("Check of the compacted file: %v", err)
	}
	wantKV, wantSeq := contents(t, src, "b")
	gotKV, gotSeq := contents(t, dst, "b")
	if strings.Join(gotKV, ",") != strings.Join(wantKV, ",") || gotSeq != wantSeq || len(gotKV) != 200 {
		t.Errorf("compacted file holds %d pairs seq %d, want %d pairs seq %d", len(gotKV), gotSeq, len(wantKV), wantSeq)
	}
	err = dst.View(context.Background(), func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		nested, err := b.Bucket([]byte("nested"))
		if err != nil {
			return err
		}
		if v, err := nested.Get([]byte("n")); err != nil || string(v) != "1" {
			return fmt.Errorf("nested value %q, %v", v, err)
		}
		return nil
	})
	if err != nil {
		t.Errorf("compacted file: %v", err)
	}

	// Compact never overwrites a file.
	err = src.Compact(context.Background(), dstPath)
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("Compact onto an existing file: %v, want fs.ErrExist", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := src.Compact(ctx, filepath.Join(dir, "never.db")); !errors.Is(err, context.Canceled) {
		t.Errorf("Compact with a canceled context: %v", err)
	}
	if err := src.Check(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Check with a canceled context: %v", err)
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	closedDst := filepath.Join(dir, "closed.db")
	if err := src.Compact(context.Background(), closedDst); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Compact of a closed store: %v, want ErrClosed", err)
	}
	if _, err := os.Stat(closedDst); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed Compact left %s behind (%v)", closedDst, err)
	}
	if err := src.Check(context.Background()); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Check of a closed store: %v, want ErrClosed", err)
	}
}

// TestBoltCheckCorrupt overwrites every page but the meta pages: the file
// must then fail to open or fail Check, never crash the process.
func TestBoltCheckCorrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "corrupt.db")
	s := mustOpen(t, path, &store.BoltOptions{NoSync: true})
	var kv []string
	for i := range 300 {
		kv = append(kv, fmt.Sprintf("k%04d", i), strings.Repeat("v", 100))
	}
	put(t, s, "b", kv...)
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("Check of a sound file: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 2 * pageSize; i < len(data); i++ {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := store.OpenBolt(path, &store.BoltOptions{ReadOnly: true})
	if err != nil {
		if !errors.Is(err, store.ErrInvalidFile) {
			t.Fatalf("OpenBolt of a corrupt file: %v, want ErrInvalidFile", err)
		}
		return
	}
	defer s2.Close()
	if err := s2.(*store.Bolt).Check(context.Background()); !errors.Is(err, store.ErrInvalidFile) {
		t.Errorf("Check of a corrupt file: %v, want ErrInvalidFile", err)
	}
}

// BenchmarkBolt measures a file with the default options: each Update
// waits for fsync.
func BenchmarkBolt(b *testing.B) {
	storetest.RunBenchmarks(b, func(b *testing.B) store.Store {
		s, err := store.OpenBolt(filepath.Join(b.TempDir(), "bench.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = s.Close() })
		return s
	})
}
