package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/vokter-go/vokter/store"
)

func ExampleOpenBolt() {
	dir, err := os.MkdirTemp("", "vokter-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	st, err := store.OpenBolt(filepath.Join(dir, "vokter.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()

	// Keys are chosen so that questions are range scans: here, pages by URL.
	err = st.Update(ctx, func(tx store.Tx) error {
		pages, err := tx.CreateBucketIfNotExists([]byte("pages"))
		if err != nil {
			return err
		}
		for _, url := range []string{"http://b.example/", "http://a.example/x", "http://a.example/"} {
			if err := pages.Put([]byte(url), []byte("unchanged")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}

	err = st.View(ctx, func(tx store.Tx) error {
		pages, err := tx.Bucket([]byte("pages"))
		if err != nil {
			return err
		}
		return pages.Scan(store.ScanOptions{Prefix: []byte("http://a.example/")}, func(k, v []byte) error {
			fmt.Printf("%s %s\n", k, v)
			return nil
		})
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// http://a.example/ unchanged
	// http://a.example/x unchanged
}

func ExampleNewMemory() {
	st := store.NewMemory()
	defer st.Close()
	ctx := context.Background()

	err := st.Update(ctx, func(tx store.Tx) error {
		jobs, err := tx.CreateBucket([]byte("jobs"))
		if err != nil {
			return err
		}
		for range 3 {
			id, err := jobs.NextSequence()
			if err != nil {
				return err
			}
			if err := jobs.Put(fmt.Appendf(nil, "job-%03d", id), []byte("queued")); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}

	_ = st.View(ctx, func(tx store.Tx) error {
		jobs, err := tx.Bucket([]byte("jobs"))
		if err != nil {
			return err
		}
		// The newest first.
		return jobs.Scan(store.ScanOptions{Reverse: true}, func(k, v []byte) error {
			fmt.Printf("%s %s\n", k, v)
			return nil
		})
	})
	// Output:
	// job-003 queued
	// job-002 queued
	// job-001 queued
}

func ExampleBolt_Check() {
	dir, err := os.MkdirTemp("", "vokter-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	st, err := store.OpenBolt(filepath.Join(dir, "vokter.db"), &store.BoltOptions{NoSync: true})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	// OpenBolt returns a *store.Bolt for the bbolt-only operations.
	db := st.(*store.Bolt)
	fmt.Println(db.Check(context.Background()))
	fmt.Println(db.Compact(context.Background(), filepath.Join(dir, "compacted.db")))
	// Output:
	// <nil>
	// <nil>
}
