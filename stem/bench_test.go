package stem

import (
	"strings"
	"testing"
)

func BenchmarkDetect(b *testing.B) {
	for _, code := range []string{"en", "ru", "ja"} {
		text := readLang(b, code)
		text = strings.Repeat(text, DefaultDetectBytes/len(text)+1)
		b.Run(code, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Detect(text)
			}
		})
	}
}

func BenchmarkStem(b *testing.B) {
	words := strings.Fields(strings.ToLower(readLang(b, "en")))
	s := For("en")
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range words {
			s.Stem(w)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
}

func BenchmarkStopwordsContains(b *testing.B) {
	words := strings.Fields(strings.ToLower(readLang(b, "en")))
	s := Stopwords("en")
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range words {
			s.Contains(w)
		}
	}
}
