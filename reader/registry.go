package reader

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/andybalholm/cascadia"
)

// Namespaces of the feed formats the built-in registry claims by their root.
const (
	atomNS   = "http://www.w3.org/2005/Atom"
	atom03NS = "http://purl.org/atom/ns#"
	rdfNS    = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	xhtmlNS  = "http://www.w3.org/1999/xhtml"
)

// Document is the text read from one body.
type Document struct {
	Text      string // clean, valid UTF-8 text
	MediaType string // the media type actually used (e.g. "text/html")
	Title     string // when the format has one (HTML <title>, feed title), else ""
}

// Reader reads one media type's body (already bounded, raw bytes) into text.
//
// The body handed to a Reader is always valid UTF-8: the [Registry] has
// decoded it from the charset found in the byte order mark, the Content-Type
// or the document itself (see [ReadParams].Charset), and has rewritten an XML
// declaration's encoding to UTF-8. A Reader must not keep body after
// returning, should honour ctx in long loops, and may be called from several
// goroutines at once.
type Reader interface {
	Read(ctx context.Context, body []byte, params ReadParams) (string, error)
}

// DocumentReader is an optional interface for a [Reader] that also finds a
// document's title. [Registry.Read] calls ReadDocument instead of Read when a
// reader implements it; the MediaType it returns is ignored.
type DocumentReader interface {
	Reader
	ReadDocument(ctx context.Context, body []byte, params ReadParams) (Document, error)
}

// ReadParams tells a [Reader] what it is reading.
type ReadParams struct {
	// MediaType is the media type the body is read as, in lower case without
	// parameters (e.g. "text/html"); it may differ from the declared one when
	// the body was sniffed.
	MediaType string
	// Params holds the declared Content-Type parameters (lower-case keys),
	// nil when there were none.
	Params map[string]string
	// Charset is the canonical name of the encoding the body was decoded
	// from (e.g. "utf-8", "windows-1251").
	Charset string
	// Root is the XML root element when the reader was chosen by it (see
	// [Registry.RegisterXMLRoot]), else the zero Name.
	Root xml.Name
	// Selector, when not nil, keeps only the text of the matching elements.
	// Readers of formats without a document tree ignore it.
	Selector cascadia.Matcher
}

// xmlRoot is one claim of XML documents by their root element.
type xmlRoot struct {
	nsPrefix, local string
	rd              Reader // nil: use the reader registered for mediaType
	mediaType       string // "": keep the XML media type being read
}

// Registry chooses a [Reader] for each body and runs it. The zero Registry
// has no readers; [NewRegistry] returns one with all built-in readers. A
// Registry is safe for concurrent use, including Register during reads.
type Registry struct {
	mu      sync.RWMutex
	readers map[string]Reader
	roots   []xmlRoot
}

// NewRegistry returns a Registry with all built-in readers registered:
//
//   - text/html (HTML), application/xhtml+xml (XHTML);
//   - application/xml and text/xml (generic XML, also any "+xml" type);
//   - application/rss+xml, application/atom+xml, and XML documents whose
//     root is an RSS <rss>, RSS 1.0 <rdf:RDF> or Atom <feed> (feeds);
//   - application/json and text/json (also any "+json" type), and the JSON
//     Lines types application/x-ndjson and application/jsonl;
//   - text/plain (also any other "text/" type).
func NewRegistry() *Registry {
	r := &Registry{}
	r.Register("text/html", htmlReader{})
	r.Register("application/xhtml+xml", htmlReader{xhtml: true})
	r.Register("application/xml", xmlReader{})
	r.Register("text/xml", xmlReader{})
	r.Register("application/rss+xml", feedReader{})
	r.Register("application/atom+xml", feedReader{})
	r.Register("application/json", jsonReader{})
	r.Register("text/json", jsonReader{})
	r.Register("application/x-ndjson", jsonReader{})
	r.Register("application/jsonl", jsonReader{})
	r.Register("text/plain", textReader{})
	r.Register("application/cap+xml", capReader{})
	r.roots = append(r.roots,
		xmlRoot{local: "rss", mediaType: "application/rss+xml"},
		xmlRoot{nsPrefix: rdfNS, local: "RDF", mediaType: "application/rss+xml"},
		xmlRoot{nsPrefix: atomNS, local: "feed", mediaType: "application/atom+xml"},
		xmlRoot{nsPrefix: atom03NS, local: "feed", mediaType: "application/atom+xml"},
		xmlRoot{nsPrefix: capOASISNamespace, local: "alert", rd: capReader{}},
		xmlRoot{nsPrefix: capIncidentNS10, local: "alert", rd: capReader{}},
	)
	return r
}

