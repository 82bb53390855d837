package store_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vokter-go/vokter/store"
)

// maxFuzzFile caps the files FuzzOpenBolt writes.
const maxFuzzFile = 64 << 10

// FuzzOpenBolt opens arbitrary bytes as a database: OpenBolt must fail with
// ErrInvalidFile and leave the file as it was, or succeed. (Reading or
// checking what opened is out of scope: bbolt does not checksum data
// pages, and faults on some garbage in them.)
func FuzzOpenBolt(f *testing.F) {
	for _, name := range []string{"small.db", "nested.db"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte{})
	f.Add([]byte("not a database"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzFile {
			return
		}
		path := filepath.Join(t.TempDir(), "fuzz.db")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := store.OpenBolt(path, &store.BoltOptions{Timeout: -1, NoSync: true})
		if err != nil {
			if !errors.Is(err, store.ErrInvalidFile) {
				t.Fatalf("OpenBolt: %v, want ErrInvalidFile", err)
			}
			after, rerr := os.ReadFile(path)
			if rerr != nil || !bytes.Equal(after, data) {
				t.Fatalf("a failed open changed the file (%v)", rerr)
			}
			return
		}
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	})
}
