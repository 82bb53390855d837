package reader

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"strings"

	"golang.org/x/net/html/atom"
)

const (
	// sniffLen bounds the bytes looked at to decide a body's type.
	sniffLen = 8192
	// binaryRatio: a sample with more than one binary byte in binaryRatio is
	// binary. Compressed data has about one in ten; text with a few stray
	// control characters stays far below one in thirty-two.
	binaryRatio = 32
	// rootTokens bounds the XML tokens read before the root element
	// (declaration, comments, processing instructions, doctype).
	rootTokens = 64
)

// sample returns the first sniffLen bytes of b.
func sample(b []byte) []byte {
	if len(b) > sniffLen {
		return b[:sniffLen]
	}
	return b
}

// looksBinary reports whether the start of b is binary: the signature of a
// binary format (image, PDF, archive, font, media) or too many NUL and
// control bytes for text. detected is the type named by the signature, if
// any.
func looksBinary(b []byte) (detected string, binary bool) {
	s := sample(b)
	if ct := http.DetectContentType(s); binarySignature(ct) {
		return ct, true
	}
	n := 0
	for _, c := range s {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b {
			n++
		}
	}
	return "", n*binaryRatio > len(s)
}

// binarySignature reports whether a type from http.DetectContentType comes
// from the magic number of a binary format.
func binarySignature(ct string) bool {
	switch {
	case strings.HasPrefix(ct, "text/"),
		ct == "application/octet-stream", // no signature, just "not text"
		ct == "application/postscript":   // PostScript is text
		return false
	}
	return true
}

// xmlRootOf returns the root element of an XML document (with its namespace
// resolved), reading at most sniffLen bytes and rootTokens tokens.
func xmlRootOf(b []byte) (xml.Name, bool) {
	d := newXMLDecoder(sample(b))
	for range rootTokens {
		tok, err := d.Token()
		if err != nil {
			return xml.Name{}, false
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, true
		}
	}
	return xml.Name{}, false
}

// newXMLDecoder returns a lenient decoder for a UTF-8 body: HTML entities
// are known, unknown ones are kept as text, and the declared encoding is
// ignored because the body was decoded before.
func newXMLDecoder(b []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.AutoClose = xml.HTMLAutoClose
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d
}

// isHTMLRoot reports whether a root element names an HTML document.
func isHTMLRoot(n xml.Name) bool {
	return strings.EqualFold(n.Local, "html") &&
		(n.Space == "" || n.Space == xhtmlNS)
}

// sniffed is the result of looking at a body's first bytes.
type sniffed struct {
	mediaType string
	root      xml.Name // root element when the body is XML
	hasRoot   bool
}

// sniffContent decides the media type of a body that declared none (or a
// generic or unknown one) from its first bytes. b is UTF-8 or an
// ASCII-compatible encoding. ok is false when it is not text we can read.
func sniffContent(b []byte) (s sniffed, detected string, ok bool) {
	head := bytes.TrimLeft(sample(b), " \t\r\n\f")
	ct := http.DetectContentType(sample(b))
	switch {
	case hasXMLDecl(head):
		root, found := xmlRootOf(b)
		if found && isHTMLRoot(root) {
			return sniffed{mediaType: "application/xhtml+xml", root: root, hasRoot: true}, "", true
		}
		return sniffed{mediaType: "application/xml", root: root, hasRoot: found}, "", true
	case strings.HasPrefix(ct, "text/html"):
		return sniffed{mediaType: "text/html"}, "", true
	case len(head) > 0 && head[0] == '<':
		root, found := xmlRootOf(b)
		switch {
		case !found:
			return sniffed{mediaType: "text/plain"}, "", true
		case root.Space == "" && atom.Lookup([]byte(strings.ToLower(root.Local))) != 0:
			// An HTML fragment without the markers DetectContentType knows.
			return sniffed{mediaType: "text/html"}, "", true
		}
		return sniffed{mediaType: "application/xml", root: root, hasRoot: true}, "", true
	case len(head) > 0 && (head[0] == '{' || head[0] == '[') && json.Valid(b):
		return sniffed{mediaType: "application/json"}, "", true
	case strings.HasPrefix(ct, "text/"):
		return sniffed{mediaType: "text/plain"}, "", true
	}
	return sniffed{}, ct, false
}

// hasXMLDecl reports whether b starts, after white space, with an XML
// declaration.
func hasXMLDecl(b []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(sample(b), " \t\r\n"), []byte("<?xml"))
}
