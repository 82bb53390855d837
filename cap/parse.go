package cap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// Limits that bound the time and memory spent on one document.
const (
	// MaxAlertBytes is the largest document Parse and ParseLenient read:
	// 10 MiB. Larger input fails with ErrTooLarge before any parsing.
	MaxAlertBytes = 10 << 20
	// MaxDepth is the deepest element nesting accepted (a CAP alert nests
	// five deep, an XML signature a few more). Deeper input fails with
	// ErrTooLarge.
	MaxDepth = 64
	// MaxPolygonPoints is the most coordinate pairs read from one polygon.
	// A longer polygon is a *ValidationError and is not kept.
	MaxPolygonPoints = 100_000
	// MaxElements is the most elements read from one document (a large
	// alert has a few thousand). More fail with ErrTooLarge.
	MaxElements = 100_000
	// MaxProblems is the most problems reported for one document (or by one
	// Validate call). Those beyond are counted in one last ValidationError
	// of the field "alert" ("…and N more problems"), so that the error of a
	// hostile document stays small.
	MaxProblems = 100
)

// Parse reads one CAP 1.0, 1.1 or 1.2 alert and checks it against the
// specification: the version's schema (element order, cardinality,
// enumerations, value formats) and the rules of the specification's text
// (dateTime form, identifier characters, references, scope, polygons,
// circles, altitude and ceiling).
//
// The error, if any, wraps one of the sentinels: ErrTooLarge, ErrDTD,
// ErrMalformed or ErrNotCAP when the document cannot be read as an alert
// (it is then also a *ValidationError for the field "alert", so errors.As
// works on every error); otherwise it joins one *ValidationError per broken
// rule, at most MaxProblems of them (each wraps ErrInvalid; list them with
// ValidationErrors). The alert is nil whenever the error is not nil.
//
// The document must be well-formed: text or elements outside the root
// element and repeated attributes are ErrMalformed.
//
// The document is decoded in its declared encoding (UTF-8, ISO-8859-1 and
// the other encodings of the WHATWG list). DTDs are refused (ErrDTD), so no
// entity is ever expanded or fetched.
func Parse(data []byte) (*Alert, error) {
	a, probs, err := parse(data, false)
	if err != nil {
		return nil, err
	}
	if len(probs) > 0 {
		errs := make([]error, len(probs))
		for i, p := range probs {
			errs[i] = p
		}
		return nil, errors.Join(errs...)
	}
	return a, nil
}

// parse reads data in strict or lenient mode and returns the alert, the
// rules it breaks, and an error when the document cannot be read as an
// alert at all.
func parse(data []byte, lenient bool) (*Alert, []*ValidationError, error) {
	p := &parser{lenient: lenient}
	root, err := p.readTree(data)
	if err != nil {
		return nil, nil, err
	}
	if err := p.setVersion(root); err != nil {
		return nil, nil, err
	}
	a := p.alert(root)
	if lenient && a.empty() {
		return nil, nil, docError("CAP content", "", fmt.Errorf("%w: <alert> without any CAP value", ErrNotCAP))
	}
	model := a.validate()
	for _, m := range model.kept {
		if !p.reported(m) {
			p.addError(m)
		}
	}
	p.more += model.more
	return a, p.result(), nil
}

// node is an element of the document tree read by readTree.
type node struct {
	name  xml.Name
	attr  []xml.Attr // kept on the root only (namespace declarations)
	text  []byte     // character data directly inside the element
	kids  []*node
	depth int
}

