package index

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
	"unicode"
	"unicode/utf8"
)

func readFile(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// goSpec returns the ~220 KB English text of the Go specification.
func goSpec(t testing.TB) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "go_spec.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkTokens verifies the invariants every tokenization must hold: offsets
// in range and increasing, Text equal to the slice of text it claims,
// positions 0, 1, 2, ..., valid UTF-8 tokens, and no letter or digit left
// outside a token.
func checkTokens(t testing.TB, text string, toks []Token) {
	t.Helper()
	prevEnd := 0
	for i, tok := range toks {
		if tok.Start < prevEnd || tok.End <= tok.Start || tok.End > len(text) {
			t.Fatalf("token %d %+v: offsets out of order or range (previous end %d, len %d)", i, tok, prevEnd, len(text))
		}
		if text[tok.Start:tok.End] != tok.Text {
			t.Fatalf("token %d %+v: text[%d:%d] = %q", i, tok, tok.Start, tok.End, text[tok.Start:tok.End])
		}
		if tok.Pos != i {
			t.Fatalf("token %d %+v: Pos = %d, want %d", i, tok, tok.Pos, i)
		}
		if !utf8.ValidString(tok.Text) {
			t.Fatalf("token %d %+v: invalid UTF-8", i, tok)
		}
		checkGap(t, text[prevEnd:tok.Start])
		prevEnd = tok.End
	}
	checkGap(t, text[prevEnd:])
}

func checkGap(t testing.TB, gap string) {
	t.Helper()
	for i, r := range gap {
		if r == utf8.RuneError {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			t.Fatalf("word character %q at %d of gap %q between tokens", r, i, gap)
		}
	}
}
