package store

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// noLinks is the link step of a file system without hard links (SMB,
// vfat, some container volumes).
func noLinks(oldname, newname string) error {
	return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EPERM}
}

func TestOpenBoltWithoutHardLinks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	other, err := os.ReadFile(filepath.Join("testdata", "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		link func(oldname, newname string) error
		// theirs: another opener created the file while this one was
		// creating it, and its file must be kept.
		theirs bool
	}{
		{"create", noLinks, false},
		{"created meanwhile", func(oldname, newname string) error {
			if err := os.WriteFile(newname, other, 0o600); err != nil {
				return err
			}
			return noLinks(oldname, newname)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			s, err := opener{link: tt.link}.open(path, &BoltOptions{NoSync: true})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer s.Close()
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].Name() != "x.db" {
				t.Errorf("directory holds %v, want only x.db", entries)
			}
			var buckets int
			if err := s.View(ctx, func(tx Tx) error {
				return tx.(*boltTx).root.ForEachBucket(func([]byte) error { buckets++; return nil })
			}); err != nil {
				t.Fatal(err)
			}
			if tt.theirs != (buckets > 0) {
				t.Errorf("database holds %d buckets; want the other opener's file: %v", buckets, tt.theirs)
			}
			if err := s.Update(ctx, func(tx Tx) error {
				b, err := tx.CreateBucketIfNotExists([]byte("new"))
				if err != nil {
					return err
				}
				return b.Put([]byte("k"), []byte("v"))
			}); err != nil {
				t.Fatalf("Update: %v", err)
			}
		})
	}
}