// Register makes rd the reader of mediaType (parameters and case are
// ignored), replacing any previous one. A nil rd removes the registration.
func (r *Registry) Register(mediaType string, rd Reader) {
	mt := normalizeMediaType(mediaType)
	r.mu.Lock()
	defer r.mu.Unlock()
	if rd == nil {
		delete(r.readers, mt)
		return
	}
	if r.readers == nil {
		r.readers = make(map[string]Reader)
	}
	r.readers[mt] = rd
}

// RegisterXMLRoot makes rd the reader of XML documents whose root element
// has the local name localName and a namespace that starts with
// namespacePrefix ("" matches any namespace, including none). It applies to
// bodies served as application/xml, text/xml or any unregistered "+xml" type,
// to bodies sniffed as XML, and to bodies served as text/html that start
// with an XML declaration. The longest matching prefix wins; registering the
// same prefix and name again replaces the reader. The root is found by a
// bounded, token-level look at the first 8 KiB. Such documents report the
// XML media type they were served or sniffed as.
func (r *Registry) RegisterXMLRoot(namespacePrefix, localName string, rd Reader) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, c := range r.roots {
		if c.nsPrefix == namespacePrefix && c.local == localName {
			r.roots[i] = xmlRoot{nsPrefix: namespacePrefix, local: localName, rd: rd}
			return
		}
	}
	r.roots = append(r.roots, xmlRoot{nsPrefix: namespacePrefix, local: localName, rd: rd})
}

// Read reads body, served with the Content-Type header contentType ("" when
// missing), into a Document. opts may be nil.
//
// The reader is chosen from the media type; a missing, malformed, generic
// (application/octet-stream) or unknown type is replaced by a sniff of the
// first bytes. At most opts.MaxBytes+1 bytes are read from body; a longer
// body fails with [ErrTooLarge]. An empty body gives an empty Text. Errors
// wrap [ErrInvalidOptions], [ErrTooLarge], [ErrUnsupportedMediaType],
// [ErrBinary], [ErrTooDeep], [ErrMalformed] or ctx.Err().
func (r *Registry) Read(ctx context.Context, contentType string, body io.Reader, opts *Options) (*Document, error) {
	p, err := opts.compile()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := readBounded(ctx, body, p.maxBytes)
	if err != nil {
		return nil, err
	}
	declared, params := parseContentType(contentType)
	if len(raw) == 0 {
		mt := declared
		if mt == "" {
			mt = "text/plain"
		}
		return &Document{MediaType: mt}, nil
	}

	// A byte order mark or a declared charset holds whatever the format:
	// decode now, so that sniffing sees UTF-8.
	data, charsetName := raw, ""
	if label, n := bomCharset(raw); n > 0 {
		enc, name := lookupCharset(label)
		data, charsetName = decode(raw[n:], enc, name), name
	} else if enc, name := lookupCharset(params["charset"]); enc != nil {
		data, charsetName = decode(raw, enc, name), name
	}

	c, err := r.choose(declared, data)
	if err != nil {
		return nil, err
	}
	if charsetName == "" {
		label := ""
		switch kindOf(c.mediaType) {
		case kindHTML:
			label = metaCharset(data)
		case kindXHTML:
			if label = xmlDeclCharset(data); label == "" {
				label = metaCharset(data)
			}
		case kindXML:
			label = xmlDeclCharset(data)
		}
		enc, name := lookupCharset(label)
		if enc == nil || strings.HasPrefix(name, "utf-16") {
			// No usable declaration (a UTF-16 label in an ASCII-readable
			// document is wrong by construction): UTF-8 when the bytes
			// are UTF-8, else, for HTML and text, the legacy default of
			// browsers and charset.DetermineEncoding. XML and JSON are
			// UTF-8 by definition.
			enc, name = nil, "utf-8"
			if legacyDefault(c.mediaType) && !utf8.Valid(data) {
				enc, name = lookupCharset("windows-1252")
			}
		}
		data, charsetName = decode(data, enc, name), name
	}
	if k := kindOf(c.mediaType); k == kindXML || k == kindXHTML {
		data = fixXMLDecl(data)
	}

	rp := ReadParams{MediaType: c.mediaType, Params: params, Charset: charsetName, Root: c.root, Selector: p.selector}
	var doc Document
	if dr, ok := c.reader.(DocumentReader); ok {
		doc, err = dr.ReadDocument(ctx, data, rp)
	} else {
		doc.Text, err = c.reader.Read(ctx, data, rp)
	}
	if err != nil {
		return nil, err
	}
	return &Document{
		Text:      p.filter(strings.ToValidUTF8(doc.Text, "\uFFFD")),
		MediaType: c.mediaType,
		Title:     strings.ToValidUTF8(doc.Title, "\uFFFD"),
	}, nil
}

