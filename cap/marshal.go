package cap

import (
	"encoding/xml"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/vokter-go/vokter/internal/xmltext"
)

// Marshal writes a as a CAP document in the namespace of a.Version (CAP 1.2
// when empty), preceded by the XML declaration and indented. Elements come
// in schema order; empty optional values are left out; times are written as
// YYYY-MM-DDThh:mm:ss±hh:mm in their own zone (UTC as -00:00, sub-second
// digits only for CAP 1.0, seconds truncated otherwise); numbers in the
// shortest decimal form that reads back to the same float64.
//
// Marshal does not validate a (see Validate): it writes what is there. It
// fails only for values XML or CAP cannot express: a list item holding both
// white space and a double quote, a reference part holding white space or a
// comma, a time outside years 0 to 9999, a non-finite number.
//
// For every alert Parse accepts, Parse(Marshal(a)) equals a; for every
// alert ParseLenient returns, ParseLenient(Marshal(a)) equals a.
func Marshal(a *Alert) ([]byte, error) {
	x := xmlWriter{buf: make([]byte, 0, 4096)}
	x.buf = append(x.buf, xml.Header...)
	w := writer{out: &x}
	if err := w.writeAlert(a); err != nil {
		return nil, err
	}
	return append(x.buf, '\n'), nil
}

// EncodeAlert writes a as an alert element with its default namespace
// declared (xmlns="urn:oasis:names:tc:emergency:cap:1.2" or the namespace of
// a.Version) to enc, for embedding an alert in another document such as the
// content of an Atom entry. It does not flush enc. Errors are those of
// Marshal.
func EncodeAlert(enc *xml.Encoder, a *Alert) error {
	w := writer{out: tokenSink{enc}}
	return w.writeAlert(a)
}

// MarshalXML implements xml.Marshaler: an Alert inside a struct marshalled
// with encoding/xml is written as by EncodeAlert (the element name given by
// the enclosing struct is ignored: the element is always <alert> in the CAP
// namespace).
func (a *Alert) MarshalXML(enc *xml.Encoder, _ xml.StartElement) error {
	return EncodeAlert(enc, a)
}

// writeAlert writes a to w.out, with the checks and errors of Marshal.
func (w *writer) writeAlert(a *Alert) error {
	if a == nil {
		return errors.New("cap: nil alert")
	}
	v := a.Version
	if v == "" {
		v = Version12
	}
	ns := v.Namespace()
	if ns == "" {
		return fmt.Errorf("cap: unknown CAP version %q", a.Version)
	}
	w.v, w.err = v, nil
	w.alert(a, ns)
	return w.err
}

// sink receives the elements of an alert. Marshal and WriteAtom append
// them to a buffer (*xmlWriter), several times faster than encoding a token
// per start tag, text and end tag; EncodeAlert, whose caller owns an
// xml.Encoder, encodes tokens (tokenSink). With the same indentation both
// write the same bytes (TestMarshalMatchesEncoder).
type sink interface {
	// start opens element name, declaring ns as the default namespace
	// unless ns is empty.
	start(name, ns string) error
	end(name string) error
	// leaf and leafBytes write <name>text</name>, also for an empty text.
	// A plain text (a number or time) holds nothing to escape.
	leaf(name, text string) error
	leafBytes(name string, text []byte, plain bool) error
}

// tokenSink encodes elements as xml.Encoder tokens.
type tokenSink struct{ enc *xml.Encoder }

func (s tokenSink) start(name, ns string) error {
	start := xml.StartElement{Name: xml.Name{Local: name}}
	if ns != "" {
		start.Attr = []xml.Attr{{Name: xml.Name{Local: "xmlns"}, Value: ns}}
	}
	return s.enc.EncodeToken(start)
}

func (s tokenSink) end(name string) error {
	return s.enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: name}})
}

func (s tokenSink) leaf(name, text string) error { return s.leafBytes(name, []byte(text), false) }

func (s tokenSink) leafBytes(name string, text []byte, _ bool) error {
	if err := s.start(name, ""); err != nil {
		return err
	}
	if len(text) > 0 {
		// EncodeToken escapes text at once, so text may be reused.
		if err := s.enc.EncodeToken(xml.CharData(text)); err != nil {
			return err
		}
	}
	return s.end(name)
}

// xmlWriter appends XML to buf in the layout of an xml.Encoder with
// Indent("", "  "), whose printer.writeIndent it mirrors: one element a
// line, two spaces a level, text inline, and the end tag of an element
// without children on its start tag's line. Text is escaped as encoding/xml
// escapes it (appendEscaped).
type xmlWriter struct {
	buf   []byte
	depth int
	// started is false until the first tag, which gets no newline before.
	started bool
	// inStart is true right after a start tag, so that an end tag
	// following it stays on its line.
	inStart bool
}

