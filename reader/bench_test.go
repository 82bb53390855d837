package reader

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// benchRead reads one testdata file per iteration through a Registry.
func benchRead(b *testing.B, file, contentType string, opts *Options) {
	body := readFile(b, file)
	r := NewRegistry()
	ctx := context.Background()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Read(ctx, contentType, bytes.NewReader(body), opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadHTML(b *testing.B) {
	benchRead(b, "article_el.html", "text/html; charset=utf-8", nil)
}

func BenchmarkReadHTMLSniffed(b *testing.B) { benchRead(b, "article_el.html", "", nil) }

func BenchmarkReadHTMLSelector(b *testing.B) {
	benchRead(b, "article_el.html", "text/html", &Options{Selector: "article p"})
}

func BenchmarkReadHTMLIgnore(b *testing.B) {
	benchRead(b, "article_el.html", "text/html", &Options{Ignore: []string{`\d+,\d%`, `\d{2}\.\d{2}\.\d{4}`}})
}

// BenchmarkReadHTMLIgnoreRare filters with patterns that match few lines,
// the usual case (counters, timestamps).
func BenchmarkReadHTMLIgnoreRare(b *testing.B) {
	benchRead(b, "article_el.html", "text/html", &Options{Ignore: []string{`Updated \d\d:\d\d`, `\(\d+ views\)`}})
}

func BenchmarkReadHTMLLegacyCharset(b *testing.B) {
	benchRead(b, "ru_windows1251.html", "text/html", nil)
}

func BenchmarkReadAtom(b *testing.B) { benchRead(b, "weather.atom", "application/atom+xml", nil) }

func BenchmarkReadXML(b *testing.B) { benchRead(b, "alert.cap", "application/xml", nil) }

func BenchmarkReadJSON(b *testing.B) { benchRead(b, "weather.json", "application/json", nil) }

func BenchmarkReadText(b *testing.B) { benchRead(b, "notes.txt", "text/plain", nil) }

// BenchmarkReadJSONLarge reads a JSON feed of almost DefaultMaxBytes.
func BenchmarkReadJSONLarge(b *testing.B) {
	var titles []string
	for i := range 100_000 {
		titles = append(titles, fmt.Sprintf("Headline number %d", i))
	}
	body := feedJSON(titles)
	r := NewRegistry()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Read(context.Background(), "application/json", bytes.NewReader(body), nil); err != nil {
			b.Fatal(err)
		}
	}
}
