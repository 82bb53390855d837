package cap

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html/charset"
)

// Sentinel errors of indices and queries (the alert errors are in errors.go).
var (
	// ErrNotIndex means the document is XML but not an Atom feed, RSS
	// channel or EDXL-DE distribution (a CAP alert, for instance).
	ErrNotIndex = errors.New("cap: not a CAP index")
	// ErrBadQuery is wrapped by every *QueryError.
	ErrBadQuery = errors.New("cap: bad query")
	// ErrNoAlertLink is the problem of an index entry that neither links to
	// a CAP alert nor embeds one.
	ErrNoAlertLink = errors.New("cap: index entry without CAP link or alert")
)

// The index formats ParseIndex reads (Index.Format).
const (
	FormatAtom   = "atom"
	FormatRSS    = "rss"
	FormatEDXLDE = "edxl-de"
)

// The XML namespaces of the index formats.
const (
	NamespaceAtom   = "http://www.w3.org/2005/Atom"
	NamespaceEDXLDE = "urn:oasis:names:tc:emergency:EDXL:DE:1.0"
)

// Limits of ParseIndex. Larger or deeper documents fail with ErrTooLarge.
const (
	MaxIndexBytes    = 32 << 20 // bytes of an index document
	MaxIndexDepth    = 64       // element nesting, embedded alerts included
	MaxIndexElements = 1 << 18  // elements, embedded alerts included
)

// Index is a CAP index: a feed listing alerts, by link (a thin index) or
// with the alerts embedded (a fat index).
type Index struct {
	Format  string    // FormatAtom, FormatRSS or FormatEDXLDE
	Title   string    // feed or channel title
	ID      string    // Atom id, RSS channel link or EDXL-DE distributionID
	Updated time.Time // Atom updated, RSS lastBuildDate/pubDate, EDXL-DE dateTimeSent; zero when absent
	Entries []Entry
}

// Entry is one alert of an index: an Atom entry, an RSS item or an EDXL-DE
// content object.
type Entry struct {
	ID      string    // Atom id, RSS guid; "" when absent
	Title   string    // Atom title, RSS title, EDXL-DE contentDescription
	Updated time.Time // Atom updated, RSS pubDate; zero when absent
	// Links are the absolute URLs of the entry's CAP documents (or of other
	// indices, for an index of indices), resolved against the index URL
	// and without duplicates. Links typed as CAP are preferred; otherwise
	// every link that is not typed as a web page is kept.
	Links []string
	// Alert is the embedded alert of a fat index, read leniently; nil when
	// the entry only links to its alert or the embedded XML is unusable.
	Alert *Alert
	// Summary holds the cap:* elements a thin index repeats from the alert.
	Summary Summary
	// Problems lists what was wrong with the entry (ErrNoAlertLink, a bad
	// date) and with its embedded alert (the problems of ParseLenient).
	Problems []error
}

// Summary is the part of an alert some indices repeat in cap:* elements
// beside each entry, so that readers can select alerts without fetching
// them. Absent elements are zero values; a feed that lists several areas
// gives several AreaDescs.
type Summary struct {
	Identifier string
	Sender     string
	Sent       time.Time
	Status     Status
	MsgType    MsgType
	Scope      Scope
	Language   string
	Category   []Category
	Event      string
	Urgency    Urgency
	Severity   Severity
	Certainty  Certainty
	Effective  time.Time
	Onset      time.Time
	Expires    time.Time
	Headline   string
	Web        string
	AreaDesc   []string
	// Polygons and Circles keep the text of the cap:polygon and cap:circle
	// elements ("lat,lon lat,lon ..." and "lat,lon radius"); empty elements
	// are left out.
	Polygons   []string
	Circles    []string
	Geocodes   []NamedValue
	EventCodes []NamedValue
	Parameters []NamedValue
}

