package reader

import (
	"context"
	"encoding/xml"
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

func (s *feedState) startElement(t xml.StartElement) {
	name := feedName(t.Name)
	parent := ""
	if len(s.open) > 0 {
		parent = s.open[len(s.open)-1]
	}
	s.open = append(s.open, name)
	switch {
	case s.mode == inlineXHTML:
		s.xhtml.start(atom.Lookup([]byte(strings.ToLower(t.Name.Local))))
	case s.mode == inlineXML:
		s.w.breakLine()
	case s.mode != noField:
		// Markup inside a text field: keep reading its text.
	case isFeedContainer(parent):
		if m := fieldModeOf(name, t.Attr); m != noField {
			s.mode, s.depth = m, len(s.open)
			s.feedTitle = name == "title" && (parent == "channel" || parent == "feed")
			s.w.breakLine()
			s.start = len(s.w.String())
			s.escaped.Reset()
			s.xhtml = htmlText{w: s.w}
		}
	}
}

func (s *feedState) endElement(ctx context.Context, t xml.EndElement) {
	if s.mode != noField && len(s.open) == s.depth {
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
	} else if s.mode == inlineXHTML {
		s.xhtml.end(atom.Lookup([]byte(strings.ToLower(t.Name.Local))))
	} else if s.mode == inlineXML {
		s.w.breakLine()
	}
	if len(s.open) > 0 {
		s.open = s.open[:len(s.open)-1]
	}
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