// Read returns the clean text of body, served with the Content-Type
// contentType, read with a fresh default registry and default options; see
// [Registry.Read], which also reports the media type used and the title.
func Read(ctx context.Context, contentType string, body io.Reader) (string, error) {
	doc, err := NewRegistry().Read(ctx, contentType, body, nil)
	if err != nil {
		return "", err
	}
	return doc.Text, nil
}

// choice is the reader chosen for one body.
type choice struct {
	mediaType string
	reader    Reader
	root      xml.Name
}

// choose picks the reader for a body served as declared ("" when missing).
func (r *Registry) choose(declared string, data []byte) (choice, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if declared != "" && !isGeneric(declared) {
		mt, rd := r.lookup(declared)
		if rd == nil {
			if isBinaryType(declared) {
				detected, binary := looksBinary(data)
				return choice{}, &MediaTypeError{MediaType: declared, Detected: detected, Binary: binary}
			}
			return r.sniff(declared, data)
		}
		if detected, binary := looksBinary(data); binary {
			return choice{}, &MediaTypeError{MediaType: declared, Detected: detected, Binary: true}
		}
		c := choice{mediaType: mt, reader: rd}
		switch {
		case mt == "application/xml" || mt == "text/xml":
			if root, ok := xmlRootOf(data); ok {
				c = r.claim(c, root)
			}
		case mt == "text/html":
			// Feeds are often served as text/html; an HTML page never
			// starts with an XML declaration unless it is XHTML.
			if hasXMLDecl(data) {
				if root, ok := xmlRootOf(data); ok && !isHTMLRoot(root) {
					if claimed := r.claim(choice{mediaType: "application/xml"}, root); claimed.reader != nil {
						c = claimed
					}
				}
			}
		}
		return c, nil
	}
	return r.sniff(declared, data)
}

// sniff picks the reader from the body's first bytes.
func (r *Registry) sniff(declared string, data []byte) (choice, error) {
	if detected, binary := looksBinary(data); binary {
		return choice{}, &MediaTypeError{MediaType: declared, Detected: detected, Binary: true}
	}
	s, detected, ok := sniffContent(data)
	if !ok {
		return choice{}, &MediaTypeError{MediaType: declared, Detected: detected}
	}
	mt, rd := r.lookup(s.mediaType)
	c := choice{mediaType: mt, reader: rd}
	if s.hasRoot {
		c = r.claim(c, s.root)
	}
	if c.reader == nil {
		return choice{}, &MediaTypeError{MediaType: declared, Detected: s.mediaType}
	}
	return c, nil
}