// readTree reads the document into a tree of elements, enforcing the limits
// and well-formedness. In lenient mode a syntax error after the root element
// started ends the reading (the tree so far is kept), and text outside the
// root element and repeated attributes are reported and ignored.
func (p *parser) readTree(data []byte) (*node, error) {
	if len(data) > MaxAlertBytes {
		return nil, docError("size limit", "", fmt.Errorf("%w: %d bytes (limit %d)", ErrTooLarge, len(data), MaxAlertBytes))
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charset.NewReaderLabel
	var (
		root     *node
		stack    []*node
		done     bool
		elements int
		// stray is text before the root element, reported when the root
		// comes (a document of text only has "no root element").
		stray string
	)
	// malformed reports a well-formedness fault: the error in strict mode,
	// a problem in lenient mode (stop says whether reading ends there).
	malformed := func(msg string, stop bool) error {
		if !p.lenient {
			return docError("well-formed XML", msg, fmt.Errorf("%w: %s", ErrMalformed, msg))
		}
		if stop {
			p.add("alert", "malformed XML (document read up to the error)", msg)
		} else {
			p.add("alert", "malformed XML (ignored)", msg)
		}
		return nil
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if root == nil {
				return nil, docError("well-formed XML", "", fmt.Errorf("%w: no root element", ErrMalformed))
			}
			return root, nil
		}
		if err != nil {
			if p.lenient && root != nil {
				return root, malformed(err.Error(), true)
			}
			return nil, docError("well-formed XML", err.Error(), fmt.Errorf("%w: %w", ErrMalformed, err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if elements++; elements > MaxElements {
				return nil, docError("element limit", "", fmt.Errorf("%w: more than %d elements", ErrTooLarge, MaxElements))
			}
			if name, dup := repeatedAttr(t.Attr); dup {
				if err := malformed("attribute "+name+" repeated in <"+t.Name.Local+">", false); err != nil {
					return nil, err
				}
			}
			switch {
			case root == nil:
				if stray != "" {
					if err := malformed("text before the root element: "+strconv.Quote(clip(stray)), false); err != nil {
						return nil, err
					}
				}
				if t.Name.Local != "alert" {
					return nil, docError("root element", t.Name.Local,
						fmt.Errorf("%w: root element <%s>%s", ErrNotCAP, t.Name.Local, inNamespace(t.Name.Space)))
				}
				root = &node{name: t.Name, attr: t.Copy().Attr}
				stack = append(stack, root)
				continue
			case done:
				return root, malformed("element <"+t.Name.Local+"> after the root element", true)
			case len(stack) >= MaxDepth:
				return nil, docError("nesting limit", "", fmt.Errorf("%w: elements nested deeper than %d", ErrTooLarge, MaxDepth))
			}
			parent := stack[len(stack)-1]
			n := &node{name: t.Name, depth: len(stack)}
			parent.kids = append(parent.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			done = len(stack) == 0
		case xml.CharData:
			if len(stack) > 0 {
				// Comments and CDATA sections split text into several
				// tokens: append in place rather than concatenating
				// strings, which would be quadratic.
				top := stack[len(stack)-1]
				top.text = append(top.text, t...)
				continue
			}
			switch text := trimSpace(string(t)); {
			case text == "":
			case root == nil && stray == "":
				// The decoder reads a byte order mark as text. The first
				// stray text is enough for the report.
				stray = strings.TrimPrefix(text, "\ufeff")
			case root == nil:
			default:
				if err := malformed("text after the root element: "+strconv.Quote(clip(text)), false); err != nil {
					return nil, err
				}
			}
		case xml.Directive:
			return nil, docError("no DTD", string(t), fmt.Errorf("%w: %.40q", ErrDTD, t))
		}
	}
}

// repeatedAttr returns the name of an attribute given twice, if any (after
// namespace resolution, as XML Namespaces requires).
func repeatedAttr(attrs []xml.Attr) (string, bool) {
	for i := 1; i < len(attrs); i++ {
		for j := range i {
			if attrs[i].Name == attrs[j].Name {
				return attrs[i].Name.Local, true
			}
		}
	}
	return "", false
}

// empty reports whether a holds nothing but its version: then there is
// nothing to salvage.
func (a *Alert) empty() bool {
	return a.Identifier == "" && a.Sender == "" && a.Password == "" && a.Sent.IsZero() && a.Status == "" &&
		a.MsgType == "" && a.Source == "" && a.Scope == "" && a.Restriction == "" && a.Addresses == nil &&
		a.Codes == nil && a.Note == "" && a.References == nil && a.Incidents == nil && a.Infos == nil
}

func inNamespace(ns string) string {
	if ns == "" {
		return " in no namespace"
	}
	return " in namespace " + strconv.Quote(ns)
}

// parser turns the element tree into an Alert, collecting every broken rule.
// In lenient mode it repairs what it can and reports what it changed or
// dropped; in strict mode the same findings become the error.
type parser struct {
	problems
	lenient bool
	version Version
	ns      string // namespace of the alert element
	// unread holds the fields whose value could not be read at all: the
	// model has a placeholder there (zero, empty), whose model-rule
	// problems ("required") would only repeat the parser's.
	unread map[string]bool
}

// unreadable reports a value that could not be read at all.
func (p *parser) unreadable(field, rule, value string) {
	p.add(field, rule, value)
	if p.unread == nil {
		p.unread = make(map[string]bool)
	}
	p.unread[field] = true
}

// reported reports whether the model problem m repeats a parser problem:
// the same field and rule, or a field whose value could not be read.
func (p *parser) reported(m *ValidationError) bool {
	if p.unread[m.Field] {
		return true
	}
	for _, x := range p.kept {
		if x.Field == m.Field && x.Rule == m.Rule {
			return true
		}
	}
	return false
}

// problems collects broken rules, keeping at most MaxProblems and counting
// the others.
type problems struct {
	kept []*ValidationError
	more int
}

func (ps *problems) add(field, rule, value string) {
	if len(ps.kept) >= MaxProblems {
		ps.more++
		return
	}
	ps.kept = append(ps.kept, &ValidationError{Field: field, Rule: rule, Value: clip(value)})
}

func (ps *problems) addError(e *ValidationError) {
	if len(ps.kept) >= MaxProblems {
		ps.more++
		return
	}
	ps.kept = append(ps.kept, e)
}

// result returns the problems kept, followed by one that counts those left
// out.
func (ps *problems) result() []*ValidationError {
	if ps.more == 0 {
		return ps.kept
	}
	return append(ps.kept, &ValidationError{Field: "alert", Rule: "…and " + strconv.Itoa(ps.more) + " more problems"})
}

// clip shortens v to at most 80 bytes, cut at a rune boundary.
func clip(v string) string {
	const limit = 80
	if len(v) <= limit {
		return v
	}
	i := limit
	for i > 0 && !utf8.RuneStart(v[i]) {
		i--
	}
	return v[:i] + "…"
}

// setVersion finds the CAP version from the alert's namespace. In lenient
// mode an alert outside the CAP namespaces is read as the CAP version it
// declares a prefix for (as some producers do, declaring xmlns:cap but never
// using it), else as CAP 1.2.
func (p *parser) setVersion(root *node) error {
	p.ns = root.name.Space
	if v, ok := VersionOf(p.ns); ok {
		p.version = v
		return nil
	}
	if !p.lenient {
		return docError("namespace", p.ns, fmt.Errorf("%w: root element <alert>%s", ErrNotCAP, inNamespace(p.ns)))
	}
	p.version = Version12
	for _, at := range root.attr {
		if v, ok := VersionOf(at.Value); ok && (at.Name.Space == "xmlns" || at.Name.Local == "xmlns") {
			p.version = v
			break
		}
	}
	p.add("alert", "not in a CAP namespace (read as CAP "+string(p.version)+")", p.ns)
	return nil
}

// kids checks n's children against the schema sequence specs and calls fill
// for each child that is a CAP element of the sequence, with the path of the
// child ("parent.name[i]" for repeatable elements).
func (p *parser) kids(n *node, path string, specs []elemSpec, fill func(k *node, s *elemSpec, kpath loc)) {
	p.check(n, path, specs)
	var counts [24]int // a sequence has at most 17 elements
	for _, k := range n.kids {
		i := p.specIndex(k, specs)
		if i < 0 {
			continue
		}
		s := &specs[i]
		if s.ns != "" { // the XML signature: allowed, not read
			continue
		}
		c := counts[i]
		counts[i]++
		if s.max == 1 {
			if c > 0 {
				continue
			}
			fill(k, s, loc{path, s.name, -1})
			continue
		}
		fill(k, s, loc{path, s.name, c})
	}
}

// loc is the path of an element, built only when a problem is reported
// (most elements have none).
type loc struct {
	parent, name string
	idx          int // -1 for an element that cannot repeat
}

func (l loc) String() string {
	if l.idx < 0 {
		return l.parent + "." + l.name
	}
	return l.parent + "." + l.name + "[" + strconv.Itoa(l.idx) + "]"
}

// specIndex returns the index in specs of the element k, or -1. CAP elements
// must be in the alert's namespace; lenient mode matches them by local name.
func (p *parser) specIndex(k *node, specs []elemSpec) int {
	for i := range specs {
		s := &specs[i]
		if s.name != k.name.Local {
			continue
		}
		if s.ns != "" {
			if k.name.Space == s.ns {
				return i
			}
			continue
		}
		if k.name.Space == p.ns || p.lenient {
			return i
		}
	}
	return -1
}

// leafText returns the text of a simple element, reporting child elements
// inside it.
func (p *parser) leafText(k *node, path loc) string {
	if len(k.kids) > 0 {
		p.add(path.String(), p.dropped("child elements not allowed"), "<"+k.kids[0].name.Local+">")
	}
	return string(k.text)
}

// dropped appends the lenient note that the faulty part was not kept.
func (p *parser) dropped(rule string) string {
	if p.lenient {
		return rule + " (dropped)"
	}
	return rule
}

// str reads a free-text value: XML white space around it is removed.
func (p *parser) str(k *node, path loc) string {
	return trimSpace(p.leafText(k, path))
}

func (p *parser) alert(n *node) *Alert {
	a := &Alert{Version: p.version}
	p.kids(n, "alert", alertSpecs[p.version], func(k *node, s *elemSpec, path loc) {
		switch s.name {
		case "identifier":
			a.Identifier = p.token(k, path)
		case "sender":
			a.Sender = p.token(k, path)
		case "password":
			a.Password = p.str(k, path)
		case "sent":
			a.Sent = p.time(k, path)
		case "status":
			a.Status = enum(p, k, path, statusValues[p.version], statusValues[Version12])
		case "msgType":
			a.MsgType = enum(p, k, path, msgTypeValues, msgTypeValues)
		case "source":
			a.Source = p.str(k, path)
		case "scope":
			a.Scope = enum(p, k, path, scopeValues, scopeValues)
		case "restriction":
			a.Restriction = p.str(k, path)
		case "addresses":
			a.Addresses = p.list(k, path)
		case "code":
			a.Codes = append(a.Codes, p.str(k, path))
		case "note":
			a.Note = p.str(k, path)
		case "references":
			a.References = p.references(k, path)
		case "incidents":
			a.Incidents = p.list(k, path)
		case "info":
			a.Infos = append(a.Infos, p.info(k, path.String()))
		}
	})
	return a
}

func (p *parser) info(n *node, ipath string) Info {
	var in Info
	p.kids(n, ipath, infoSpecs[p.version], func(k *node, s *elemSpec, path loc) {
		switch s.name {
		case "language":
			in.Language = p.str(k, path)
		case "category":
			// Strict mode keeps empty values too, so that the model's
			// indices are the document's.
			if c := enum(p, k, path, categoryValues[p.version], categoryValues[Version12]); c != "" || !p.lenient {
				in.Category = append(in.Category, c)
			}
		case "event":
			in.Event = p.str(k, path)
		case "responseType":
			if r := enum(p, k, path, responseTypeValues[p.version], responseTypeValues[Version12]); r != "" || !p.lenient {
				in.ResponseTypes = append(in.ResponseTypes, r)
			}
		case "urgency":
			in.Urgency = enum(p, k, path, urgencyValues, urgencyValues)
		case "severity":
			in.Severity = enum(p, k, path, severityValues, severityValues)
		case "certainty":
			in.Certainty = enum(p, k, path, certaintyValues[p.version], allCertainties)
		case "audience":
			in.Audience = p.str(k, path)
		case "eventCode":
			in.EventCodes = append(in.EventCodes, p.namedValue(k, path))
		case "effective":
			in.Effective = p.time(k, path)
		case "onset":
			in.Onset = p.time(k, path)
		case "expires":
			in.Expires = p.time(k, path)
		case "senderName":
			in.SenderName = p.str(k, path)
		case "headline":
			in.Headline = p.str(k, path)
		case "description":
			in.Description = p.str(k, path)
		case "instruction":
			in.Instruction = p.str(k, path)
		case "web":
			in.Web = p.str(k, path)
		case "contact":
			in.Contact = p.str(k, path)
		case "parameter":
			in.Parameters = append(in.Parameters, p.namedValue(k, path))
		case "resource":
			in.Resources = append(in.Resources, p.resource(k, path.String()))
		case "area":
			in.Areas = append(in.Areas, p.area(k, path.String()))
		}
	})
	return in
}

func (p *parser) resource(n *node, rpath string) Resource {
	var r Resource
	p.kids(n, rpath, resourceSpecs[p.version], func(k *node, s *elemSpec, path loc) {
		switch s.name {
		case "resourceDesc":
			r.ResourceDesc = p.str(k, path)
		case "mimeType":
			r.MimeType = p.str(k, path)
		case "size":
			r.Size = p.size(k, path)
		case "uri":
			r.URI = p.str(k, path)
		case "derefUri":
			// base64 may be wrapped over lines: keep it as written, trimmed.
			r.DerefURI = p.str(k, path)
		case "digest":
			r.Digest = p.str(k, path)
		}
	})
	return r
}

func (p *parser) area(n *node, apath string) Area {
	var ar Area
	p.kids(n, apath, areaSpecs, func(k *node, s *elemSpec, path loc) {
		switch s.name {
		case "areaDesc":
			ar.AreaDesc = p.str(k, path)
		// Lenient mode drops the shapes it cannot use; strict mode keeps a
		// placeholder, so that the model's indices are the document's.
		case "polygon":
			if poly := p.polygon(k, path); poly != nil || !p.lenient {
				ar.Polygons = append(ar.Polygons, poly)
			}
		case "circle":
			if c, ok := p.circle(k, path); ok || !p.lenient {
				ar.Circles = append(ar.Circles, c)
			}
		case "geocode":
			ar.Geocodes = append(ar.Geocodes, p.namedValue(k, path))
		case "altitude":
			ar.Altitude = p.decimal(k, path)
		case "ceiling":
			ar.Ceiling = p.decimal(k, path)
		}
	})
	return ar
}

// namedValue reads an eventCode, parameter or geocode: valueName and value
// children since CAP 1.1, "valueName=value" text in CAP 1.0.
func (p *parser) namedValue(n *node, path loc) NamedValue {
	if p.version == Version10 || (p.lenient && len(n.kids) == 0 && bytes.IndexByte(n.text, '=') >= 0) {
		text := p.str(n, path)
		if p.version != Version10 {
			p.add(path.String(), "valueName=value text instead of <valueName> and <value> (converted)", text)
		}
		name, value, ok := strings.Cut(text, "=")
		if !ok {
			return NamedValue{Value: text}
		}
		return NamedValue{ValueName: trimSpace(name), Value: trimSpace(value)}
	}
	var nv NamedValue
	p.kids(n, path.String(), namedValueSpecs, func(k *node, s *elemSpec, kpath loc) {
		if s.name == "valueName" {
			nv.ValueName = p.str(k, kpath)
		} else {
			nv.Value = p.str(k, kpath)
		}
	})
	return nv
}

// token reads an identifier or sender: surrounding white space is an error
// (the value may not contain spaces), which lenient mode removes.
func (p *parser) token(k *node, path loc) string {
	raw := p.leafText(k, path)
	v := trimSpace(raw)
	if v != raw && v != "" {
		p.add(path.String(), p.fixed("white space around the value", "removed"), raw)
	}
	return v
}

// fixed appends the lenient note saying how a problem was repaired.
func (p *parser) fixed(rule, fix string) string {
	if p.lenient {
		return rule + " (" + fix + ")"
	}
	return rule
}

// enum reads an enumerated value. Strict mode wants one of allowed exactly;
// lenient mode also takes any value of all under case folding and with white
// space around it, and keeps unknown values (reporting them).
func enum[T ~string](p *parser, k *node, path loc, allowed, all []T) T {
	raw := p.leafText(k, path)
	v := T(trimSpace(raw))
	if oneOf(T(raw), allowed) {
		return T(raw)
	}
	if !p.lenient {
		switch {
		case v == "":
			p.unreadable(path.String(), "enumeration", raw)
		case oneOf(v, allowed):
			p.add(path.String(), "white space around the value", raw)
		default:
			p.add(path.String(), "enumeration", raw)
		}
		return v
	}
	if c, ok := foldOneOf(string(v), all); ok {
		switch {
		case !oneOf(c, allowed):
			p.add(path.String(), "enumeration value not in CAP "+string(p.version)+" (kept)", raw)
		case c != v:
			p.add(path.String(), "enumeration value miswritten (corrected to "+string(c)+")", raw)
		default:
			p.add(path.String(), "white space around the value (removed)", raw)
		}
		return c
	}
	if v == "" {
		p.unreadable(path.String(), "empty enumeration value (dropped)", "")
		return ""
	}
	p.add(path.String(), "enumeration (unknown value kept)", raw)
	return v
}

// time reads a dateTime. CAP wants YYYY-MM-DDThh:mm:ss±hh:mm (CAP 1.0, whose
// schema takes any xs:dateTime, also allows "Z" and fractional seconds).
// Lenient mode also takes "Z", +hhmm, a missing zone (read as UTC),
// fractional seconds (dropped in 1.1 and 1.2) and a space for the "T".
func (p *parser) time(k *node, path loc) time.Time {
	raw := p.leafText(k, path)
	v := trimSpace(raw)
	t, form, ok := parseDateTime(v)
	switch {
	case !ok:
		p.unreadable(path.String(), p.dropped("dateTime format"), raw)
		return time.Time{}
	case form == formCAP:
		return t
	case p.version == Version10 && form&^(formZ|formFraction) == 0:
		return t
	case !p.lenient:
		p.add(path.String(), "dateTime format", raw)
		return t
	}
	var fixes []string
	if form&formZ != 0 {
		fixes = append(fixes, `"Z" read as -00:00`)
	}
	if form&formNoZone != 0 {
		fixes = append(fixes, "no time zone: UTC assumed")
	}
	if form&formShortZone != 0 {
		fixes = append(fixes, "zone without colon")
	}
	if form&formSpace != 0 {
		fixes = append(fixes, `space instead of "T"`)
	}
	if form&formFraction != 0 && p.version != Version10 {
		t = t.Truncate(time.Second)
		fixes = append(fixes, "fractional seconds dropped")
	}
	p.add(path.String(), "dateTime format ("+strings.Join(fixes, "; ")+")", raw)
	return t
}

// list reads the white-space separated, double-quoted list of addresses or
// incidents.
func (p *parser) list(k *node, path loc) []string {
	raw := p.leafText(k, path)
	items, unterminated := splitList(raw)
	if unterminated {
		p.add(path.String(), p.fixed("unterminated double quote", "closed at the end"), raw)
	}
	return items
}

func (p *parser) references(k *node, path loc) []Reference {
	raw := p.leafText(k, path)
	if trimSpace(raw) == "" {
		p.add(path.String(), "empty references", "")
		return nil
	}
	var refs []Reference
	for f := range fields(raw) {
		parts := strings.Split(f, ",")
		if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
			p.add(path.String(), p.dropped("reference is not sender,identifier,sent"), f)
			continue
		}
		sent, form, ok := parseDateTime(parts[2])
		if !ok {
			p.add(path.String(), p.dropped("reference sent: dateTime format"), f)
			continue
		}
		if form != formCAP && !(p.version == Version10 && form&^(formZ|formFraction) == 0) {
			p.add(path.String(), p.fixed("reference sent: dateTime format", "read"), f)
			if form&formFraction != 0 && p.version != Version10 {
				sent = sent.Truncate(time.Second)
			}
		}
		refs = append(refs, Reference{Sender: parts[0], Identifier: parts[1], Sent: sent})
	}
	return refs
}

// polygon reads "lat,lon lat,lon ..." pairs. Lenient mode closes an open ring
// and drops a polygon it cannot use; strict mode checks the polygon rules on
// the model, unless a pair could not be read. It returns nil for no points.
func (p *parser) polygon(k *node, path loc) Polygon {
	raw := p.leafText(k, path)
	poly := make(Polygon, 0, min(strings.Count(raw, ","), MaxPolygonPoints))
	for f := range fields(raw) {
		if len(poly) == MaxPolygonPoints {
			p.unreadable(path.String(), p.dropped("more than "+strconv.Itoa(MaxPolygonPoints)+" points"), "")
			return nil
		}
		pt, ok := p.point(f)
		if !ok {
			p.unreadable(path.String(), p.dropped("coordinate pair is not lat,lon"), f)
			if p.lenient {
				return nil
			}
			continue
		}
		poly = append(poly, pt)
	}
	if len(poly) == 0 {
		p.unreadable(path.String(), p.dropped("empty polygon"), raw)
		return nil
	}
	if !p.lenient {
		return poly
	}
	if len(poly) >= 3 && poly[0] != poly[len(poly)-1] {
		poly = append(poly, poly[0])
		p.add(path.String(), "polygon not closed (closed by repeating the first point)", "")
	}
	for _, pt := range poly {
		if !pt.valid() {
			p.add(path.String(), "coordinate out of range (dropped)", formatPoint(pt))
			return nil
		}
	}
	if len(poly) < 4 {
		p.add(path.String(), "fewer than 4 points (dropped)", raw)
		return nil
	}
	return poly
}

// circle reads "lat,lon radius"; any XML white space separates the two.
func (p *parser) circle(k *node, path loc) (Circle, bool) {
	raw := p.leafText(k, path)
	var c Circle
	var parts []string
	for f := range fields(raw) {
		if parts = append(parts, f); len(parts) > 2 {
			break
		}
	}
	ok := len(parts) == 2
	if ok {
		c.Center, ok = p.point(parts[0])
	}
	if ok {
		c.Radius, ok = p.number(parts[1])
	}
	if !ok {
		p.unreadable(path.String(), p.dropped(`circle is not "lat,lon radius"`), raw)
		return Circle{}, false
	}
	if p.lenient && (!c.Center.valid() || c.Radius < 0) {
		p.add(path.String(), "circle out of range (dropped)", raw)
		return Circle{}, false
	}
	return c, true
}

func (p *parser) point(s string) (Point, bool) {
	lat, lon, ok := strings.Cut(s, ",")
	if !ok {
		return Point{}, false
	}
	var pt Point
	pt.Lat, ok = p.number(lat)
	if ok {
		pt.Lon, ok = p.number(lon)
	}
	return pt, ok
}

// number reads an xs:decimal ([+-]digits[.digits]); lenient mode takes any
// finite number strconv reads.
func (p *parser) number(s string) (float64, bool) {
	if !isDecimal(s) && !p.lenient {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f-f != 0 { // f-f != 0 for NaN and ±Inf
		return 0, false
	}
	return f, true
}

func (p *parser) decimal(k *node, path loc) *float64 {
	raw := p.leafText(k, path)
	f, ok := p.number(trimSpace(raw))
	if !ok {
		p.unreadable(path.String(), p.dropped("not a decimal number"), raw)
		return nil
	}
	return &f
}

func (p *parser) size(k *node, path loc) int64 {
	raw := p.leafText(k, path)
	n, err := strconv.ParseInt(strings.TrimPrefix(trimSpace(raw), "+"), 10, 64)
	if err != nil || n < 0 {
		p.unreadable(path.String(), p.dropped("not a size in bytes"), raw)
		return 0
	}
	return n
}

// isDecimal reports whether s is an xs:decimal: an optional sign, digits,
// and an optional fraction, with at least one digit.
func isDecimal(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// isXMLSpace reports whether c is XML white space.
func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// trimSpace removes XML white space (not other Unicode spaces) around s.
func trimSpace(s string) string {
	return strings.Trim(s, " \t\n\r")
}

// fields yields the XML-white-space separated fields of s.
func fields(s string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for i := 0; i < len(s); {
			for i < len(s) && isXMLSpace(s[i]) {
				i++
			}
			j := i
			for j < len(s) && !isXMLSpace(s[j]) {
				j++
			}
			if j > i && !yield(s[i:j]) {
				return
			}
			i = j
		}
	}
}

// splitList splits a white-space separated list whose items may be enclosed
// in double quotes (to hold white space). A quote opens an item only at its
// start; an unterminated quote runs to the end of s.
func splitList(s string) (items []string, unterminated bool) {
	for i := 0; i < len(s); {
		if isXMLSpace(s[i]) {
			i++
			continue
		}
		if s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				items = append(items, s[i+1:])
				return items, true
			}
			items = append(items, s[i+1:i+1+end])
			i += end + 2
			continue
		}
		j := i
		for j < len(s) && !isXMLSpace(s[j]) {
			j++
		}
		items = append(items, s[i:j])
		i = j
	}
	return items, false
}
