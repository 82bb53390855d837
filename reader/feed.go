package reader

import (
	"context"
	"encoding/xml"
	"html"
	"slices"
	"strings"

	"golang.org/x/net/html/atom"
)

// feedReader reads RSS (0.9x, 1.0, 2.0) and Atom (0.3, 1.0) feeds: the
// feed's title and description, then each item's or entry's title,
// description, summary and content, one field per line. Escaped HTML
// (RSS descriptions, content:encoded, Atom type="html") and inline XHTML
// (Atom type="xhtml") are read as HTML text, inline XML content (such as
// CAP alerts in Atom) one element's text per line. Links, dates, identifiers and
// extension elements (media:, dc:, itunes:...) are left out: they are not
// text a reader watches, and dates would make every check a change.
type feedReader struct{}

// Read implements [Reader].
func (f feedReader) Read(ctx context.Context, body []byte, p ReadParams) (string, error) {
	d, err := f.ReadDocument(ctx, body, p)
	return d.Text, err
}

// ReadDocument implements [DocumentReader].
func (feedReader) ReadDocument(ctx context.Context, body []byte, _ ReadParams) (Document, error) {
	var w lineWriter
	s := feedState{w: &w, wantTitle: true}
	err := eachXMLToken(ctx, body, func(tok xml.Token) {
		switch t := tok.(type) {
		case xml.StartElement:
			s.startElement(t)
		case xml.EndElement:
			s.endElement(ctx, t)
		case xml.CharData:
			s.charData(t)
		}
	})
	if err == nil && s.mode != noField {
		s.endField(ctx) // a feed cut short inside a field
	}
	if err == nil {
		err = s.err
	}
	if err != nil {
		return Document{}, err
	}
	return Document{Text: w.String(), Title: s.title}, nil
}

// fieldMode says how a field's content is read.
type fieldMode uint8

const (
	noField     fieldMode = iota
	plainText             // text as it is
	escaped               // text that is escaped HTML
	inlineXHTML           // child elements are XHTML
	inlineXML             // child elements are some other XML (e.g. CAP)
	skipField             // content we cannot read as text (e.g. base64)
)

// feedState follows the token stream of a feed.
type feedState struct {
	w         *lineWriter
	open      []string // feed names of the open elements ("" for others)
	mode      fieldMode
	depth     int             // len(open) inside the current field
	field     xml.Name        // the current field's element
	nest      int             // elements named like field open inside it (flat fields)
	feedTitle bool            // the current field is the feed's own title
	start     int             // w's length when the current field began
	escaped   strings.Builder // content of an escaped field
	xhtml     htmlText        // reader of an inline XHTML field
	wantTitle bool
	title     string
	err       error // first error of an escaped field's HTML reader (ctx)
}

// feedName returns an element's name when it belongs to RSS or Atom
// ("content:encoded" for the content module's full text), else "".
func feedName(n xml.Name) string {
	switch n.Space { // the prefix: eachXMLToken does not resolve namespaces
	case "", "atom", "rss":
		return n.Local
	case "content":
		if n.Local == "encoded" {
			return "content:encoded"
		}
	}
	return ""
}

// isFeedContainer reports whether an element holds feed or item fields.
func isFeedContainer(name string) bool {
	switch name {
	case "channel", "feed", "item", "entry":
		return true
	}
	return false
}

// fieldModeOf returns how a field element is read, or noField when it is
// not a text field of its container.
func fieldModeOf(name string, attrs []xml.Attr) fieldMode {
	switch name {
	case "description", "content:encoded":
		return escaped
	case "title", "subtitle", "tagline", "summary", "content":
		typ, mode := "", ""
		for _, a := range attrs {
			switch a.Name.Local {
			case "type":
				typ = strings.ToLower(strings.TrimSpace(a.Value))
			case "mode": // Atom 0.3
				mode = a.Value
			}
		}
		switch {
		case mode == "escaped", typ == "html", typ == "text/html":
			return escaped
		case typ == "xhtml", typ == "application/xhtml+xml":
			return inlineXHTML
		case strings.HasSuffix(typ, "/xml") || strings.HasSuffix(typ, "+xml"):
			return inlineXML
		case typ == "", typ == "text", strings.HasPrefix(typ, "text/"):
			return plainText
		}
		return skipField
	}
	return noField
}

