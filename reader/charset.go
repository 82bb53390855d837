package reader

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
)

// prescanLen bounds the bytes searched for an in-document charset
// declaration (<meta charset>, the XML declaration). Browsers use 1024; real
// pages often put their <meta> after long inline scripts, so we look further.
const prescanLen = 4096

// bomCharsets maps byte order marks to encodings; the longest mark first.
var bomCharsets = []struct {
	bom   string
	label string
}{
	{"\xef\xbb\xbf", "utf-8"},
	{"\xfe\xff", "utf-16be"},
	{"\xff\xfe", "utf-16le"},
}

// bomCharset returns the encoding label of a byte order mark at the start of
// b and the mark's length, or "" and 0.
func bomCharset(b []byte) (string, int) {
	for _, m := range bomCharsets {
		if bytes.HasPrefix(b, []byte(m.bom)) {
			return m.label, len(m.bom)
		}
	}
	return "", 0
}

// lookupCharset returns the encoding for a WHATWG label and its canonical
// name, or nil when the label is unknown.
func lookupCharset(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil, ""
	}
	return charset.Lookup(label)
}

// decode converts b from enc (nil means UTF-8) to valid UTF-8. Bytes that are
// invalid in the encoding become U+FFFD; decoding never fails.
func decode(b []byte, enc encoding.Encoding, name string) []byte {
	if enc != nil && name != "utf-8" {
		if out, err := enc.NewDecoder().Bytes(b); err == nil {
			b = out
		}
	}
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return b
}

// metaCharset returns the label declared by a <meta charset> or <meta
// http-equiv="Content-Type" content="...; charset=..."> near the start of an
// HTML document, or "".
func metaCharset(b []byte) string {
	if len(b) > prescanLen {
		b = b[:prescanLen]
	}
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			switch string(name) {
			case "body":
				return ""
			case "meta":
				if label := metaTagCharset(z, hasAttr); label != "" {
					return label
				}
			}
		}
	}
}

// metaTagCharset reads the charset out of the attributes of one <meta> tag.
func metaTagCharset(z *html.Tokenizer, more bool) string {
	var content string
	httpEquiv := false
	for more {
		var key, val []byte
		key, val, more = z.TagAttr()
		switch string(key) {
		case "charset":
			return string(val)
		case "http-equiv":
			httpEquiv = strings.EqualFold(string(val), "content-type")
		case "content":
			content = string(val)
		}
	}
	if !httpEquiv || content == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(content); err == nil {
		return params["charset"]
	}
	return ""
}

// xmlDecl locates the XML declaration at the start of b (after white space)
// and the value of its encoding pseudo-attribute: b[start:end] is the label.
// ok is false when there is no declaration or no encoding in it.
func xmlDecl(b []byte) (start, end int, ok bool) {
	i := len(b) - len(bytes.TrimLeft(b, " \t\r\n"))
	if !bytes.HasPrefix(b[i:], []byte("<?xml")) {
		return 0, 0, false
	}
	limit := min(len(b), i+512)
	closing := bytes.Index(b[i:limit], []byte("?>"))
	if closing < 0 {
		return 0, 0, false
	}
	decl := b[:i+closing]
	k := bytes.Index(decl[i:], []byte("encoding"))
	if k < 0 {
		return 0, 0, false
	}
	k += i + len("encoding")
	for k < len(decl) && isXMLSpace(decl[k]) {
		k++
	}
	if k >= len(decl) || decl[k] != '=' {
		return 0, 0, false
	}
	k++
	for k < len(decl) && isXMLSpace(decl[k]) {
		k++
	}
	if k >= len(decl) || (decl[k] != '"' && decl[k] != '\'') {
		return 0, 0, false
	}
	q := decl[k]
	endq := bytes.IndexByte(decl[k+1:], q)
	if endq < 0 {
		return 0, 0, false
	}
	return k + 1, k + 1 + endq, true
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// xmlDeclCharset returns the encoding label of the XML declaration, or "".
func xmlDeclCharset(b []byte) string {
	if s, e, ok := xmlDecl(b); ok {
		return string(b[s:e])
	}
	return ""
}

// fixXMLDecl rewrites the XML declaration of an already decoded body so that
// it declares UTF-8: XML decoders (ours and a registered reader's) then read
// the body as it is instead of failing on, or decoding twice, a legacy label.
func fixXMLDecl(b []byte) []byte {
	s, e, ok := xmlDecl(b)
	if !ok || strings.EqualFold(string(b[s:e]), "utf-8") {
		return b
	}
	out := make([]byte, 0, len(b)-(e-s)+5)
	out = append(out, b[:s]...)
	out = append(out, "UTF-8"...)
	return append(out, b[e:]...)
}
