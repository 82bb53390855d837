package cap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
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
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := EncodeAlert(enc, a); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// EncodeAlert writes a as an alert element with its default namespace
// declared (xmlns="urn:oasis:names:tc:emergency:cap:1.2" or the namespace of
// a.Version) to enc, for embedding an alert in another document such as the
// content of an Atom entry. It does not flush enc. Errors are those of
// Marshal.
func EncodeAlert(enc *xml.Encoder, a *Alert) error {
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
	w := &writer{enc: enc, v: v}
	w.alert(a, ns)
	if w.err != nil {
		return w.err
	}
	return nil
}

// MarshalXML implements xml.Marshaler: an Alert inside a struct marshalled
// with encoding/xml is written as by EncodeAlert (the element name given by
// the enclosing struct is ignored: the element is always <alert> in the CAP
// namespace).
func (a *Alert) MarshalXML(enc *xml.Encoder, _ xml.StartElement) error {
	return EncodeAlert(enc, a)
}

// writer writes tokens, keeping the first error.
type writer struct {
	enc *xml.Encoder
	v   Version
	err error
}

func (w *writer) token(t xml.Token) {
	if w.err == nil {
		w.err = w.enc.EncodeToken(t)
	}
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *writer) start(name string) { w.token(xml.StartElement{Name: xml.Name{Local: name}}) }
func (w *writer) end(name string)   { w.token(xml.EndElement{Name: xml.Name{Local: name}}) }

// elem writes <name>value</name>, even for an empty value.
func (w *writer) elem(name, value string) {
	w.start(name)
	if value != "" {
		w.token(xml.CharData(value))
	}
	w.end(name)
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
	s, err := formatTime(t, w.v)
	if err != nil {
		w.fail(fmt.Errorf("cap: %s: %w", name, err))
		return
	}
	w.elem(name, s)
}

func (w *writer) number(f float64) string { return string(w.appendNumber(nil, f)) }

// appendNumber appends f in the shortest decimal form that reads back to
// the same float64 (xs:decimal has no exponent).
func (w *writer) appendNumber(b []byte, f float64) []byte {
	if !isFinite(f) {
		w.fail(fmt.Errorf("cap: cannot write the number %v", f))
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

func (w *writer) alert(a *Alert, ns string) {
	w.token(xml.StartElement{Name: xml.Name{Local: "alert"}, Attr: []xml.Attr{{Name: xml.Name{Local: "xmlns"}, Value: ns}}})
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
		w.elem("addresses", w.list("addresses", a.Addresses))
	}
	for _, c := range a.Codes {
		w.elem("code", c)
	}
	w.opt("note", a.Note)
	if len(a.References) > 0 {
		w.elem("references", w.references(a.References))
	}
	if a.Incidents != nil {
		w.elem("incidents", w.list("incidents", a.Incidents))
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
		w.elem("size", strconv.FormatInt(r.Size, 10))
	}
	w.opt("uri", r.URI)
	w.opt("derefUri", r.DerefURI)
	w.opt("digest", r.Digest)
	w.end("resource")
}

func (w *writer) area(ar *Area) {
	w.start("area")
	w.opt("areaDesc", ar.AreaDesc)
	var b []byte
	for _, poly := range ar.Polygons {
		b = b[:0]
		for i, pt := range poly {
			if i > 0 {
				b = append(b, ' ')
			}
			b = w.appendNumber(b, pt.Lat)
			b = append(b, ',')
			b = w.appendNumber(b, pt.Lon)
		}
		w.elem("polygon", string(b))
	}
	for _, c := range ar.Circles {
		w.elem("circle", w.number(c.Center.Lat)+","+w.number(c.Center.Lon)+" "+w.number(c.Radius))
	}
	w.namedValues("geocode", ar.Geocodes)
	if ar.Altitude != nil {
		w.elem("altitude", w.number(*ar.Altitude))
	}
	if ar.Ceiling != nil {
		w.elem("ceiling", w.number(*ar.Ceiling))
	}
	w.end("area")
}

// namedValues writes valueName/value pairs: as child elements since CAP
// 1.1, as "valueName=value" text in CAP 1.0.
func (w *writer) namedValues(name string, nvs []NamedValue) {
	for _, nv := range nvs {
		if w.v == Version10 {
			text := nv.Value
			if nv.ValueName != "" || strings.Contains(nv.Value, "=") {
				text = nv.ValueName + "=" + nv.Value
			}
			w.elem(name, text)
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
func (w *writer) list(name string, items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte(' ')
		}
		if it != "" && !strings.ContainsAny(it, " \t\n\r") && it[0] != '"' {
			b.WriteString(it)
			continue
		}
		if strings.Contains(it, `"`) {
			w.fail(fmt.Errorf("cap: %s: item %q cannot be written (white space and a double quote)", name, it))
		}
		b.WriteByte('"')
		b.WriteString(it)
		b.WriteByte('"')
	}
	return b.String()
}

func (w *writer) references(refs []Reference) string {
	var b strings.Builder
	for i, r := range refs {
		if i > 0 {
			b.WriteByte(' ')
		}
		s, err := r.format(w.v)
		if err != nil {
			w.fail(err)
		}
		b.WriteString(s)
	}
	return b.String()
}

// format writes r as "sender,identifier,sent".
func (r Reference) format(v Version) (string, error) {
	if r.Sender == "" || r.Identifier == "" || strings.ContainsAny(r.Sender+r.Identifier, " \t\n\r,") {
		return "", fmt.Errorf("cap: reference %q,%q cannot be written", r.Sender, r.Identifier)
	}
	sent, err := formatTime(r.Sent, v)
	if err != nil {
		return "", fmt.Errorf("cap: reference %s,%s: %w", r.Sender, r.Identifier, err)
	}
	return r.Sender + "," + r.Identifier + "," + sent, nil
}

// formatTime writes t as YYYY-MM-DDThh:mm:ss±hh:mm in its own zone offset
// (rounded down to the minute; -00:00 for UTC), with fractional seconds for
// CAP 1.0 only.
func formatTime(t time.Time, v Version) (string, error) {
	if t.Year() < 0 || t.Year() > 9999 {
		return "", fmt.Errorf("time %v outside years 0 to 9999", t)
	}
	_, offset := t.Zone()
	if offset%60 != 0 {
		// Offsets with seconds (historical local mean times) cannot be
		// written: use the instant in UTC instead.
		t, offset = t.UTC(), 0
	}
	layout := "2006-01-02T15:04:05"
	if v == Version10 {
		layout += ".999999999"
	}
	b := make([]byte, 0, 36)
	b = t.AppendFormat(b, layout)
	sign := byte('+')
	if offset <= 0 {
		sign, offset = '-', -offset
	}
	m := offset / 60
	b = append(b, sign, byte('0'+m/600), byte('0'+m/60%10), ':', byte('0'+m%60/10), byte('0'+m%10))
	return string(b), nil
}

// formatPoint writes pt as "lat,lon".
func formatPoint(pt Point) string {
	return strconv.FormatFloat(pt.Lat, 'f', -1, 64) + "," + strconv.FormatFloat(pt.Lon, 'f', -1, 64)
}
