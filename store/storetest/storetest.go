// Package storetest is the conformance suite every implementation of
// [store.Store] must pass, so that code tested on one runs unchanged on
// another.
//
// An implementation's test calls [Run] with a constructor of fresh, empty
// stores (and, when it keeps its data in files, [RunPersistent] with an
// opener of paths), and its benchmarks call [RunBenchmarks]:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s := store.NewMemory()
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vokter-go/vokter/store"
)

// errBoom is the error the suite's transactions fail with on purpose.
var errBoom = errors.New("storetest: boom")

// Run runs the conformance suite against the stores newStore returns. Each
// named subtest gets a fresh, empty store and runs in parallel with the
// others. newStore should arrange for the store to be closed when the test
// ends (t.Cleanup); the suite closes some stores itself, so Close must be
// safe to call twice.
//
// Beyond store.Store's documentation the suite requires:
//   - Get and Delete of a key that cannot exist (empty, too large) report
//     ErrNotFound and nil, as for any missing key; Bucket and DeleteBucket
//     of an empty name report ErrBucketNotFound;
//   - CreateBucket and CreateBucketIfNotExists reject a name longer than
//     MaxKeySize with ErrKeyTooLarge;
//   - in a writable transaction a Scan or ForEachBucket callback may change
//     the bucket (delete or replace the key it was given): the iteration
//     continues after the last key visited;
//   - a reader started inside a writer's function neither waits for the
//     writer nor sees its uncommitted writes;
//   - Tx and Bucket methods called after the transaction's function
//     returned fail with ErrTxClosed;
//   - View, Update and Batch with a done context return ctx.Err() (wrapped
//     or not) without calling fn;
//   - an Update waiting for another writer returns ctx.Err() as soon as
//     ctx is done, and a Batch whose ctx is done before its turn comes
//     returns ctx.Err() without calling fn: nothing is written after a
//     caller gave up.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CRUD", testCRUD},
		{"MissingBucket", testMissingBucket},
		{"Ordering", testOrdering},
		{"ScanOptions", testScanOptions},
		{"ScanModel", testScanModel},
		{"ScanManyKeys", testScanManyKeys},
		{"ScanStop", testScanStop},
		{"ScanModify", testScanModify},
		{"NestedBuckets", testNestedBuckets},
		{"ForEachBucket", testForEachBucket},
		{"BucketErrors", testBucketErrors},
		{"KeyValueLimits", testKeyValueLimits},
		{"ReadOnlyTx", testReadOnlyTx},
		{"Rollback", testRollback},
		{"RollbackOnPanic", testRollbackOnPanic},
		{"Copies", testCopies},
		{"NextSequence", testNextSequence},
		{"Isolation", testIsolation},
		{"Concurrent", testConcurrent},
		{"ContextDone", testContextDone},
		{"ContextWhileWaiting", testContextWhileWaiting},
		{"TxClosed", testTxClosed},
		{"Closed", testClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, newStore(t))
		})
	}
}

// update runs fn in Update and fails the test on error.
func update(t testing.TB, s store.Store, fn func(store.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("Update: %v", err)
	}
}

// view runs fn in View and fails the test on error.
func view(t testing.TB, s store.Store, fn func(store.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("View: %v", err)
	}
}

// is fails the test unless err matches want (nil means no error).
func is(t testing.TB, what string, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s: error %v, want %v", what, err, want)
	}
}

// fill creates bucket name holding the given key/value pairs.
func fill(t testing.TB, s store.Store, name string, kv ...string) {
	t.Helper()
	update(t, s, func(tx store.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte(name))
		if err != nil {
			return err
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if err := b.Put([]byte(kv[i]), []byte(kv[i+1])); err != nil {
				return fmt.Errorf("put %q: %w", kv[i], err)
			}
		}
		return nil
	})
}

// scan returns the keys (and values, as "key=value") Scan visits.
func scan(b store.Bucket, opts store.ScanOptions) ([]string, error) {
	var got []string
	err := b.Scan(opts, func(k, v []byte) error {
		got = append(got, string(k)+"="+string(v))
		return nil
	})
	return got, err
}

// scanKeys returns the keys Scan visits.
func scanKeys(b store.Bucket, opts store.ScanOptions) ([]string, error) {
	var got []string
	err := b.Scan(opts, func(k, _ []byte) error {
		got = append(got, string(k))
		return nil
	})
	return got, err
}

// dump describes everything under the named top-level buckets, one line per
// value, bucket and sequence, in order.
func dump(t testing.TB, s store.Store, names ...string) []string {
	t.Helper()
	var out []string
	var walk func(path string, b store.Bucket) error
	walk = func(path string, b store.Bucket) error {
		if err := b.Scan(store.ScanOptions{}, func(k, v []byte) error {
			out = append(out, fmt.Sprintf("%s/%q=%q", path, k, v))
			return nil
		}); err != nil {
			return err
		}
		return b.ForEachBucket(func(name []byte) error {
			child, err := b.Bucket(name)
			if err != nil {
				return err
			}
			out = append(out, fmt.Sprintf("%s/%q/", path, name))
			return walk(fmt.Sprintf("%s/%q", path, name), child)
		})
	}
	view(t, s, func(tx store.Tx) error {
		for _, name := range names {
			b, err := tx.Bucket([]byte(name))
			if errors.Is(err, store.ErrBucketNotFound) {
				out = append(out, name+" missing")
				continue
			}
			if err != nil {
				return err
			}
			if err := walk(name, b); err != nil {
				return err
			}
		}
		return nil
	})
	return out
}

