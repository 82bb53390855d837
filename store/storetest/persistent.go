package storetest

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vokter-go/vokter/store"
)

// RunPersistent runs the suite of stores kept in a file: what was committed
// before Close is there after reopening the same path, what was rolled back
// is not, and the reopened store takes new writes. open opens (creating
// when missing) the store at path; the suite picks paths under t.TempDir()
// and closes each store it opens, so open's own cleanup, if any, must
// tolerate a second Close. Run the suite of [Run] as well: RunPersistent
// checks only persistence.
func RunPersistent(t *testing.T, open func(t *testing.T, path string) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, reopen func() store.Store)
	}{
		{"Reopen", testReopen},
		{"ReopenEmpty", testReopenEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "store")
			tt.fn(t, func() store.Store { return open(t, path) })
		})
	}
}

// closeStore closes s and fails the test on error.
func closeStore(t testing.TB, s store.Store) {
	t.Helper()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// nextSequence returns the next sequence of bucket name.
func nextSequence(t testing.TB, s store.Store, name string) uint64 {
	t.Helper()
	var n uint64
	update(t, s, func(tx store.Tx) error {
		b, err := tx.Bucket([]byte(name))
		if err != nil {
			return err
		}
		n, err = b.NextSequence()
		return err
	})
	return n
}

func testReopen(t *testing.T, reopen func() store.Store) {
	s := reopen()
	fill(t, s, "a", "k1", "v1", "k2", "v2", "gone", "x")
	update(t, s, func(tx store.Tx) error {
		a, err := tx.Bucket([]byte("a"))
		if err != nil {
			return err
		}
		if err := a.Delete([]byte("gone")); err != nil {
			return err
		}
		n, err := a.CreateBucket([]byte("nested"))
		if err != nil {
			return err
		}
		if err := n.Put([]byte("deep"), []byte{}); err != nil {
			return err
		}
		if _, err := tx.CreateBucket([]byte("dropped")); err != nil {
			return err
		}
		return tx.DeleteBucket([]byte("dropped"))
	})
	if err := s.Batch(context.Background(), func(tx store.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("batch"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("batched"))
	}); err != nil {
		t.Fatalf("Batch: %v", err)
	}
	is(t, "rolled back Update", s.Update(context.Background(), func(tx store.Tx) error {
		a, err := tx.Bucket([]byte("a"))
		if err != nil {
			return err
		}
		if err := a.Put([]byte("k1"), []byte("rolled back")); err != nil {
			return err
		}
		if _, err := tx.CreateBucket([]byte("spoiled")); err != nil {
			return err
		}
		return errBoom
	}), errBoom)
	for want := uint64(1); want <= 3; want++ {
		if n := nextSequence(t, s, "a"); n != want {
			t.Fatalf("NextSequence = %d, want %d", n, want)
		}
	}
	want := dump(t, s, "a", "batch", "dropped", "spoiled")
	closeStore(t, s)

	s = reopen()
	if got := dump(t, s, "a", "batch", "dropped", "spoiled"); !slices.Equal(got, want) {
		t.Errorf("after reopening the store holds %q, want %q", got, want)
	}
	if n := nextSequence(t, s, "a"); n != 4 {
		t.Errorf("NextSequence after reopening = %d, want 4", n)
	}
	fill(t, s, "a", "k3", "v3")
	want = dump(t, s, "a", "batch")
	closeStore(t, s)

	s = reopen()
	defer closeStore(t, s)
	if got := dump(t, s, "a", "batch"); !slices.Equal(got, want) {
		t.Errorf("after reopening again the store holds %q, want %q", got, want)
	}
}

func testReopenEmpty(t *testing.T, reopen func() store.Store) {
	closeStore(t, reopen())
	s := reopen()
	defer closeStore(t, s)
	if got, want := dump(t, s, "a"), []string{"a missing"}; !slices.Equal(got, want) {
		t.Errorf("reopened empty store holds %q, want %q", got, want)
	}
	fill(t, s, "a", "k", "v")
}