// spaces indents 16 levels at once.
const spaces = "                                "

// attr is an attribute of a start tag.
type attr struct{ name, value string }

// indent starts a line for a start tag (delta 1) or an end tag (delta -1),
// except for an end tag right after its start tag.
func (x *xmlWriter) indent(delta int) {
	if delta < 0 {
		x.depth--
		if x.inStart {
			x.inStart = false
			return
		}
	}
	if x.started {
		x.buf = append(x.buf, '\n')
	}
	x.started = true
	for n := 2 * x.depth; n > 0; n -= len(spaces) {
		x.buf = append(x.buf, spaces[:min(n, len(spaces))]...)
	}
	if delta > 0 {
		x.depth++
		x.inStart = true
	}
}

// startElem writes a start tag; attribute values are escaped as
// xml.Encoder escapes them (new lines included).
func (x *xmlWriter) startElem(name string, attrs ...attr) {
	x.indent(1)
	x.buf = append(x.buf, '<')
	x.buf = append(x.buf, name...)
	for _, a := range attrs {
		x.buf = append(x.buf, ' ')
		x.buf = append(x.buf, a.name...)
		x.buf = append(x.buf, '=', '"')
		x.buf = xmltext.AppendEscaped(x.buf, a.value, true)
		x.buf = append(x.buf, '"')
	}
	x.buf = append(x.buf, '>')
}

func (x *xmlWriter) endElem(name string) {
	x.indent(-1)
	x.buf = append(x.buf, '<', '/')
	x.buf = append(x.buf, name...)
	x.buf = append(x.buf, '>')
}

// writeLeaf writes <name>text</name>. New lines in text are escaped when
// escapeNewline, as xml.Encoder does for struct fields, or kept, as it does
// for character data tokens (and so for alerts).
func writeLeaf[T string | []byte](x *xmlWriter, name string, text T, escapeNewline bool) {
	x.startElem(name)
	x.buf = xmltext.AppendEscaped(x.buf, text, escapeNewline)
	x.endElem(name)
}

func (x *xmlWriter) start(name, ns string) error {
	if ns == "" {
		x.startElem(name)
	} else {
		x.startElem(name, attr{"xmlns", ns})
	}
	return nil
}

func (x *xmlWriter) end(name string) error {
	x.endElem(name)
	return nil
}

func (x *xmlWriter) leaf(name, text string) error {
	writeLeaf(x, name, text, false)
	return nil
}

func (x *xmlWriter) leafBytes(name string, text []byte, plain bool) error {
	if !plain {
		writeLeaf(x, name, text, false)
		return nil
	}
	// Numbers and times make a large part of alerts; they need no scan.
	x.startElem(name)
	x.buf = append(x.buf, text...)
	x.endElem(name)
	return nil
}

// writer walks an alert in schema order, keeping the first error: once
// there is one, nothing more is written. WriteAtom reuses one for all
// alerts.
type writer struct {
	out sink
	v   Version
	err error
	// text holds the text of a number, time or list element while it is
	// composed; it is reused from element to element.
	text []byte
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *writer) start(name string) {
	if w.err == nil {
		w.err = w.out.start(name, "")
	}
}

func (w *writer) end(name string) {
	if w.err == nil {
		w.err = w.out.end(name)
	}
}

// elem writes <name>value</name>, even for an empty value.
func (w *writer) elem(name, value string) {
	if w.err == nil {
		w.err = w.out.leaf(name, value)
	}
}

// elemText writes <name>w.text</name>.
func (w *writer) elemText(name string) {
	if w.err == nil {
		w.err = w.out.leafBytes(name, w.text, false)
	}
}

// elemPlain writes <name>w.text</name> for a w.text that holds numbers or
// a time, nothing to escape.
func (w *writer) elemPlain(name string) {
	if w.err == nil {
		w.err = w.out.leafBytes(name, w.text, true)
	}
}

// opt writes <name>value</name> unless value is empty.
func (w *writer) opt(name, value string) {
	if value != "" {
		w.elem(name, value)
	}
}

func (w *writer) time(name string, t time.Time) {
	if t.IsZero() {
		return
	}
	var err error
	if w.text, err = appendTime(w.text[:0], t, w.v); err != nil {
		w.fail(fmt.Errorf("cap: %s: %w", name, err))
		return
	}
	w.elemPlain(name)
}

// number writes <name>f</name>.
func (w *writer) number(name string, f float64) {
	w.text = w.appendNumber(w.text[:0], f)
	w.elemPlain(name)
}