func testCRUD(t *testing.T, s store.Store) {
	update(t, s, func(tx store.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		is(t, "put k1", b.Put([]byte("k1"), []byte("v1")), nil)
		is(t, "put k2", b.Put([]byte("k2"), []byte("v2")), nil)
		is(t, "put empty", b.Put([]byte("empty"), []byte{}), nil)
		if got, err := b.Get([]byte("k1")); err != nil || string(got) != "v1" {
			t.Errorf("Get k1 in the writing tx = %q, %v; want v1", got, err)
		}
		is(t, "overwrite k1", b.Put([]byte("k1"), []byte("v1b")), nil)
		is(t, "delete k2", b.Delete([]byte("k2")), nil)
		is(t, "delete missing", b.Delete([]byte("missing")), nil)
		_, err = b.Get([]byte("k2"))
		is(t, "get deleted", err, store.ErrNotFound)
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		if got, err := b.Get([]byte("k1")); err != nil || string(got) != "v1b" {
			t.Errorf("Get k1 = %q, %v; want v1b", got, err)
		}
		if got, err := b.Get([]byte("empty")); err != nil || got == nil || len(got) != 0 {
			t.Errorf("Get empty = %#v, %v; want an empty, non-nil value", got, err)
		}
		for _, key := range []string{"k2", "missing", "k", "k11", ""} {
			got, err := b.Get([]byte(key))
			is(t, fmt.Sprintf("Get %q", key), err, store.ErrNotFound)
			if got != nil {
				t.Errorf("Get %q = %q with ErrNotFound, want nil", key, got)
			}
		}
		_, err = b.Get(bytes.Repeat([]byte("k"), store.MaxKeySize+1))
		is(t, "Get of a too large key", err, store.ErrNotFound)
		got, err := scan(b, store.ScanOptions{})
		if want := []string{"empty=", "k1=v1b"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Scan = %q, %v; want %q", got, err, want)
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		is(t, "delete empty key", b.Delete(nil), nil)
		return nil
	})
}

func testMissingBucket(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v")
	update(t, s, func(tx store.Tx) error {
		_, err := tx.Bucket([]byte("nope"))
		is(t, "tx.Bucket", err, store.ErrBucketNotFound)
		_, err = tx.Bucket(nil)
		is(t, "tx.Bucket(nil)", err, store.ErrBucketNotFound)
		is(t, "tx.DeleteBucket", tx.DeleteBucket([]byte("nope")), store.ErrBucketNotFound)
		is(t, "tx.DeleteBucket(nil)", tx.DeleteBucket(nil), store.ErrBucketNotFound)
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		_, err = b.Bucket([]byte("nope"))
		is(t, "Bucket.Bucket", err, store.ErrBucketNotFound)
		is(t, "Bucket.DeleteBucket", b.DeleteBucket([]byte("nope")), store.ErrBucketNotFound)
		return nil
	})
}

// binaryKeys are keys whose bytewise order differs from what a string or
// signed-byte comparison would give.
var binaryKeys = []string{
	"\x00", "\x00\x00", "\x00\x01", "\x01", "\x7f", "\x80", "\xfe", "\xff", "\xff\x00", "\xff\xff",
	"A", "Z", "a", "a\x00", "ab", "b", "ba", "\u00e9", "\u4e16",
}

func testOrdering(t *testing.T, s store.Store) {
	keys := slices.Clone(binaryKeys)
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	// Two transactions, so that order holds across commits too.
	for _, half := range [][]string{keys[:len(keys)/2], keys[len(keys)/2:]} {
		var kv []string
		for _, k := range half {
			kv = append(kv, k, "v")
		}
		fill(t, s, "b", kv...)
	}
	want := slices.Clone(binaryKeys)
	slices.SortFunc(want, strings.Compare) // Go compares strings bytewise
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		got, err := scanKeys(b, store.ScanOptions{})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Scan = %q, %v\nwant %q", got, err, want)
		}
		got, err = scanKeys(b, store.ScanOptions{Reverse: true})
		slices.Reverse(want)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("reverse Scan = %q, %v\nwant %q", got, err, want)
		}
		return nil
	})
}

