package cap

import (
	"testing"
)

// benchFiles are valid alerts of different shapes: many geocodes, polygons,
// a small 1.1 alert.
var benchFiles = []string{
	"oasiscap/ipaws-5e6dd964023f1930ef638846.xml",
	"kde/lib/testdata/ru-20250301222516-0086037.xml",
	"caplib/testdata/weather.cap",
}

func BenchmarkParse(b *testing.B) {
	for _, name := range benchFiles {
		data := readFile(b, "testdata/alerts/"+name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseLenient(b *testing.B) {
	data := readFile(b, "testdata/alerts/"+benchFiles[0])
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ParseLenient(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	for _, name := range benchFiles {
		a, err := Parse(readFile(b, "testdata/alerts/"+name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				out, err := Marshal(a)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.SetBytes(int64(n))
		})
	}
}
