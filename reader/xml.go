package reader

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
)

// xmlReader reads any XML document: the text content of its elements, one
// element's own text per line. Attributes, comments and processing
// instructions are not text.
type xmlReader struct{}

// Read implements [Reader].
func (xmlReader) Read(ctx context.Context, body []byte, _ ReadParams) (string, error) {
	var w lineWriter
	err := eachXMLToken(ctx, body, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement, xml.EndElement:
			w.breakLine()
		case xml.CharData:
			w.WriteString(string(t))
		}
	})
	return w.String(), err
}

// eachXMLToken calls fn with every token of an XML body, checking ctx as it
// goes. Names keep their prefix (Space is the prefix, not the namespace).
// The decoder is lenient (see newXMLDecoder), keeps no tree and does not
// recurse, so depth costs nothing.
func eachXMLToken(ctx context.Context, body []byte, fn func(xml.Token)) error {
	d := newXMLDecoder(xmlChars(body))
	for n := 1; ; n++ {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		// RawToken does not match end tags with start tags nor resolve
		// namespaces: a stray end tag is no reason to lose a document.
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// A bytes.Reader fails only at EOF: this is a syntax error.
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		fn(tok)
	}
}

// xmlChars returns body with the control characters XML forbids (stray in
// many real feeds) replaced by spaces, copying only when there are some.
func xmlChars(body []byte) []byte {
	var out []byte
	for i, c := range body {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			if out == nil {
				out = append([]byte(nil), body...)
			}
			out[i] = ' '
		}
	}
	if out == nil {
		return body
	}
	return out
}
