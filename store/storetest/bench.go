package storetest

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/vokter-go/vokter/store"
)

// benchKeys is how many keys the read benchmarks load.
const benchKeys = 10000

// RunBenchmarks measures the hot paths of the stores newStore returns (a
// fresh, empty store per sub-benchmark): a point Get, a Put in its own
// Update, Puts through Batch from parallel writers, and a Scan of 1,000
// keys.
func RunBenchmarks(b *testing.B, newStore func(b *testing.B) store.Store) {
	b.Run("Get", func(b *testing.B) {
		s := newStore(b)
		load(b, s)
		ctx := context.Background()
		key := make([]byte, 8)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			binary.BigEndian.PutUint64(key, uint64(i%benchKeys))
			i++
			err := s.View(ctx, func(tx store.Tx) error {
				bk, err := tx.Bucket([]byte("bench"))
				if err != nil {
					return err
				}
				_, err = bk.Get(key)
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Put", func(b *testing.B) {
		s := newStore(b)
		ctx := context.Background()
		value := make([]byte, 100)
		b.ReportAllocs()
		var i uint64
		for b.Loop() {
			i++
			if err := s.Update(ctx, func(tx store.Tx) error { return putBench(tx, i, value) }); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BatchParallel", func(b *testing.B) {
		s := newStore(b)
		ctx := context.Background()
		value := make([]byte, 100)
		var next atomic.Uint64
		b.ReportAllocs()
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := next.Add(1)
				if err := s.Batch(ctx, func(tx store.Tx) error { return putBench(tx, i, value) }); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("Scan1000", func(b *testing.B) {
		s := newStore(b)
		load(b, s)
		ctx := context.Background()
		start := make([]byte, 8)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			binary.BigEndian.PutUint64(start, uint64(i%(benchKeys-1000)))
			i += 997
			n := 0
			err := s.View(ctx, func(tx store.Tx) error {
				bk, err := tx.Bucket([]byte("bench"))
				if err != nil {
					return err
				}
				return bk.Scan(store.ScanOptions{Start: start}, func(k, v []byte) error {
					if n++; n == 1000 {
						return store.ErrStop
					}
					return nil
				})
			})
			if err != nil || n != 1000 {
				b.Fatalf("Scan visited %d keys: %v", n, err)
			}
		}
	})
}

// putBench stores value at key i of bucket "bench".
func putBench(tx store.Tx, i uint64, value []byte) error {
	bk, err := tx.CreateBucketIfNotExists([]byte("bench"))
	if err != nil {
		return err
	}
	return bk.Put(binary.BigEndian.AppendUint64(nil, i), value)
}

// load fills bucket "bench" with benchKeys keys of 100-byte values.
func load(b *testing.B, s store.Store) {
	b.Helper()
	value := make([]byte, 100)
	err := s.Update(context.Background(), func(tx store.Tx) error {
		for i := range uint64(benchKeys) {
			if err := putBench(tx, i, value); err != nil {
				return fmt.Errorf("key %d: %w", i, err)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