// ParseIndex reads a CAP index: an Atom feed (also the namespace-less
// variant written by Google AlertFeed), an RSS 2.0 channel or an EDXL-DE
// distribution. baseURL is the index's own URL, against which relative links
// are resolved; "" leaves them as written.
//
// Embedded alerts are taken as XML (their raw elements, with the namespace
// declarations they inherit) and read with ParseLenient; their problems go
// to Entry.Problems. Documents with a DTD are refused (ErrDTD), so no entity
// is ever expanded or fetched; size and nesting are bounded (ErrTooLarge).
func ParseIndex(data []byte, baseURL string) (*Index, error) {
	if len(data) > MaxIndexBytes {
		return nil, fmt.Errorf("%w: index of %d bytes exceeds %d", ErrTooLarge, len(data), MaxIndexBytes)
	}
	var base *url.URL
	if baseURL != "" {
		u, err := url.Parse(baseURL)
		if err != nil {
			return nil, fmt.Errorf("cap: index base URL: %w", err)
		}
		base = u
	}
	data, err := indexToUTF8(data)
	if err != nil {
		return nil, err
	}
	root, err := readIndexTree(data)
	if err != nil {
		return nil, err
	}
	r := indexReader{base: base}
	switch {
	case root.name.Local == "feed" && (root.name.Space == NamespaceAtom || root.name.Space == ""):
		return r.atom(root, false), nil
	case root.name.Local == "entry" && root.name.Space == NamespaceAtom:
		return r.atom(root, true), nil
	case root.name.Local == "rss" && root.name.Space == "", root.name.Local == "RDF":
		return r.rss(root), nil
	case root.name.Local == "EDXLDistribution" && root.name.Space == NamespaceEDXLDE:
		return r.edxl(root), nil
	}
	return nil, fmt.Errorf("%w: root element <%s> in namespace %q", ErrNotIndex, root.name.Local, root.name.Space)
}

// indexToUTF8 transcodes a document declared in another encoding, so that byte
// offsets of the decoder are offsets into UTF-8 text.
func indexToUTF8(data []byte) ([]byte, error) {
	label := indexEncodingLabel(data)
	switch strings.ToLower(label) {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
		return data, nil
	}
	r, err := charset.NewReaderLabel(label, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: encoding %q: %w", ErrMalformed, label, err)
	}
	out, err := io.ReadAll(io.LimitReader(r, 4*MaxIndexBytes))
	if err != nil {
		return nil, fmt.Errorf("%w: encoding %q: %w", ErrMalformed, label, err)
	}
	return out, nil
}

