package store_test

import (
	"testing"

	"github.com/vokter-go/vokter/store"
	"github.com/vokter-go/vokter/store/storetest"
)

func newMemory(tb testing.TB) store.Store {
	s := store.NewMemory()
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

func TestMemoryConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store { return newMemory(t) })
}

func BenchmarkMemory(b *testing.B) {
	storetest.RunBenchmarks(b, func(b *testing.B) store.Store { return newMemory(b) })
}