func testScanOptions(t *testing.T, s store.Store) {
	fill(t, s, "b", "a", "1", "ab", "2", "abc", "3", "abd", "4", "ac", "5", "b", "6", "ba", "7",
		"\xff", "8", "\xff\x00", "9", "\xff\xff", "10", "\xff\xff\x01", "11")
	// A nested bucket among the keys must be skipped, not end the scan.
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		_, err = b.CreateBucket([]byte("abcz"))
		return err
	})
	all := []string{"a", "ab", "abc", "abd", "ac", "b", "ba", "\xff", "\xff\x00", "\xff\xff", "\xff\xff\x01"}
	rev := slices.Clone(all)
	slices.Reverse(rev)
	tests := []struct {
		name string
		opts store.ScanOptions
		want []string
	}{
		{"all", store.ScanOptions{}, all},
		{"all reverse", store.ScanOptions{Reverse: true}, rev},
		{"empty not nil", store.ScanOptions{Prefix: []byte{}, Start: []byte{}}, all},
		{"prefix", store.ScanOptions{Prefix: []byte("ab")}, []string{"ab", "abc", "abd"}},
		{"prefix reverse", store.ScanOptions{Prefix: []byte("ab"), Reverse: true}, []string{"abd", "abc", "ab"}},
		{"prefix missing", store.ScanOptions{Prefix: []byte("abe")}, nil},
		{"prefix missing reverse", store.ScanOptions{Prefix: []byte("abe"), Reverse: true}, nil},
		{"prefix past end", store.ScanOptions{Prefix: []byte("x")}, nil},
		{"prefix 0xff", store.ScanOptions{Prefix: []byte("\xff")}, []string{"\xff", "\xff\x00", "\xff\xff", "\xff\xff\x01"}},
		{"prefix 0xff reverse", store.ScanOptions{Prefix: []byte("\xff"), Reverse: true}, []string{"\xff\xff\x01", "\xff\xff", "\xff\x00", "\xff"}},
		{"prefix 0xffff reverse", store.ScanOptions{Prefix: []byte("\xff\xff"), Reverse: true}, []string{"\xff\xff\x01", "\xff\xff"}},
		{"start", store.ScanOptions{Start: []byte("abc")}, all[2:]},
		{"start reverse", store.ScanOptions{Start: []byte("abc"), Reverse: true}, []string{"abc", "ab", "a"}},
		{"start between keys", store.ScanOptions{Start: []byte("abb")}, all[2:]},
		{"start between keys reverse", store.ScanOptions{Start: []byte("abb"), Reverse: true}, []string{"ab", "a"}},
		{"start before first", store.ScanOptions{Start: []byte("\x00")}, all},
		{"start before first reverse", store.ScanOptions{Start: []byte("\x00"), Reverse: true}, nil},
		{"start past last", store.ScanOptions{Start: []byte("\xff\xff\xff")}, nil},
		{"start past last reverse", store.ScanOptions{Start: []byte("\xff\xff\xff"), Reverse: true}, rev},
		{"prefix and start", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("abc")}, []string{"abc", "abd"}},
		{"prefix and start reverse", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("abc"), Reverse: true}, []string{"abc", "ab"}},
		{"start before prefix", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("aa")}, []string{"ab", "abc", "abd"}},
		{"start before prefix reverse", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("aa"), Reverse: true}, nil},
		{"start after prefix", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("b")}, nil},
		{"start after prefix reverse", store.ScanOptions{Prefix: []byte("ab"), Start: []byte("b"), Reverse: true}, []string{"abd", "abc", "ab"}},
		{"start is bucket", store.ScanOptions{Start: []byte("abcz")}, all[3:]},
		{"start is bucket reverse", store.ScanOptions{Start: []byte("abcz"), Reverse: true}, []string{"abc", "ab", "a"}},
	}
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, tt := range tests {
			got, err := scanKeys(b, tt.opts)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("%s: Scan(%s) = %q, %v; want %q", tt.name, describe(tt.opts), got, err, tt.want)
			}
		}
		return nil
	})
}

// describe formats opts for test messages.
func describe(opts store.ScanOptions) string {
	return fmt.Sprintf("{Prefix: %q, Start: %q, Reverse: %v}", opts.Prefix, opts.Start, opts.Reverse)
}

// modelScan is what Scan must return for sorted keys.
func modelScan(sorted []string, opts store.ScanOptions) []string {
	var out []string
	for i := range sorted {
		k := sorted[i]
		if opts.Reverse {
			k = sorted[len(sorted)-1-i]
		}
		if !strings.HasPrefix(k, string(opts.Prefix)) || len(opts.Start) > 0 &&
			(!opts.Reverse && k < string(opts.Start) || opts.Reverse && k > string(opts.Start)) {
			continue
		}
		out = append(out, k)
	}
	return out
}

// testScanModel compares random scans with modelScan, in a read and in a
// writable transaction.
func testScanModel(t *testing.T, s store.Store) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{0x00, 'a', 'b', 0xff}
	word := func(maxLen int) []byte {
		w := make([]byte, rng.IntN(maxLen+1))
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return w
	}
	set := map[string]bool{}
	for len(set) < 150 {
		if w := word(4); len(w) > 0 {
			set[string(w)] = true
		}
	}
	var kv []string
	for k := range set {
		kv = append(kv, k, "v")
	}
	fill(t, s, "b", kv...)
	sorted := slices.Sorted(func(yield func(string) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
	check := func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for range 200 {
			opts := store.ScanOptions{Prefix: word(2), Start: word(3), Reverse: rng.IntN(2) == 0}
			got, err := scanKeys(b, opts)
			if want := modelScan(sorted, opts); err != nil || !slices.Equal(got, want) {
				t.Fatalf("Scan(%s) = %q, %v\nwant %q", describe(opts), got, err, want)
			}
		}
		return nil
	}
	view(t, s, check)
	update(t, s, check)
}