// indexEncodingLabel returns the encoding pseudo-attribute of the XML
// declaration, if any.
func indexEncodingLabel(data []byte) string {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(data, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := string(data[:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	v, _, _ := strings.Cut(rest[1:], rest[:1])
	return v
}

// idxNode is an element of the index tree. Embedded CAP alerts are not
// expanded: their raw XML is kept in alert.
type idxNode struct {
	name     xml.Name
	attrs    []xml.Attr
	text     []byte
	children []*idxNode
	alert    []byte // raw XML of an embedded alert element
}

// attr returns the value of the attribute with the given local name.
func (n *idxNode) attr(local string) string {
	for _, a := range n.attrs {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// child returns the first child with the given namespace and local name.
func (n *idxNode) child(space, local string) *idxNode {
	for _, c := range n.children {
		if c.name.Local == local && c.name.Space == space {
			return c
		}
	}
	return nil
}

// childText returns the trimmed text of the first such child.
func (n *idxNode) childText(space, local string) string {
	if c := n.child(space, local); c != nil {
		return strings.TrimSpace(string(c.text))
	}
	return ""
}

// isCAPNS reports whether ns is the namespace of a CAP version.
func isCAPNS(ns string) bool {
	_, ok := VersionOf(ns)
	return ok
}

// readIndexTree parses the document into nodes, refusing DTDs and bounding
// nesting and element count. Elements named alert in a CAP namespace or in
// none are captured raw, with the namespace declarations they inherit.
func readIndexTree(data []byte) (*idxNode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	// Documents were transcoded by indexToUTF8 already.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	// HTML entities are common in RSS; they are internal, never fetched.
	d.Entity = xml.HTMLEntity
	var (
		stack    []*idxNode
		nsStack  [][]xml.Attr // namespace declarations per open element
		root     *idxNode
		elements int
	)
	for {
		start := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, fmt.Errorf("%w: index has a document type declaration", ErrDTD)
		case xml.StartElement:
			if len(stack) >= MaxIndexDepth {
				return nil, fmt.Errorf("%w: elements nested deeper than %d", ErrTooLarge, MaxIndexDepth)
			}
			if elements++; elements > MaxIndexElements {
				return nil, errTooManyIndexElements
			}
			n := &idxNode{name: t.Name, attrs: t.Attr}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("%w: several root elements", ErrMalformed)
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			if len(stack) > 0 && t.Name.Local == "alert" && (t.Name.Space == "" || isCAPNS(t.Name.Space)) {
				if err := skipBounded(d, MaxIndexDepth-len(stack), &elements); err != nil {
					return nil, err
				}
				n.alert = withInheritedNamespaces(data[start:d.InputOffset()], t, nsStack)
				continue
			}
			stack = append(stack, n)
			nsStack = append(nsStack, xmlnsAttrs(t.Attr))
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			nsStack = nsStack[:len(nsStack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				n := stack[len(stack)-1]
				n.text = append(n.text, t...)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("%w: no root element", ErrMalformed)
	}
	return root, nil
}

// errTooManyIndexElements is the error of an index over MaxIndexElements.
var errTooManyIndexElements = fmt.Errorf("%w: more than %d elements", ErrTooLarge, MaxIndexElements)

// skipBounded skips the rest of the current element like Decoder.Skip, but
// fails on nesting deeper than depth, on more elements than the index
// budget (counted in elements) or on a DTD.
func skipBounded(d *xml.Decoder, depth int, elements *int) error {
	open := 1
	for open > 0 {
		tok, err := d.Token()
		if err != nil {
			return fmt.Errorf("%w: %w", ErrMalformed, err)
		}
		switch tok.(type) {
		case xml.StartElement:
			if open++; open > depth {
				return fmt.Errorf("%w: elements nested deeper than %d", ErrTooLarge, MaxIndexDepth)
			}
			if *elements++; *elements > MaxIndexElements {
				return errTooManyIndexElements
			}
		case xml.EndElement:
			open--
		case xml.Directive:
			return fmt.Errorf("%w: index has a document type declaration", ErrDTD)
		}
	}
	return nil
}

// xmlnsAttrs returns the xmlns attributes of an element.
func xmlnsAttrs(attrs []xml.Attr) []xml.Attr {
	var out []xml.Attr
	for _, a := range attrs {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			out = append(out, a)
		}
	}
	return out
}

// withInheritedNamespaces returns the raw element with the namespace
// declarations of its ancestors added to its start tag, so that it can be
// parsed on its own: an embedded <cap:alert> often relies on an xmlns:cap
// declared on the feed. An inherited default namespace is added only when it
// is a CAP namespace, so that a namespace-less alert inside an Atom feed does
// not become an Atom element.
func withInheritedNamespaces(raw []byte, start xml.StartElement, scopes [][]xml.Attr) []byte {
	own := map[string]bool{}
	for _, a := range xmlnsAttrs(start.Attr) {
		own[declPrefix(a)] = true
	}
	var extra bytes.Buffer
	for i := len(scopes) - 1; i >= 0; i-- {
		for _, a := range scopes[i] {
			p := declPrefix(a)
			if own[p] || (p == "" && !isCAPNS(a.Value)) {
				continue
			}
			own[p] = true
			extra.WriteString(" xmlns")
			if p != "" {
				extra.WriteString(":" + p)
			}
			extra.WriteString(`="`)
			_ = xml.EscapeText(&extra, []byte(a.Value))
			extra.WriteString(`"`)
		}
	}
	if extra.Len() == 0 {
		return bytes.Clone(raw)
	}
	// The tag name ends at the first white space, "/" or ">".
	end := bytes.IndexAny(raw, " \t\r\n/>")
	if end < 0 {
		return bytes.Clone(raw)
	}
	out := make([]byte, 0, len(raw)+extra.Len())
	out = append(out, raw[:end]...)
	out = append(out, extra.Bytes()...)
	return append(out, raw[end:]...)
}

// declPrefix returns the prefix an xmlns attribute declares ("" for the
// default namespace).
func declPrefix(a xml.Attr) string {
	if a.Name.Space == "xmlns" {
		return a.Name.Local
	}
	return ""
}

// indexReader turns a tree into an Index.
type indexReader struct {
	base *url.URL
}

// atom reads an Atom feed (or a lone entry) in the Atom namespace or, for
// AlertFeed's indices, in none.
func (r indexReader) atom(root *idxNode, single bool) *Index {
	ns := root.name.Space
	idx := &Index{Format: FormatAtom}
	entries := []*idxNode{root}
	if !single {
		idx.Title = root.childText(ns, "title")
		idx.ID = root.childText(ns, "id")
		idx.Updated, _ = parseIndexTime(root.childText(ns, "updated"))
		entries = entries[:0]
		for _, c := range root.children {
			if c.name.Space == ns && c.name.Local == "entry" {
				entries = append(entries, c)
			}
		}
	}
	for _, n := range entries {
		e := Entry{ID: n.childText(ns, "id"), Title: n.childText(ns, "title")}
		e.Updated = r.time(&e, "updated", n.childText(ns, "updated"))
		var capLinks, otherLinks []string
		for _, c := range n.children {
			switch {
			case c.name.Space == ns && c.name.Local == "link":
				href := strings.TrimSpace(c.attr("href"))
				typ := linkMediaType(c.attr("type"))
				switch {
				case href == "" || c.attr("rel") == "self" || c.attr("rel") == "edit":
				case isCAPMediaType(typ):
					capLinks = append(capLinks, href)
				case !isPageMediaType(typ):
					otherLinks = append(otherLinks, href)
				}
			case c.name.Space == ns && c.name.Local == "content":
				if src := strings.TrimSpace(c.attr("src")); src != "" {
					capLinks = append(capLinks, src)
				}
				r.embedded(&e, c)
			case isCAPNS(c.name.Space):
				readSummary(&e, c)
			}
		}
		if len(capLinks) == 0 {
			capLinks = otherLinks
		}
		r.finish(&e, capLinks)
		idx.Entries = append(idx.Entries, e)
	}
	return idx
}

// rss reads an RSS 2.0 channel (or RSS 1.0, whose items follow the channel).
func (r indexReader) rss(root *idxNode) *Index {
	idx := &Index{Format: FormatRSS}
	items := root.children
	if ch := root.child(root.name.Space, "channel"); ch != nil || root.name.Local == "rss" {
		if ch == nil {
			return idx
		}
		idx.Title = ch.childText(ch.name.Space, "title")
		for _, c := range ch.children {
			// The first non-empty link: feeds put an empty atom-like
			// <link href=.../> before the RSS one.
			if c.name.Space == ch.name.Space && c.name.Local == "link" && idx.ID == "" {
				idx.ID = strings.TrimSpace(string(c.text))
			}
		}
		date := ch.childText(ch.name.Space, "lastBuildDate")
		if date == "" {
			date = ch.childText(ch.name.Space, "pubDate")
		}
		idx.Updated, _ = parseIndexTime(date)
		if root.name.Local == "rss" {
			items = ch.children
		}
	}
	for _, n := range items {
		if n.name.Local != "item" || isCAPNS(n.name.Space) {
			continue
		}
		ns := n.name.Space
		e := Entry{ID: n.childText(ns, "guid"), Title: n.childText(ns, "title")}
		e.Updated = r.time(&e, "pubDate", n.childText(ns, "pubDate"))
		var links []string
		for _, c := range n.children {
			switch {
			case c.name.Space == ns && c.name.Local == "link":
				links = append(links, strings.TrimSpace(string(c.text)))
			case c.name.Space == ns && c.name.Local == "enclosure" && !isPageMediaType(linkMediaType(c.attr("type"))):
				links = append(links, strings.TrimSpace(c.attr("url")))
			case c.name.Space == NamespaceAtom && c.name.Local == "link" && c.attr("rel") != "self":
				links = append(links, strings.TrimSpace(c.attr("href")))
			case isCAPNS(c.name.Space):
				readSummary(&e, c)
			default:
				r.embedded(&e, c)
			}
		}
		r.finish(&e, links)
		idx.Entries = append(idx.Entries, e)
	}
	return idx
}

// edxl reads an EDXL-DE distribution: each contentObject is an entry, with
// its embedded XML content or its nonXMLContent (uri, or base64
// contentData holding a CAP document).
func (r indexReader) edxl(root *idxNode) *Index {
	ns := NamespaceEDXLDE
	idx := &Index{Format: FormatEDXLDE, ID: root.childText(ns, "distributionID")}
	idx.Updated, _ = parseIndexTime(root.childText(ns, "dateTimeSent"))
	for _, c := range root.children {
		if c.name.Space != ns || c.name.Local != "contentObject" {
			continue
		}
		e := Entry{Title: c.childText(ns, "contentDescription")}
		var links []string
		if x := c.child(ns, "xmlContent"); x != nil {
			for _, emb := range x.children {
				if emb.name.Space == ns && emb.name.Local == "embeddedXMLContent" {
					r.embedded(&e, emb)
				}
			}
		}
		if nx := c.child(ns, "nonXMLContent"); nx != nil {
			if u := nx.childText(ns, "uri"); u != "" {
				links = append(links, u)
			}
			if b64 := nx.childText(ns, "contentData"); b64 != "" && e.Alert == nil {
				raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(b64), ""))
				if err != nil {
					e.Problems = append(e.Problems, fmt.Errorf("cap: EDXL-DE contentData: %w", err))
				} else if bytes.Contains(raw, []byte("alert")) {
					r.parseAlert(&e, raw)
				}
			}
		}
		r.finish(&e, links)
		idx.Entries = append(idx.Entries, e)
	}
	return idx
}

// embedded reads the alert embedded in n: an alert element, or alert XML
// written as escaped text (some feeds entity-encode it).
func (r indexReader) embedded(e *Entry, n *idxNode) {
	if e.Alert != nil {
		return
	}
	if n.alert != nil {
		r.parseAlert(e, n.alert)
		return
	}
	for _, c := range n.children {
		if c.alert != nil {
			r.parseAlert(e, c.alert)
			return
		}
	}
	// Escaped XML counts only when it names a CAP namespace, so that HTML
	// descriptions are not mistaken for alerts.
	text := strings.TrimSpace(string(n.text))
	if len(n.children) == 0 && strings.HasPrefix(text, "<") &&
		(strings.Contains(text, "urn:oasis:names:tc:emergency:cap:") || strings.Contains(text, Namespace10)) {
		r.parseAlert(e, []byte(text))
	}
}

// parseAlert reads an embedded alert leniently, keeping its problems.
func (indexReader) parseAlert(e *Entry, raw []byte) {
	a, problems, err := ParseLenient(raw)
	for _, p := range problems {
		e.Problems = append(e.Problems, p)
	}
	if err != nil {
		e.Problems = append(e.Problems, fmt.Errorf("cap: embedded alert: %w", err))
		return
	}
	e.Alert = a
}

// finish resolves and de-duplicates the links and notes an entry that leads
// to no alert.
func (r indexReader) finish(e *Entry, links []string) {
	seen := map[string]bool{}
	for _, l := range links {
		if l == "" {
			continue
		}
		abs, err := r.resolve(l)
		if err != nil {
			e.Problems = append(e.Problems, fmt.Errorf("cap: index link %q: %w", l, err))
			continue
		}
		if !seen[abs] {
			seen[abs] = true
			e.Links = append(e.Links, abs)
		}
	}
	if len(e.Links) == 0 && e.Alert == nil {
		e.Problems = append(e.Problems, ErrNoAlertLink)
	}
}

// resolve makes a link absolute against the index URL.
func (r indexReader) resolve(link string) (string, error) {
	u, err := url.Parse(link)
	if err != nil {
		return "", err
	}
	if r.base == nil {
		return u.String(), nil
	}
	return r.base.ResolveReference(u).String(), nil
}

// time parses an entry date, noting a bad one as a problem.
func (indexReader) time(e *Entry, field, s string) time.Time {
	t, err := parseIndexTime(s)
	if err != nil {
		e.Problems = append(e.Problems, fmt.Errorf("cap: index entry %s: %w", field, err))
	}
	return t
}

// indexTimeLayouts are the date forms found in indices: RFC 3339 (Atom and
// CAP) and the RFC 822 family (RSS), with numeric or named zones.
var indexTimeLayouts = [...]string{
	time.RFC3339, "2006-01-02T15:04:05-0700", "2006-01-02T15:04:05",
	time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST",
	time.RFC822Z, time.RFC822, "2 Jan 2006 15:04:05 -0700",
}

// parseIndexTime parses a date of an index; "" is the zero time.
func parseIndexTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range indexTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unknown date format %q", s)
}

// mediaType returns the lower-case media type without parameters.
func linkMediaType(s string) string {
	s, _, _ = strings.Cut(s, ";")
	return strings.ToLower(strings.TrimSpace(s))
}

// isCAPMediaType reports whether a link type names a CAP document.
func isCAPMediaType(t string) bool {
	return t == "application/cap+xml" || t == "application/common-alerting-protocol+xml"
}

// isPageMediaType reports whether a link type names something that is not a
// CAP document (web pages, images), so the link is not taken as CAP.
func isPageMediaType(t string) bool {
	return t == "text/html" || t == "application/xhtml+xml" || strings.HasPrefix(t, "image/") ||
		strings.HasPrefix(t, "audio/") || strings.HasPrefix(t, "video/")
}

// readSummary reads one cap:* element of an entry into its summary. A
// cap:area (as written by some feeds) contributes its children.
func readSummary(e *Entry, n *idxNode) {
	s := &e.Summary
	text := strings.TrimSpace(string(n.text))
	switch n.name.Local {
	case "identifier":
		s.Identifier = text
	case "sender":
		s.Sender = text
	case "sent":
		s.Sent = summaryTime(e, n.name.Local, text)
	case "status":
		s.Status = Status(text)
	case "msgType":
		s.MsgType = MsgType(text)
	case "scope":
		s.Scope = Scope(text)
	case "language":
		s.Language = text
	case "category":
		if text != "" {
			s.Category = append(s.Category, Category(text))
		}
	case "event":
		s.Event = text
	case "urgency":
		s.Urgency = Urgency(text)
	case "severity":
		s.Severity = Severity(text)
	case "certainty":
		s.Certainty = Certainty(text)
	case "effective":
		s.Effective = summaryTime(e, n.name.Local, text)
	case "onset":
		s.Onset = summaryTime(e, n.name.Local, text)
	case "expires":
		s.Expires = summaryTime(e, n.name.Local, text)
	case "headline":
		s.Headline = text
	case "web":
		s.Web = text
	case "areaDesc":
		if text != "" {
			s.AreaDesc = append(s.AreaDesc, text)
		}
	case "polygon":
		if text != "" {
			s.Polygons = append(s.Polygons, text)
		}
	case "circle":
		if text != "" {
			s.Circles = append(s.Circles, text)
		}
	case "geocode":
		s.Geocodes = append(s.Geocodes, namedValues(n)...)
	case "eventCode":
		s.EventCodes = append(s.EventCodes, namedValues(n)...)
	case "parameter":
		s.Parameters = append(s.Parameters, namedValues(n)...)
	case "area":
		for _, c := range n.children {
			readSummary(e, c)
		}
	}
}

// summaryTime parses a summary date, noting a bad one as a problem.
func summaryTime(e *Entry, field, s string) time.Time {
	return indexReader{}.time(e, "cap:"+field, s)
}

// namedValues reads the valueName/value pairs of an element; NWS indices
// put several pairs in one cap:geocode.
func namedValues(n *idxNode) []NamedValue {
	var out []NamedValue
	for _, c := range n.children {
		switch c.name.Local {
		case "valueName":
			out = append(out, NamedValue{ValueName: strings.TrimSpace(string(c.text))})
		case "value":
			if len(out) == 0 || out[len(out)-1].Value != "" {
				out = append(out, NamedValue{})
			}
			out[len(out)-1].Value = strings.TrimSpace(string(c.text))
		}
	}
	return out
}