// appendNumber appends f in the shortest decimal form that reads back to
// the same float64 (xs:decimal has no exponent).
func (w *writer) appendNumber(b []byte, f float64) []byte {
	if !isFinite(f) {
		w.fail(fmt.Errorf("cap: cannot write the number %v", f))
	}
	return appendDecimal(b, f)
}

// appendDecimal appends f as strconv.AppendFloat(b, f, 'f', -1, 64) does,
// several times faster for the numbers of CAP documents: coordinates and
// radii with at most 7 decimals.
//
// For |f| < 2^20, m = round(f·10^7) is below 2^53, so m and 10^7 are exact
// float64s and m/10^7 is the correctly rounded value of the decimal
// m·10^-7, as ParseFloat computes it. When it equals f, that decimal reads
// back as f; decimals of 7 digits lie further apart than float64s there,
// so it is the only one, and strconv's shortest form is it without its
// trailing zeros. Other numbers go to strconv.
func appendDecimal(b []byte, f float64) []byte {
	const decimals, scale = 7, 1e7
	a := math.Abs(f)
	if !(a < 1<<20) { // also NaN
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	m := math.Round(a * scale)
	if m/scale != a {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	n, d := uint64(m), decimals
	for d > 0 && n%10 == 0 {
		n /= 10
		d--
	}
	// Digits from the last: d decimals, the point, the integer part.
	var digits [24]byte
	i := len(digits)
	for range d {
		i--
		digits[i] = byte('0' + n%10)
		n /= 10
	}
	if d > 0 {
		i--
		digits[i] = '.'
	}
	for {
		i--
		digits[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if math.Signbit(f) {
		i--
		digits[i] = '-'
	}
	return append(b, digits[i:]...)
}

func (w *writer) alert(a *Alert, ns string) {
	w.err = w.out.start("alert", ns)
	w.opt("identifier", a.Identifier)
	w.opt("sender", a.Sender)
	w.time("sent", a.Sent)
	w.opt("status", string(a.Status))
	w.opt("msgType", string(a.MsgType))
	w.opt("password", a.Password)
	w.opt("source", a.Source)
	w.opt("scope", string(a.Scope))
	w.opt("restriction", a.Restriction)
	if a.Addresses != nil {
		w.list("addresses", a.Addresses)
	}
	for _, c := range a.Codes {
		w.elem("code", c)
	}
	w.opt("note", a.Note)
	if len(a.References) > 0 {
		w.references(a.References)
	}
	if a.Incidents != nil {
		w.list("incidents", a.Incidents)
	}
	for i := range a.Infos {
		w.info(&a.Infos[i])
	}
	w.end("alert")
}

func (w *writer) info(in *Info) {
	w.start("info")
	w.opt("language", in.Language)
	for _, c := range in.Category {
		w.elem("category", string(c))
	}
	w.opt("event", in.Event)
	for _, r := range in.ResponseTypes {
		w.elem("responseType", string(r))
	}
	w.opt("urgency", string(in.Urgency))
	w.opt("severity", string(in.Severity))
	w.opt("certainty", string(in.Certainty))
	w.opt("audience", in.Audience)
	w.namedValues("eventCode", in.EventCodes)
	w.time("effective", in.Effective)
	w.time("onset", in.Onset)
	w.time("expires", in.Expires)
	w.opt("senderName", in.SenderName)
	w.opt("headline", in.Headline)
	w.opt("description", in.Description)
	w.opt("instruction", in.Instruction)
	w.opt("web", in.Web)
	w.opt("contact", in.Contact)
	w.namedValues("parameter", in.Parameters)
	for i := range in.Resources {
		w.resource(&in.Resources[i])
	}
	for i := range in.Areas {
		w.area(&in.Areas[i])
	}
	w.end("info")
}

func (w *writer) resource(r *Resource) {
	w.start("resource")
	w.opt("resourceDesc", r.ResourceDesc)
	w.opt("mimeType", r.MimeType)
	if r.Size != 0 {
		w.text = strconv.AppendInt(w.text[:0], r.Size, 10)
		w.elemPlain("size")
	}
	w.opt("uri", r.URI)
	w.opt("derefUri", r.DerefURI)
	w.opt("digest", r.Digest)
	w.end("resource")
}

func (w *writer) area(ar *Area) {
	w.start("area")
	w.opt("areaDesc", ar.AreaDesc)
	for _, poly := range ar.Polygons {
		b := w.text[:0]
		for i, pt := range poly {
			if i > 0 {
				b = append(b, ' ')
			}
			b = w.appendNumber(b, pt.Lat)
			b = append(b, ',')
			b = w.appendNumber(b, pt.Lon)
		}
		w.text = b
		w.elemPlain("polygon")
	}
	for _, c := range ar.Circles {
		b := w.appendNumber(w.text[:0], c.Center.Lat)
		b = append(b, ',')
		b = w.appendNumber(b, c.Center.Lon)
		b = append(b, ' ')
		w.text = w.appendNumber(b, c.Radius)
		w.elemPlain("circle")
	}
	w.namedValues("geocode", ar.Geocodes)
	if ar.Altitude != nil {
		w.number("altitude", *ar.Altitude)
	}
	if ar.Ceiling != nil {
		w.number("ceiling", *ar.Ceiling)
	}
	w.end("area")
}

// namedValues writes valueName/value pairs: as child elements since CAP
// 1.1, as "valueName=value" text in CAP 1.0.
func (w *writer) namedValues(name string, nvs []NamedValue) {
	for _, nv := range nvs {
		if w.v == Version10 {
			if nv.ValueName == "" && !strings.Contains(nv.Value, "=") {
				w.elem(name, nv.Value)
				continue
			}
			w.text = append(append(append(w.text[:0], nv.ValueName...), '='), nv.Value...)
			w.elemText(name)
			continue
		}
		w.start(name)
		w.elem("valueName", nv.ValueName)
		w.elem("value", nv.Value)
		w.end(name)
	}
}

// list writes a white-space separated list, quoting the items that are
// empty, hold white space or start with a double quote.
func (w *writer) list(name string, items []string) {
	b := w.text[:0]
	for i, it := range items {
		if i > 0 {
			b = append(b, ' ')
		}
		if it != "" && !strings.ContainsAny(it, " \t\n\r") && it[0] != '"' {
			b = append(b, it...)
			continue
		}
		if strings.Contains(it, `"`) {
			w.fail(fmt.Errorf("cap: %s: item %q cannot be written (white space and a double quote)", name, it))
		}
		b = append(b, '"')
		b = append(b, it...)
		b = append(b, '"')
	}
	w.text = b
	w.elemText(name)
}

func (w *writer) references(refs []Reference) {
	b := w.text[:0]
	for i, r := range refs {
		if i > 0 {
			b = append(b, ' ')
		}
		var err error
		if b, err = r.appendTo(b, w.v); err != nil {
			w.fail(err)
		}
	}
	w.text = b
	w.elemText("references")
}

// format writes r as "sender,identifier,sent".
func (r Reference) format(v Version) (string, error) {
	b, err := r.appendTo(nil, v)
	return string(b), err
}

// appendTo appends r as "sender,identifier,sent"; on error it returns dst
// unchanged.
func (r Reference) appendTo(dst []byte, v Version) ([]byte, error) {
	const forbidden = " \t\n\r,"
	if r.Sender == "" || r.Identifier == "" || strings.ContainsAny(r.Sender, forbidden) || strings.ContainsAny(r.Identifier, forbidden) {
		return dst, fmt.Errorf("cap: reference %q,%q cannot be written", r.Sender, r.Identifier)
	}
	b := append(append(append(append(dst, r.Sender...), ','), r.Identifier...), ',')
	b, err := appendTime(b, r.Sent, v)
	if err != nil {
		return dst, fmt.Errorf("cap: reference %s,%s: %w", r.Sender, r.Identifier, err)
	}
	return b, nil
}

// appendTime appends t as YYYY-MM-DDThh:mm:ss±hh:mm in its own zone offset
// (rounded down to the minute; -00:00 for UTC), with fractional seconds for
// CAP 1.0 only. On error it returns dst unchanged.
func appendTime(dst []byte, t time.Time, v Version) ([]byte, error) {
	if t.Year() < 0 || t.Year() > 9999 {
		return dst, fmt.Errorf("time %v outside years 0 to 9999", t)
	}
	_, offset := t.Zone()
	if offset%60 != 0 {
		// Offsets with seconds (historical local mean times) cannot be
		// written: use the instant in UTC instead.
		t, offset = t.UTC(), 0
	}
	layout := "2006-01-02T15:04:05"
	if v == Version10 {
		layout = "2006-01-02T15:04:05.999999999"
	}
	b := t.AppendFormat(dst, layout)
	sign := byte('+')
	if offset <= 0 {
		sign, offset = '-', -offset
	}
	m := offset / 60
	return append(b, sign, byte('0'+m/600), byte('0'+m/60%10), ':', byte('0'+m%60/10), byte('0'+m%10)), nil
}

// formatPoint writes pt as "lat,lon".
func formatPoint(pt Point) string {
	return strconv.FormatFloat(pt.Lat, 'f', -1, 64) + "," + strconv.FormatFloat(pt.Lon, 'f', -1, 64)
}