func testScanManyKeys(t *testing.T, s store.Store) {
	const n = 3000
	key := func(i int) string { return fmt.Sprintf("k%05d", i) }
	for lo := 0; lo < n; lo += 1000 {
		update(t, s, func(tx store.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			for i := lo; i < lo+1000; i++ {
				if err := b.Put([]byte(key(i)), bytes.Repeat([]byte{byte(i)}, i%300)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for i := 0; i < n; i += 2 {
			if err := b.Delete([]byte(key(i))); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		i := 1
		err = b.Scan(store.ScanOptions{}, func(k, v []byte) error {
			if string(k) != key(i) || !bytes.Equal(v, bytes.Repeat([]byte{byte(i)}, i%300)) {
				return fmt.Errorf("got %q (%d bytes), want %q", k, len(v), key(i))
			}
			i += 2
			return nil
		})
		if err != nil || i != n+1 {
			t.Errorf("Scan: %v, stopped before %d, want %d", err, i, n+1)
		}
		i = 1499
		err = b.Scan(store.ScanOptions{Reverse: true, Prefix: []byte("k01"), Start: []byte("k01500")}, func(k, _ []byte) error {
			if string(k) != key(i) {
				return fmt.Errorf("got %q, want %q", k, key(i))
			}
			i -= 2
			return nil
		})
		if err != nil || i != 999 {
			t.Errorf("reverse Scan with prefix and start: %v, stopped above %d, want 999", err, i)
		}
		return nil
	})
}

func testScanStop(t *testing.T, s store.Store) {
	fill(t, s, "b", "a", "1", "b", "2", "c", "3", "d", "4")
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, name := range []string{"x", "y", "z"} {
			if _, err := b.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	})
	tests := []struct {
		name    string
		ret     error
		wantErr error
	}{
		{"ErrStop", store.ErrStop, nil},
		{"other error", errBoom, errBoom},
	}
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, tt := range tests {
			calls := 0
			err := b.Scan(store.ScanOptions{}, func(k, v []byte) error {
				if calls++; calls == 2 {
					return tt.ret
				}
				return nil
			})
			is(t, "Scan "+tt.name, err, tt.wantErr)
			if calls != 2 {
				t.Errorf("Scan %s: %d calls, want 2", tt.name, calls)
			}
			calls = 0
			err = b.ForEachBucket(func(name []byte) error {
				if calls++; calls == 2 {
					return tt.ret
				}
				return nil
			})
			is(t, "ForEachBucket "+tt.name, err, tt.wantErr)
			if calls != 2 {
				t.Errorf("ForEachBucket %s: %d calls, want 2", tt.name, calls)
			}
		}
		return nil
	})
}

// testScanModify changes the bucket from inside Scan and ForEachBucket
// callbacks in a writable transaction.
func testScanModify(t *testing.T, s store.Store) {
	keys := []string{"a", "b", "c", "d", "e", "f"}
	for _, reverse := range []bool{false, true} {
		name := fmt.Sprintf("reverse=%v", reverse)
		var kv []string
		for _, k := range keys {
			kv = append(kv, k, "old")
		}
		fill(t, s, name, kv...)
		update(t, s, func(tx store.Tx) error {
			b, err := tx.Bucket([]byte(name))
			if err != nil {
				return err
			}
			for _, sub := range []string{"s1", "s2", "s3"} {
				if _, err := b.CreateBucket([]byte(sub)); err != nil {
					return err
				}
			}
			var seen []string
			err = b.Scan(store.ScanOptions{Reverse: reverse}, func(k, v []byte) error {
				seen = append(seen, string(k))
				if string(k) < "d" {
					return b.Delete(k)
				}
				return b.Put(k, []byte("new"))
			})
			want := slices.Clone(keys)
			if reverse {
				slices.Reverse(want)
			}
			if err != nil || !slices.Equal(seen, want) {
				t.Errorf("%s: Scan deleting and replacing visited %q, %v; want %q", name, seen, err, want)
			}
			var names []string
			err = b.ForEachBucket(func(n []byte) error {
				names = append(names, string(n))
				return b.DeleteBucket(n)
			})
			if want := []string{"s1", "s2", "s3"}; err != nil || !slices.Equal(names, want) {
				t.Errorf("%s: ForEachBucket deleting visited %q, %v; want %q", name, names, err, want)
			}
			return nil
		})
		got := dump(t, s, name)
		want := []string{name + `/"d"="new"`, name + `/"e"="new"`, name + `/"f"="new"`}
		if !slices.Equal(got, want) {
			t.Errorf("%s: after the scan the bucket holds %q, want %q", name, got, want)
		}
	}
}

func testNestedBuckets(t *testing.T, s store.Store) {
	update(t, s, func(tx store.Tx) error {
		a, err := tx.CreateBucket([]byte("a"))
		if err != nil {
			return err
		}
		b, err := a.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		c, err := b.CreateBucket([]byte("c"))
		if err != nil {
			return err
		}
		other, err := tx.CreateBucket([]byte("other"))
		if err != nil {
			return err
		}
		otherB, err := other.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, put := range []struct {
			b    store.Bucket
			k, v string
		}{{a, "x", "ax"}, {a, "z", "az"}, {b, "x", "bx"}, {c, "x", "cx"}, {otherB, "x", "other"}} {
			if err := put.b.Put([]byte(put.k), []byte(put.v)); err != nil {
				return err
			}
		}
		if _, err := a.NextSequence(); err != nil {
			return err
		}
		return nil
	})
	want := []string{`a/"x"="ax"`, `a/"z"="az"`, `a/"b"/`, `a/"b"/"x"="bx"`, `a/"b"/"c"/`, `a/"b"/"c"/"x"="cx"`,
		`other/"b"/`, `other/"b"/"x"="other"`}
	if got := dump(t, s, "a", "other"); !slices.Equal(got, want) {
		t.Errorf("store holds\n%q\nwant\n%q", got, want)
	}
	update(t, s, func(tx store.Tx) error {
		a, err := tx.Bucket([]byte("a"))
		if err != nil {
			return err
		}
		_, err = a.Get([]byte("b"))
		is(t, "Get of a bucket's name", err, store.ErrNotFound)
		is(t, "Put at a bucket's name", a.Put([]byte("b"), []byte("v")), store.ErrIncompatibleValue)
		is(t, "Delete of a bucket's name", a.Delete([]byte("b")), store.ErrIncompatibleValue)
		_, err = a.CreateBucket([]byte("x"))
		is(t, "CreateBucket at a value's key", err, store.ErrIncompatibleValue)
		_, err = a.CreateBucketIfNotExists([]byte("x"))
		is(t, "CreateBucketIfNotExists at a value's key", err, store.ErrIncompatibleValue)
		is(t, "DeleteBucket of a value's key", a.DeleteBucket([]byte("x")), store.ErrIncompatibleValue)
		_, err = a.Bucket([]byte("x"))
		is(t, "Bucket of a value's key", err, store.ErrBucketNotFound)
		return tx.DeleteBucket([]byte("a"))
	})
	if got, want := dump(t, s, "a", "other"), []string{"a missing", `other/"b"/`, `other/"b"/"x"="other"`}; !slices.Equal(got, want) {
		t.Errorf("after DeleteBucket the store holds %q, want %q", got, want)
	}
	// A bucket created again starts empty, with a new sequence.
	update(t, s, func(tx store.Tx) error {
		a, err := tx.CreateBucket([]byte("a"))
		if err != nil {
			return err
		}
		if _, err := a.Bucket([]byte("b")); !errors.Is(err, store.ErrBucketNotFound) {
			t.Errorf("re-created bucket still has its old nested bucket (%v)", err)
		}
		if n, err := a.NextSequence(); n != 1 || err != nil {
			t.Errorf("NextSequence of a re-created bucket = %d, %v; want 1", n, err)
		}
		return nil
	})
}

func testForEachBucket(t *testing.T, s store.Store) {
	names := slices.Clone(binaryKeys)
	rng := rand.New(rand.NewPCG(5, 6))
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	update(t, s, func(tx store.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		var empty []string
		err = b.ForEachBucket(func(name []byte) error {
			empty = append(empty, string(name))
			return nil
		})
		if err != nil || empty != nil {
			t.Errorf("ForEachBucket of an empty bucket = %q, %v; want nothing", empty, err)
		}
		for _, name := range names {
			if _, err := b.CreateBucket([]byte(name)); err != nil {
				return err
			}
			// Values among the buckets must be skipped.
			if err := b.Put([]byte(name+"v"), []byte("v")); err != nil {
				return err
			}
		}
		return nil
	})
	want := slices.Clone(binaryKeys)
	slices.Sort(want)
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		var got []string
		err = b.ForEachBucket(func(name []byte) error {
			got = append(got, string(name))
			return nil
		})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ForEachBucket = %q, %v\nwant %q", got, err, want)
		}
		return nil
	})
}