// claim returns the choice for an XML document with the given root: the
// reader that claims the root, or c unchanged. The caller holds r.mu.
func (r *Registry) claim(c choice, root xml.Name) choice {
	best := -1
	for i, cl := range r.roots {
		if cl.local == root.Local && strings.HasPrefix(root.Space, cl.nsPrefix) &&
			(best < 0 || len(cl.nsPrefix) >= len(r.roots[best].nsPrefix)) {
			best = i
		}
	}
	if best < 0 {
		if isHTMLRoot(root) && root.Space == xhtmlNS {
			if mt, rd := r.lookup("application/xhtml+xml"); rd != nil {
				return choice{mediaType: mt, reader: rd, root: root}
			}
		}
		return c
	}
	cl := r.roots[best]
	if cl.rd != nil {
		return choice{mediaType: c.mediaType, reader: cl.rd, root: root}
	}
	if mt, rd := r.lookup(cl.mediaType); rd != nil {
		return choice{mediaType: mt, reader: rd, root: root}
	}
	return c
}

// lookup returns the reader for a media type and the media type it is
// registered under: the exact type, else the "+xml"/"+json" suffix's generic
// reader, else text/plain for any text type. The caller holds r.mu.
func (r *Registry) lookup(mt string) (string, Reader) {
	if rd := r.readers[mt]; rd != nil {
		return mt, rd
	}
	var fallback string
	switch {
	case strings.HasSuffix(mt, "+xml"):
		fallback = "application/xml"
	case strings.HasSuffix(mt, "+json"):
		fallback = "application/json"
	case strings.HasPrefix(mt, "text/"):
		fallback = "text/plain"
	default:
		return mt, nil
	}
	return fallback, r.readers[fallback]
}

// kind groups media types by where they may declare their charset.
type kind int

const (
	kindOther kind = iota
	kindHTML       // <meta charset>
	kindXHTML      // XML declaration, then <meta charset>
	kindXML        // XML declaration
)

func kindOf(mt string) kind {
	switch {
	case mt == "text/html":
		return kindHTML
	case mt == "application/xhtml+xml":
		return kindXHTML
	case mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml"):
		return kindXML
	}
	return kindOther
}

// legacyDefault reports whether an undeclared body of media type mt that is
// not valid UTF-8 is read as windows-1252: HTML and plain text, which
// predate UTF-8; XML, XHTML and JSON are UTF-8 unless declared otherwise.
func legacyDefault(mt string) bool {
	return mt == "text/html" || (strings.HasPrefix(mt, "text/") && kindOf(mt) == kindOther)
}

// isGeneric reports whether a declared media type says nothing about the
// format, so the body must be sniffed.
func isGeneric(mt string) bool {
	switch mt {
	case "application/octet-stream", "binary/octet-stream", "application/binary",
		"application/unknown", "application/x-unknown", "unknown/unknown",
		"application/x-download", "application/force-download", "*/*":
		return true
	}
	return false
}

// isBinaryType reports whether a declared media type is a binary format we
// never read, whatever the body looks like.
func isBinaryType(mt string) bool {
	major, _, _ := strings.Cut(mt, "/")
	switch major {
	case "image", "audio", "video", "font", "model":
		return true
	}
	return false
}

// normalizeMediaType returns the lower-case media type without parameters.
func normalizeMediaType(s string) string {
	if mt, _, err := mime.ParseMediaType(s); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(s, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// parseContentType parses a Content-Type header; a malformed one counts as
// missing.
func parseContentType(s string) (string, map[string]string) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	mt, params, err := mime.ParseMediaType(s)
	if err != nil {
		return "", nil
	}
	if len(params) == 0 {
		params = nil
	}
	return mt, params
}

// readBounded reads all of body, failing with ErrTooLarge past limit bytes
// and with ctx.Err() once ctx is done.
func readBounded(ctx context.Context, body io.Reader, limit int64) ([]byte, error) {
	if body == nil {
		return nil, nil
	}
	size := 512
	// Bodies that know their length are refused without reading them.
	if l, ok := body.(interface{ Len() int }); ok {
		if int64(l.Len()) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		size = l.Len() + 1
	}
	buf := make([]byte, 0, size)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := buf[len(buf):cap(buf)]
		if over := limit + 1 - int64(len(buf)); int64(len(room)) > over {
			room = room[:over]
		}
		n, err := body.Read(room)
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reader: reading body: %w", err)
		}
	}
}