// flat reports whether the current field's child elements are not XML of
// their own: in escaped HTML they are stray HTML markup (<br>, an unclosed
// <p>) that need not be balanced, in plain text they are ignored. Such a
// field ends only at the end tag of its own element.
func (s *feedState) flat() bool {
	return s.mode == plainText || s.mode == escaped || s.mode == skipField
}

func (s *feedState) startElement(t xml.StartElement) {
	if s.flat() {
		if t.Name == s.field {
			s.nest++
		}
		if s.mode == escaped {
			writeHTMLStartTag(&s.escaped, t)
		}
		return
	}
	name := feedName(t.Name)
	parent := ""
	if len(s.open) > 0 {
		parent = s.open[len(s.open)-1]
	}
	s.open = append(s.open, name)
	switch {
	case s.mode == inlineXHTML:
		s.xhtml.start(atom.Lookup([]byte(strings.ToLower(t.Name.Local))), slices.ContainsFunc(t.Attr, func(a xml.Attr) bool {
			return a.Name.Local == "hidden" && a.Name.Space == ""
		}))
	case s.mode == inlineXML:
		s.w.breakLine()
	case isFeedContainer(parent):
		if m := fieldModeOf(name, t.Attr); m != noField {
			s.mode, s.depth, s.field, s.nest = m, len(s.open), t.Name, 0
			s.feedTitle = name == "title" && (parent == "channel" || parent == "feed")
			s.w.breakLine()
			s.start = len(s.w.String())
			s.escaped.Reset()
			s.xhtml = htmlText{w: s.w}
		}
	}
}

func (s *feedState) endElement(ctx context.Context, t xml.EndElement) {
	if s.flat() && (t.Name != s.field || s.nest > 0) {
		if t.Name == s.field {
			s.nest--
		}
		if s.mode == escaped {
			s.escaped.WriteString("</")
			writeXMLName(&s.escaped, t.Name)
			s.escaped.WriteByte('>')
		}
		return
	}
	if s.mode != noField && len(s.open) == s.depth {
		s.endField(ctx)
	} else if s.mode == inlineXHTML {
		s.xhtml.end(atom.Lookup([]byte(strings.ToLower(t.Name.Local))))
	} else if s.mode == inlineXML {
		s.w.breakLine()
	}
	if len(s.open) > 0 {
		s.open = s.open[:len(s.open)-1]
	}
}

// endField writes the rest of the current field (an escaped field is read
// as HTML only now, whole) and ends it.
func (s *feedState) endField(ctx context.Context) {
	if s.mode == escaped {
		e := htmlText{w: s.w}
		if err := e.tokens(ctx, []byte(s.escaped.String()), false); err != nil && s.err == nil {
			s.err = err
		}
	}
	s.w.breakLine()
	if s.feedTitle && s.wantTitle {
		s.title = collapse(s.w.String()[s.start:])
		s.wantTitle = s.title == ""
	}
	s.mode = noField
}

func (s *feedState) charData(t xml.CharData) {
	switch s.mode {
	case plainText, inlineXML:
		s.w.WriteString(string(t))
	case escaped:
		s.escaped.Write(t)
	case inlineXHTML:
		s.xhtml.text(string(t))
	}
}

// writeHTMLStartTag writes an element found inside an escaped HTML field
// back as the HTML start tag it was.
func writeHTMLStartTag(b *strings.Builder, t xml.StartElement) {
	b.WriteByte('<')
	writeXMLName(b, t.Name)
	for _, a := range t.Attr {
		b.WriteByte(' ')
		writeXMLName(b, a.Name)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(a.Value))
		b.WriteByte('"')
	}
	b.WriteByte('>')
}

// writeXMLName writes a raw token's name as it was written, prefix:local.
func writeXMLName(b *strings.Builder, n xml.Name) {
	if n.Space != "" {
		b.WriteString(n.Space)
		b.WriteByte(':')
	}
	b.WriteString(n.Local)
}
