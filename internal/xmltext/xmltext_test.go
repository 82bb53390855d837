package xmltext

import (
	"bytes"
	"encoding/xml"
	"testing"
)

const nasty = "a&b<c>d\"e'f\tg\rh\ni\x00j\x1fk\uFFFEl\uFFFFm\xffn\xe2\x82o€p😀"

// TestAppendEscaped compares AppendEscaped with encoding/xml: xml.EscapeText
// (new lines escaped) and a CharData token (new lines kept).
func TestAppendEscaped(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain text", nasty, "\xe2\x82", "\xff", "tail&", "\n\n"} {
		checkEscaped(t, s)
	}
}

func FuzzAppendEscaped(f *testing.F) {
	f.Add(nasty)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		checkEscaped(t, s)
	})
}

func checkEscaped(t *testing.T, s string) {
	t.Helper()
	var want bytes.Buffer
	if err := xml.EscapeText(&want, []byte(s)); err != nil {
		t.Fatal(err)
	}
	if got := AppendEscaped(nil, s, true); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("AppendEscaped(%q, true) = %q, want %q", s, got, want.Bytes())
	}
	want.Reset()
	enc := xml.NewEncoder(&want)
	if err := enc.EncodeToken(xml.CharData(s)); err != nil {
		t.Fatal(err)
	}
	if err := enc.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := AppendEscaped(nil, []byte(s), false); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("AppendEscaped(%q, false) = %q, want %q", s, got, want.Bytes())
	}
}
