package index

import (
	"fmt"
	"testing"
)

func BenchmarkTokenize(b *testing.B) {
	text := goSpec(b)
	buf := make([]Token, 0, len(text)/4)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendTokens(buf[:0], text)
	}
}

// BenchmarkTerms measures what a check does to a 200 KB page: tokenize and
// normalise with stemming, from a fresh Normalizer (so with a cold cache).
func BenchmarkTerms(b *testing.B) {
	text := goSpec(b)[:200_000]
	for _, opts := range []Options{
		{IgnoreCase: true},
		{IgnoreCase: true, Stopwords: true, Stemming: true},
	} {
		b.Run(fmt.Sprintf("stem=%v", opts.Stemming), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				NewNormalizer(opts).Terms(text)
			}
		})
	}
}

func BenchmarkFilterTest(b *testing.B) {
	ts := NewNormalizer(all).Terms(goSpec(b))
	f := FilterOf(ts, DefaultFPRate)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f.Test(ts[i%len(ts)].Term)
		i++
	}
}

func BenchmarkFilterOf(b *testing.B) {
	ts := NewNormalizer(all).Terms(goSpec(b)[:200_000])
	b.ReportAllocs()
	for b.Loop() {
		FilterOf(ts, DefaultFPRate)
	}
}

func BenchmarkNewSignature(b *testing.B) {
	ts := NewNormalizer(all).Terms(goSpec(b)[:200_000])
	b.ReportAllocs()
	for b.Loop() {
		NewSignature(ts, MinHashOptions{})
	}
}

func BenchmarkLSHQuery(b *testing.B) {
	ps := pages(b, 200)
	l, err := NewLSH(0.8, MinHashOptions{})
	if err != nil {
		b.Fatal(err)
	}
	sigs := make([]Signature, len(ps))
	for i, p := range ps {
		sigs[i] = signature(p, MinHashOptions{})
		if err := l.Add(fmt.Sprint(i), sigs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := l.Query(sigs[i%len(sigs)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