func testBucketErrors(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v")
	update(t, s, func(tx store.Tx) error {
		nested, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		if _, err := nested.CreateBucket([]byte("n")); err != nil {
			return err
		}
		type creator struct {
			name                    string
			create, createIfMissing func([]byte) (store.Bucket, error)
		}
		for _, c := range []creator{
			{"Tx", tx.CreateBucket, tx.CreateBucketIfNotExists},
			{"Bucket", nested.CreateBucket, nested.CreateBucketIfNotExists},
		} {
			existing := "b"
			if c.name == "Bucket" {
				existing = "n"
			}
			_, err := c.create([]byte(existing))
			is(t, c.name+".CreateBucket of an existing bucket", err, store.ErrBucketExists)
			for _, name := range [][]byte{nil, {}} {
				_, err = c.create(name)
				is(t, fmt.Sprintf("%s.CreateBucket(%#v)", c.name, name), err, store.ErrBucketNameRequired)
				_, err = c.createIfMissing(name)
				is(t, fmt.Sprintf("%s.CreateBucketIfNotExists(%#v)", c.name, name), err, store.ErrBucketNameRequired)
			}
			long := bytes.Repeat([]byte("n"), store.MaxKeySize+1)
			_, err = c.create(long)
			is(t, c.name+".CreateBucket of a too long name", err, store.ErrKeyTooLarge)
			_, err = c.createIfMissing(long)
			is(t, c.name+".CreateBucketIfNotExists of a too long name", err, store.ErrKeyTooLarge)
			if _, err := c.create(long[:store.MaxKeySize]); err != nil {
				t.Errorf("%s.CreateBucket with a name of MaxKeySize: %v", c.name, err)
			}
		}
		again, err := tx.CreateBucketIfNotExists([]byte("b"))
		if err != nil {
			return err
		}
		if v, err := again.Get([]byte("k")); err != nil || string(v) != "v" {
			t.Errorf("CreateBucketIfNotExists of an existing bucket: Get = %q, %v; want its value", v, err)
		}
		return nil
	})
}

