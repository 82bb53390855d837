package diff

import (
	"strings"
	"testing"
)

// The page benchmarks use 200 KB pages of lines of 8 to 20 words.
const benchSize = 200_000

func benchCompute(b *testing.B, old, new string, opts *Options) {
	b.Helper()
	b.SetBytes(int64(len(old) + len(new)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Compute(old, new, opts)
	}
}

func BenchmarkCompute(b *testing.B) {
	base := page(b, 1, benchSize)
	b.Run("identical", func(b *testing.B) {
		benchCompute(b, base, strings.Clone(base), nil)
	})
	b.Run("1pct-words", func(b *testing.B) {
		benchCompute(b, base, mutate(base, 2, 0.01), nil)
	})
	b.Run("1pct-words-lines-only", func(b *testing.B) {
		benchCompute(b, base, mutate(base, 2, 0.01), &Options{LinesOnly: true})
	})
	b.Run("10pct-words", func(b *testing.B) {
		benchCompute(b, base, mutate(base, 3, 0.1), nil)
	})
	b.Run("one-line-1pct-words", func(b *testing.B) {
		flat := strings.ReplaceAll(base, "\n", " ")
		benchCompute(b, flat, mutate(flat, 2, 0.01), nil)
	})
	b.Run("one-line-10pct-words", func(b *testing.B) {
		flat := strings.ReplaceAll(base, "\n", " ")
		benchCompute(b, flat, mutate(flat, 3, 0.1), nil)
	})
	b.Run("paragraphs-reversed", func(b *testing.B) {
		benchCompute(b, base, reverseParagraphs(base), nil)
	})
	b.Run("unrelated-shared-template", func(b *testing.B) {
		benchCompute(b, templated(b, 4, 5, benchSize), templated(b, 4, 6, benchSize), nil)
	})
	b.Run("unrelated", func(b *testing.B) {
		benchCompute(b, base, page(b, 4, benchSize), nil)
	})
	b.Run("baseline", func(b *testing.B) {
		benchCompute(b, "", base, nil)
	})
}

func BenchmarkSnippet(b *testing.B) {
	text := page(b, 1, benchSize)
	mid := len(text) / 2
	b.ReportAllocs()
	for b.Loop() {
		Snippet(text, mid, mid+20, DefaultSnippetChars)
	}
}

func BenchmarkApply(b *testing.B) {
	old := page(b, 1, benchSize)
	diffs := Compute(old, mutate(old, 2, 0.01), nil)
	b.SetBytes(int64(len(old)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply(old, diffs); err != nil {
			b.Fatal(err)
		}
	}
}