func testKeyValueLimits(t *testing.T, s store.Store) {
	maxKey := bytes.Repeat([]byte("k"), store.MaxKeySize)
	tests := []struct {
		name       string
		key, value []byte
		want       error
	}{
		{"nil key", nil, []byte("v"), store.ErrKeyRequired},
		{"empty key", []byte{}, []byte("v"), store.ErrKeyRequired},
		{"key too large", bytes.Repeat([]byte("k"), store.MaxKeySize+1), []byte("v"), store.ErrKeyTooLarge},
		{"nil value", []byte("k"), nil, store.ErrValueNil},
		{"largest key", maxKey, []byte("v"), nil},
		{"empty value", []byte("e"), []byte{}, nil},
		{"large value", []byte("l"), bytes.Repeat([]byte("0123456789abcdef"), 1<<16), nil},
		{"binary key", []byte{0, 0xff, 0}, []byte{0}, nil},
	}
	update(t, s, func(tx store.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, tt := range tests {
			is(t, "Put "+tt.name, b.Put(tt.key, tt.value), tt.want)
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		for _, tt := range tests {
			got, err := b.Get(tt.key)
			switch {
			case tt.want == nil && (err != nil || !bytes.Equal(got, tt.value)):
				t.Errorf("Get %s = %d bytes, %v; want the %d bytes put", tt.name, len(got), err, len(tt.value))
			case tt.want != nil && tt.name != "nil value" && !errors.Is(err, store.ErrNotFound):
				t.Errorf("Get %s after a failed Put: %v, want ErrNotFound", tt.name, err)
			}
		}
		if _, err := b.Get([]byte("k")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a Put of a nil value stored something (%v)", err)
		}
		return nil
	})
}

func testReadOnlyTx(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v")
	update(t, s, func(tx store.Tx) error {
		if !tx.Writable() {
			t.Error("Writable() = false in Update")
		}
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		_, err = b.CreateBucket([]byte("n"))
		return err
	})
	view(t, s, func(tx store.Tx) error {
		if tx.Writable() {
			t.Error("Writable() = true in View")
		}
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		seq := func() error { _, err := b.NextSequence(); return err }
		create := func(f func([]byte) (store.Bucket, error), name string) func() error {
			return func() error { _, err := f([]byte(name)); return err }
		}
		for _, w := range []struct {
			name string
			fn   func() error
		}{
			{"Put", func() error { return b.Put([]byte("k"), []byte("w")) }},
			{"Put new", func() error { return b.Put([]byte("new"), []byte("w")) }},
			{"Delete", func() error { return b.Delete([]byte("k")) }},
			{"NextSequence", seq},
			{"Bucket.CreateBucket", create(b.CreateBucket, "m")},
			{"Bucket.CreateBucketIfNotExists new", create(b.CreateBucketIfNotExists, "m")},
			{"Bucket.CreateBucketIfNotExists existing", create(b.CreateBucketIfNotExists, "n")},
			{"Bucket.DeleteBucket", func() error { return b.DeleteBucket([]byte("n")) }},
			{"Tx.CreateBucket", create(tx.CreateBucket, "c")},
			{"Tx.CreateBucketIfNotExists existing", create(tx.CreateBucketIfNotExists, "b")},
			{"Tx.DeleteBucket", func() error { return tx.DeleteBucket([]byte("b")) }},
		} {
			is(t, w.name+" in View", w.fn(), store.ErrTxNotWritable)
		}
		return nil
	})
	if got, want := dump(t, s, "b"), []string{`b/"k"="v"`, `b/"n"/`}; !slices.Equal(got, want) {
		t.Errorf("after writes in View the store holds %q, want %q", got, want)
	}
}

// seedRollback fills the store for the rollback tests and returns its dump.
func seedRollback(t *testing.T, s store.Store) []string {
	t.Helper()
	fill(t, s, "keep", "k", "v1", "gone", "x")
	fill(t, s, "doomed", "d", "v")
	update(t, s, func(tx store.Tx) error {
		keep, err := tx.Bucket([]byte("keep"))
		if err != nil {
			return err
		}
		sub, err := keep.CreateBucket([]byte("sub"))
		if err != nil {
			return err
		}
		if err := sub.Put([]byte("s"), []byte("v")); err != nil {
			return err
		}
		_, err = keep.NextSequence()
		return err
	})
	return dump(t, s, "keep", "doomed", "created")
}

// spoil makes every kind of change; the caller then fails the transaction.
func spoil(tx store.Tx) error {
	keep, err := tx.Bucket([]byte("keep"))
	if err != nil {
		return err
	}
	steps := []func() error{
		func() error { return keep.Put([]byte("k"), []byte("v2")) },
		func() error { return keep.Put([]byte("new"), []byte("x")) },
		func() error { return keep.Delete([]byte("gone")) },
		func() error { _, err := keep.NextSequence(); return err },
		func() error { return keep.DeleteBucket([]byte("sub")) },
		func() error { _, err := keep.CreateBucket([]byte("newsub")); return err },
		func() error { return tx.DeleteBucket([]byte("doomed")) },
		func() error {
			b, err := tx.CreateBucket([]byte("created"))
			if err != nil {
				return err
			}
			return b.Put([]byte("c"), []byte("v"))
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func testRollback(t *testing.T, s store.Store) {
	before := seedRollback(t, s)
	for _, method := range []struct {
		name string
		run  func(context.Context, func(store.Tx) error) error
	}{{"Update", s.Update}, {"Batch", s.Batch}} {
		err := method.run(context.Background(), func(tx store.Tx) error {
			if err := spoil(tx); err != nil {
				t.Errorf("%s: %v", method.name, err)
			}
			return fmt.Errorf("failing on purpose: %w", errBoom)
		})
		is(t, method.name+" with a failing function", err, errBoom)
		if after := dump(t, s, "keep", "doomed", "created"); !slices.Equal(after, before) {
			t.Errorf("%s rolled back to\n%q\nwant\n%q", method.name, after, before)
		}
	}
	update(t, s, func(tx store.Tx) error {
		keep, err := tx.Bucket([]byte("keep"))
		if err != nil {
			return err
		}
		if n, err := keep.NextSequence(); n != 2 || err != nil {
			t.Errorf("NextSequence after rollbacks = %d, %v; want 2", n, err)
		}
		return nil
	})
}

func testRollbackOnPanic(t *testing.T, s store.Store) {
	before := seedRollback(t, s)
	func() {
		defer func() {
			if r := recover(); r != errBoom {
				t.Errorf("recovered %v, want the function's panic", r)
			}
		}()
		_ = s.Update(context.Background(), func(tx store.Tx) error {
			if err := spoil(tx); err != nil {
				t.Error(err)
			}
			panic(errBoom)
		})
	}()
	if after := dump(t, s, "keep", "doomed", "created"); !slices.Equal(after, before) {
		t.Errorf("a panicking Update left\n%q\nwant\n%q", after, before)
	}
	// The store must still take writers.
	fill(t, s, "keep", "after", "panic")
}

func testCopies(t *testing.T, s store.Store) {
	key, value := []byte("key"), []byte("value")
	update(t, s, func(tx store.Tx) error {
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		if err := b.Put(key, value); err != nil {
			return err
		}
		value[0], key[0] = 'X', 'X'
		got, err := b.Get([]byte("key"))
		if err != nil || string(got) != "value" {
			t.Errorf("after changing the slices given to Put, Get = %q, %v; want value", got, err)
		}
		got[0] = 'Y'
		if again, _ := b.Get([]byte("key")); string(again) != "value" {
			t.Errorf("changing the slice Get returned changed the stored value to %q", again)
		}
		return b.Put([]byte("other"), []byte("o"))
	})
	value[1] = 'Z'
	var kept []string
	var keptK, keptV [][]byte
	view(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		return b.Scan(store.ScanOptions{}, func(k, v []byte) error {
			kept = append(kept, string(k)+"="+string(v))
			keptK, keptV = append(keptK, k), append(keptV, v)
			// Appending to the key must not write into the value.
			before := string(v)
			if k2 := append(k, "!!!!"...); string(v) != before || string(k2[:len(k)]) != string(k) {
				t.Errorf("appending to the key changed the value to %q", v)
			}
			k[0] = 'Q'
			if len(v) > 0 {
				v[0] = 'Q'
			}
			return nil
		})
	})
	if want := []string{"key=value", "other=o"}; !slices.Equal(kept, want) {
		t.Fatalf("Scan visited %q, want %q", kept, want)
	}
	// Overwrite the store, then look at what the Scan handed out.
	fill(t, s, "b", "key", strings.Repeat("n", 5), "other", "N")
	for i, want := range []string{"Qey=Qalue", "Qther=Q"} {
		if got := string(keptK[i]) + "=" + string(keptV[i]); got != want {
			t.Errorf("kept pair %d = %q, want %q", i, got, want)
		}
	}
	if got, want := dump(t, s, "b"), []string{`b/"key"="nnnnn"`, `b/"other"="N"`}; !slices.Equal(got, want) {
		t.Errorf("store holds %q, want %q", got, want)
	}
}

func testNextSequence(t *testing.T, s store.Store) {
	update(t, s, func(tx store.Tx) error {
		a, err := tx.CreateBucket([]byte("a"))
		if err != nil {
			return err
		}
		for want := uint64(1); want <= 3; want++ {
			if n, err := a.NextSequence(); n != want || err != nil {
				t.Errorf("NextSequence = %d, %v; want %d", n, err, want)
			}
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		a, err := tx.Bucket([]byte("a"))
		if err != nil {
			return err
		}
		b, err := tx.CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		nested, err := a.CreateBucket([]byte("n"))
		if err != nil {
			return err
		}
		for _, c := range []struct {
			name string
			b    store.Bucket
			want uint64
		}{{"a", a, 4}, {"b", b, 1}, {"a/n", nested, 1}, {"a", a, 5}} {
			if n, err := c.b.NextSequence(); n != c.want || err != nil {
				t.Errorf("%s.NextSequence = %d, %v; want %d", c.name, n, err, c.want)
			}
		}
		return nil
	})
}

// testIsolation reads from inside a writer's function: the reader must not
// wait for the writer, nor see what it has not committed.
func testIsolation(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v1")
	ctx := context.Background()
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("b"))
		if err != nil {
			return err
		}
		if err := b.Put([]byte("k"), []byte("v2")); err != nil {
			return err
		}
		if err := b.Put([]byte("new"), []byte("n")); err != nil {
			return err
		}
		got := make(chan string, 1)
		go func() {
			err := s.View(ctx, func(tx store.Tx) error {
				b, err := tx.Bucket([]byte("b"))
				if err != nil {
					return err
				}
				keys, err := scan(b, store.ScanOptions{})
				got <- strings.Join(keys, ",")
				return err
			})
			if err != nil {
				t.Errorf("View during Update: %v", err)
			}
		}()
		select {
		case keys := <-got:
			if keys != "k=v1" {
				t.Errorf("a reader during a writer saw %q, want k=v1", keys)
			}
		case <-time.After(10 * time.Second):
			t.Error("a reader waited for a writer")
		}
		return nil
	})
	if got, want := dump(t, s, "b"), []string{`b/"k"="v2"`, `b/"new"="n"`}; !slices.Equal(got, want) {
		t.Errorf("after the commit the store holds %q, want %q", got, want)
	}
}

// testConcurrent runs writers that increment two counters in each
// transaction (via Update and Batch) and readers that check that they
// always see both counters equal.
func testConcurrent(t *testing.T, s store.Store) {
	const writers, rounds = 8, 15
	fill(t, s, "c", "a", "0", "b", "0")
	ctx := context.Background()
	increment := func(tx store.Tx) error {
		b, err := tx.Bucket([]byte("c"))
		if err != nil {
			return err
		}
		var n [2]int
		for i, k := range []string{"a", "b"} {
			v, err := b.Get([]byte(k))
			if err != nil {
				return err
			}
			if _, err := fmt.Sscan(string(v), &n[i]); err != nil {
				return err
			}
			if err := b.Put([]byte(k), []byte(fmt.Sprint(n[i]+1))); err != nil {
				return err
			}
		}
		if n[0] != n[1] {
			return fmt.Errorf("writer saw a=%d b=%d", n[0], n[1])
		}
		return nil
	}
	var wg, readers sync.WaitGroup
	done := make(chan struct{})
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				err := s.View(ctx, func(tx store.Tx) error {
					b, err := tx.Bucket([]byte("c"))
					if err != nil {
						return err
					}
					a, err1 := b.Get([]byte("a"))
					c, err2 := b.Get([]byte("b"))
					if err := errors.Join(err1, err2); err != nil {
						return err
					}
					if !bytes.Equal(a, c) {
						return fmt.Errorf("reader saw a=%s b=%s", a, c)
					}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range writers {
		wg.Go(func() {
			for range rounds {
				if err := s.Update(ctx, increment); err != nil {
					t.Errorf("Update: %v", err)
				}
				if err := s.Batch(ctx, increment); err != nil {
					t.Errorf("Batch: %v", err)
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	n := fmt.Sprint(writers * rounds * 2)
	if got, want := dump(t, s, "c"), []string{`c/"a"="` + n + `"`, `c/"b"="` + n + `"`}; !slices.Equal(got, want) {
		t.Errorf("counters %q, want %q (lost updates)", got, want)
	}
}

func testContextDone(t *testing.T, s store.Store) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{{"canceled", canceled, context.Canceled}, {"expired", expired, context.DeadlineExceeded}} {
		for _, m := range []struct {
			name string
			run  func(context.Context, func(store.Tx) error) error
		}{{"View", s.View}, {"Update", s.Update}, {"Batch", s.Batch}} {
			called := false
			err := m.run(c.ctx, func(store.Tx) error { called = true; return nil })
			is(t, m.name+" with a "+c.name+" context", err, c.want)
			if called {
				t.Errorf("%s with a %s context called fn", m.name, c.name)
			}
		}
	}
}

// watchedCtx is a context that signals when it is first looked at, so that
// a test knows a call got past its entry checks without sleeping.
type watchedCtx struct {
	context.Context
	once sync.Once
	seen chan struct{}
}

func watch(ctx context.Context) *watchedCtx {
	return &watchedCtx{Context: ctx, seen: make(chan struct{})}
}

func (c *watchedCtx) look()                 { c.once.Do(func() { close(c.seen) }) }
func (c *watchedCtx) Err() error            { c.look(); return c.Context.Err() }
func (c *watchedCtx) Done() <-chan struct{} { c.look(); return c.Context.Done() }

func testContextWhileWaiting(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "old")
	held, release := make(chan struct{}), make(chan struct{})
	writer := make(chan error, 1)
	go func() {
		writer <- s.Update(context.Background(), func(store.Tx) error {
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	released := sync.OnceFunc(func() { close(release) })
	defer func() {
		released()
		if err := <-writer; err != nil {
			t.Errorf("holding Update: %v", err)
		}
	}()

	// wait starts run behind the holding writer, cancels its context once
	// it is looked at, and returns the channel its result arrives on.
	wait := func(run func(context.Context, func(store.Tx) error) error, called *bool) <-chan error {
		ctx, cancel := context.WithCancel(context.Background())
		wctx := watch(ctx)
		done := make(chan error, 1)
		go func() {
			defer cancel()
			done <- run(wctx, func(tx store.Tx) error {
				*called = true
				b, err := tx.Bucket([]byte("b"))
				if err != nil {
					return err
				}
				return b.Put([]byte("k"), []byte("late"))
			})
		}()
		<-wctx.seen
		cancel()
		return done
	}

	var updateCalled bool
	done := wait(s.Update, &updateCalled)
	select {
	case err := <-done:
		is(t, "Update canceled while waiting for the writer", err, context.Canceled)
	case <-time.After(10 * time.Second):
		t.Error("Update still waits for the writer 10s after its context was canceled")
		released()
		<-done
	}
	if updateCalled {
		t.Error("Update called fn after its context was canceled")
	}

	var batchCalled bool
	done = wait(s.Batch, &batchCalled)
	released()
	is(t, "Batch canceled while waiting for the writer", <-done, context.Canceled)
	if batchCalled {
		t.Error("Batch called fn after its context was canceled")
	}
	if got, want := dump(t, s, "b"), []string{`b/"k"="old"`}; !slices.Equal(got, want) {
		t.Errorf("store holds %q, want %q", got, want)
	}
}

func testTxClosed(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v")
	for _, m := range []struct {
		name string
		run  func(context.Context, func(store.Tx) error) error
	}{{"View", s.View}, {"Update", s.Update}} {
		var (
			tx store.Tx
			b  store.Bucket
		)
		err := m.run(context.Background(), func(t store.Tx) (err error) {
			tx = t
			b, err = t.Bucket([]byte("b"))
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		_, err = b.Get([]byte("k"))
		is(t, m.name+": Get after the tx", err, store.ErrTxClosed)
		is(t, m.name+": Put after the tx", b.Put([]byte("k"), []byte("late")), store.ErrTxClosed)
		is(t, m.name+": Scan after the tx", b.Scan(store.ScanOptions{}, func(k, v []byte) error { return nil }), store.ErrTxClosed)
		_, err = b.Bucket([]byte("n"))
		is(t, m.name+": Bucket after the tx", err, store.ErrTxClosed)
		_, err = tx.Bucket([]byte("b"))
		is(t, m.name+": Tx.Bucket after the tx", err, store.ErrTxClosed)
	}
	if got, want := dump(t, s, "b"), []string{`b/"k"="v"`}; !slices.Equal(got, want) {
		t.Errorf("store holds %q, want %q", got, want)
	}
}

func testClosed(t *testing.T, s store.Store) {
	fill(t, s, "b", "k", "v")
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, m := range []struct {
		name string
		run  func(context.Context, func(store.Tx) error) error
	}{{"View", s.View}, {"Update", s.Update}, {"Batch", s.Batch}} {
		called := false
		err := m.run(context.Background(), func(store.Tx) error { called = true; return nil })
		is(t, m.name+" after Close", err, store.ErrClosed)
		if called {
			t.Errorf("%s after Close called fn", m.name)
		}
	}
	is(t, "second Close", s.Close(), nil)
}
