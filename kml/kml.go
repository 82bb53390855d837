package kml

import (
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	gokml "github.com/twpayne/go-kml/v3"
	"github.com/twpayne/go-kml/v3/sphere"
	capxml "github.com/vokter-go/vokter/cap"
	"github.com/vokter-go/vokter/internal/xmltext"
)

// Defaults of Options.
const (
	DefaultName            = "CAP alerts"
	DefaultRefreshInterval = 5 * time.Minute
)

// The refresh modes of a NetworkLink (Options.RefreshMode).
const (
	RefreshOnInterval = "onInterval"
	RefreshOnExpire   = "onExpire"
	RefreshOnChange   = "onChange"
)

// circleMaxError is the largest distance, as a fraction of the radius,
// between a circle and the polygon drawn for it (1% gives 16 vertices).
const circleMaxError = 0.01

// Options configures Write. A nil *Options is the zero value.
type Options struct {
	// Name is the document name. Defaults to DefaultName.
	Name string
	// RefreshURL, when not empty, makes Write emit a document holding only
	// a NetworkLink that loads this URL (typically a /cap2kml query) and
	// refreshes it; the alerts are then ignored.
	RefreshURL string
	// RefreshMode is RefreshOnInterval, RefreshOnExpire or RefreshOnChange.
	// Defaults to RefreshOnInterval.
	RefreshMode string
	// RefreshInterval is the reload period of RefreshOnInterval. Defaults
	// to DefaultRefreshInterval.
	RefreshInterval time.Duration
	// AlertURL, when not nil, gives the link written in each description;
	// an empty result falls back to the info's web element.
	AlertURL func(*capxml.Alert) string
}

// severityStyles are the shared styles, one per CAP severity, with the ids
// AlertFeed's style sheet used. Colours are red, orange, yellow, green and
// grey; fills are half transparent so that the map stays readable.
var severityStyles = [...]struct {
	id  string
	rgb [3]uint8
}{
	{"extreme", [3]uint8{0xff, 0x00, 0x00}},
	{"severe", [3]uint8{0xff, 0x80, 0x00}},
	{"moderate", [3]uint8{0xff, 0xff, 0x00}},
	{"minor", [3]uint8{0x00, 0xc0, 0x00}},
	{"unknown", [3]uint8{0x80, 0x80, 0x80}},
}

// styleID returns the id of the shared style of a severity.
func styleID(s capxml.Severity) string {
	switch s {
	case capxml.SeverityExtreme:
		return "extreme"
	case capxml.SeveritySevere:
		return "severe"
	case capxml.SeverityModerate:
		return "moderate"
	case capxml.SeverityMinor:
		return "minor"
	}
	return "unknown"
}

// chunkSize is the size at which Write hands its buffer to the writer, so
// that memory does not grow with the number of alerts.
const chunkSize = 64 << 10

// Write writes the alerts as a KML 2.2 document valid against the OGC
// schema: shared styles by severity, then one Placemark per info block and
// area, in the order of the alerts. With Options.RefreshURL set it writes a
// NetworkLink document instead.
func Write(w io.Writer, alerts []*capxml.Alert, opts *Options) error {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	d := &docWriter{buf: make([]byte, 0, 2*chunkSize)}
	d.buf = append(d.buf, xml.Header...)
	d.buf = append(d.buf, `<kml xmlns="`+gokml.Namespace+`">`...)
	d.depth = 1
	d.open("Document")
	leaf(d, "name", o.Name)
	if o.RefreshURL != "" {
		if err := d.networkLink(&o); err != nil {
			return err
		}
	} else {
		for i, a := range alerts {
			if a == nil {
				return fmt.Errorf("%w: alert %d is nil", ErrNilAlert, i)
			}
		}
		leaf(d, "open", "1")
		d.styles()
		for _, a := range alerts {
			for j := range a.Infos {
				in := &a.Infos[j]
				if len(in.Areas) == 0 {
					d.placemark(&o, a, in, nil)
				}
				for k := range in.Areas {
					d.placemark(&o, a, in, &in.Areas[k])
				}
			}
			if len(d.buf) >= chunkSize {
				if _, err := w.Write(d.buf); err != nil {
					return fmt.Errorf("kml: %w", err)
				}
				d.buf = d.buf[:0]
			}
		}
	}
	d.close("Document")
	d.buf = append(d.buf, "\n</kml>\n"...)
	if _, err := w.Write(d.buf); err != nil {
		return fmt.Errorf("kml: %w", err)
	}
	return nil
}

// docWriter appends a KML document to buf. It writes the bytes go-kml's
// WriteIndent(w, "", "  ") writes for the same elements, an xml.Encoder's
// layout (one element a line, two spaces a level, text inline) and
// escaping, without building go-kml's tree of elements, which costs
// allocations and an encoder call per element; testdata/golden pins the
// bytes. Every element written with children has some, so the layout
// needs no case for an empty element.
type docWriter struct {
	buf   []byte
	depth int
	// text holds the text of numbers, times and descriptions while it is
	// composed; it is reused from element to element.
	text []byte
}

// spaces indents 16 levels at once.
const spaces = "                                "

// newline starts a line at the current depth.
func (d *docWriter) newline() {
	d.buf = append(d.buf, '\n')
	for n := 2 * d.depth; n > 0; n -= len(spaces) {
		d.buf = append(d.buf, spaces[:min(n, len(spaces))]...)
	}
}

func (d *docWriter) open(name string) {
	d.newline()
	d.buf = append(append(append(d.buf, '<'), name...), '>')
	d.depth++
}

// openAttr opens an element with one attribute, whose value must need no
// escaping (the ids and names of this package).
func (d *docWriter) openAttr(name, attr, value string) {
	d.newline()
	d.buf = append(append(d.buf, '<'), name...)
	d.buf = append(append(append(append(d.buf, ' '), attr...), `="`...), value...)
	d.buf = append(d.buf, `">`...)
	d.depth++
}

func (d *docWriter) close(name string) {
	d.depth--
	d.newline()
	d.buf = append(append(append(d.buf, "</"...), name...), '>')
}

// leaf writes <name>text</name> on a line.
func leaf[T string | []byte](d *docWriter, name string, text T) {
	d.newline()
	d.buf = append(append(append(d.buf, '<'), name...), '>')
	d.buf = xmltext.AppendEscaped(d.buf, text, false) // go-kml wrote text as xml.CharData: new lines kept
	d.buf = append(append(append(d.buf, "</"...), name...), '>')
}

// leafPlain writes <name>text</name> on a line for a text that holds
// numbers or a time, nothing to escape: coordinates make most of a
// document and need no scan.
func (d *docWriter) leafPlain(name string, text []byte) {
	d.newline()
	d.buf = append(append(append(d.buf, '<'), name...), '>')
	d.buf = append(d.buf, text...)
	d.buf = append(append(append(d.buf, "</"...), name...), '>')
}

// styles writes the shared styles; colours are aabbggrr.
func (d *docWriter) styles() {
	for _, s := range severityStyles {
		r, g, b := s.rgb[0], s.rgb[1], s.rgb[2]
		d.openAttr("Style", "id", s.id)
		d.open("LineStyle")
		d.text = hex.AppendEncode(d.text[:0], []byte{0xff, b, g, r})
		d.leafPlain("color", d.text)
		leaf(d, "width", "2")
		d.close("LineStyle")
		d.open("PolyStyle")
		d.text = hex.AppendEncode(d.text[:0], []byte{0x80, b, g, r})
		d.leafPlain("color", d.text)
		d.close("PolyStyle")
		d.close("Style")
	}
}

// networkLink writes the NetworkLink of a self-refreshing document.
func (d *docWriter) networkLink(o *Options) error {
	mode, interval := o.RefreshMode, o.RefreshInterval
	switch mode {
	case "", RefreshOnInterval:
		mode = RefreshOnInterval
		if interval == 0 {
			interval = DefaultRefreshInterval
		}
		if interval < 0 {
			return fmt.Errorf("%w: negative refresh interval %v", ErrBadOptions, interval)
		}
	case RefreshOnExpire, RefreshOnChange:
	default:
		return fmt.Errorf("%w: unknown refresh mode %q", ErrBadOptions, o.RefreshMode)
	}
	d.open("NetworkLink")
	leaf(d, "name", o.Name)
	leaf(d, "open", "1")
	d.open("Link")
	leaf(d, "href", o.RefreshURL)
	leaf(d, "refreshMode", mode)
	if mode == RefreshOnInterval {
		// In seconds, computed as go-kml does.
		d.text = strconv.AppendFloat(d.text[:0], float64(interval)/float64(time.Second), 'f', -1, 64)
		d.leafPlain("refreshInterval", d.text)
	}
	d.close("Link")
	d.close("NetworkLink")
	return nil
}

// placemark writes the Placemark of one info block and area (area nil for
// an info without areas), children in the order of the KML schema: name,
// Snippet, description, TimeSpan, styleUrl, ExtendedData, geometry. An area
// without polygons or circles gets a Placemark without geometry, so that it
// still lists the alert.
func (d *docWriter) placemark(o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) {
	name := in.Headline
	if name == "" {
		name = in.Event
	}
	if name == "" {
		name = a.Identifier
	}
	d.open("Placemark")
	leaf(d, "name", name)
	if area != nil && area.AreaDesc != "" {
		leaf(d, "Snippet", area.AreaDesc)
	}
	d.text = appendDescription(d.text[:0], o, a, in, area)
	leaf(d, "description", d.text)
	d.timeSpan(a, in)
	d.text = append(append(d.text[:0], '#'), styleID(in.Severity)...)
	leaf(d, "styleUrl", d.text)
	d.open("ExtendedData")
	d.data("identifier", a.Identifier)
	d.data("sender", a.Sender)
	d.dataTime("sent", a.Sent)
	d.data("event", in.Event)
	d.data("urgency", string(in.Urgency))
	d.data("severity", string(in.Severity))
	d.data("certainty", string(in.Certainty))
	d.close("ExtendedData")
	if area != nil {
		d.geometry(area)
	}
	d.close("Placemark")
}

// data writes a Data element of ExtendedData.
func (d *docWriter) data(name, value string) {
	d.openAttr("Data", "name", name)
	leaf(d, "value", value)
	d.close("Data")
}

// dataTime writes a Data element holding t in RFC 3339 (empty for the
// zero time).
func (d *docWriter) dataTime(name string, t time.Time) {
	d.openAttr("Data", "name", name)
	d.text = appendTime(d.text[:0], t)
	d.leafPlain("value", d.text)
	d.close("Data")
}

// timeSpan writes the info's validity, the period of Alert.InfoPeriod with
// capxml.DefaultTTL (as the cap package's active= query and Alert.Expired
// use it): from its effective time, else the alert's sent time, to its
// expires time, else sent + DefaultTTL; nothing when neither is known.
func (d *docWriter) timeSpan(a *capxml.Alert, in *capxml.Info) {
	begin, end := infoSpan(a, in)
	if begin.IsZero() && end.IsZero() {
		return
	}
	d.open("TimeSpan")
	if !begin.IsZero() {
		d.text = appendTime(d.text[:0], begin)
		d.leafPlain("begin", d.text)
	}
	if !end.IsZero() {
		d.text = appendTime(d.text[:0], end)
		d.leafPlain("end", d.text)
	}
	d.close("TimeSpan")
}

// infoSpan returns the period of the info block; a bound that is not known
// (no effective time nor sent time; no expires time nor sent time) is zero.
func infoSpan(a *capxml.Alert, in *capxml.Info) (begin, end time.Time) {
	begin, end = a.InfoPeriod(in, capxml.DefaultTTL)
	if a.Sent.IsZero() && in.Expires.IsZero() {
		end = time.Time{}
	}
	return begin, end
}

// geometry writes the area's shapes: a Polygon per CAP polygon and per
// circle (a circle of radius 0, NaN or +Inf is a Point), grouped in a MultiGeometry when
// there are several; nothing when the area has none.
func (d *docWriter) geometry(area *capxml.Area) {
	shapes := len(area.Circles)
	for _, p := range area.Polygons {
		if len(p) > 0 {
			shapes++
		}
	}
	if shapes == 0 {
		return
	}
	if shapes > 1 {
		d.open("MultiGeometry")
	}
	for _, p := range area.Polygons {
		if len(p) == 0 {
			continue
		}
		d.text = d.text[:0]
		for i, pt := range p {
			if i > 0 {
				d.text = append(d.text, ' ')
			}
			// CAP writes lat,lon; KML wants lon,lat.
			d.text = appendCoordinate(d.text, gokml.Coordinate{Lon: pt.Lon, Lat: pt.Lat})
		}
		d.polygon()
	}
	for _, c := range area.Circles {
		center := gokml.Coordinate{Lon: c.Center.Lon, Lat: c.Center.Lat}
		radius := c.Radius * 1000 // km to m
		// A radius that is not a number or too large for float64 metres
		// would make sphere.Circle panic: draw the centre as for 0.
		if !(radius > 0) || math.IsInf(radius, 1) {
			d.open("Point")
			d.text = appendCoordinate(d.text[:0], center)
			d.leafPlain("coordinates", d.text)
			d.close("Point")
			continue
		}
		d.text = d.text[:0]
		for i, pt := range sphere.FAI.Circle(center, radius, radius*circleMaxError) {
			if i > 0 {
				d.text = append(d.text, ' ')
			}
			d.text = appendCoordinate(d.text, pt)
		}
		d.polygon()
	}
	if shapes > 1 {
		d.close("MultiGeometry")
	}
}

// polygon writes a tessellated Polygon whose outer ring has the
// coordinates in d.text.
func (d *docWriter) polygon() {
	d.open("Polygon")
	leaf(d, "tessellate", "1")
	d.open("outerBoundaryIs")
	d.open("LinearRing")
	d.leafPlain("coordinates", d.text)
	d.close("LinearRing")
	d.close("outerBoundaryIs")
	d.close("Polygon")
}

// appendCoordinate appends c as "lon,lat" (its altitude, always 0 here, is
// left out as go-kml leaves out a zero one).
func appendCoordinate(b []byte, c gokml.Coordinate) []byte {
	b = strconv.AppendFloat(b, c.Lon, 'f', -1, 64)
	b = append(b, ',')
	return strconv.AppendFloat(b, c.Lat, 'f', -1, 64)
}

// appendDescription appends the balloon HTML of a placemark: the facts a
// reader needs to act, every value escaped as html.EscapeString does.
func appendDescription(b []byte, o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) []byte {
	row := func(label, value string) {
		if value == "" {
			return
		}
		b = append(append(append(b, "<b>"...), label...), ":</b> "...)
		b = appendHTML(b, value, false)
		b = append(b, "<br/>\n"...)
	}
	// RFC 3339 times hold nothing to escape.
	rowTime := func(label string, t time.Time) {
		if t.IsZero() {
			return
		}
		b = append(append(append(b, "<b>"...), label...), ":</b> "...)
		b = appendTime(b, t)
		b = append(b, "<br/>\n"...)
	}
	b = append(b, "<p>"...)
	row("Event", in.Event)
	if area != nil {
		row("Area", area.AreaDesc)
	}
	row("Severity", string(in.Severity))
	row("Urgency", string(in.Urgency))
	row("Certainty", string(in.Certainty))
	row("Status", string(a.Status))
	row("Type", string(a.MsgType))
	rowTime("Sent", a.Sent)
	rowTime("Effective", in.Effective)
	rowTime("Onset", in.Onset)
	rowTime("Expires", in.Expires)
	row("Sender", firstNonEmpty(in.SenderName, a.Sender))
	b = append(b, "</p>\n"...)
	for _, para := range [...]string{in.Description, in.Instruction} {
		if para != "" {
			b = append(b, "<p>"...)
			b = appendHTML(b, para, true)
			b = append(b, "</p>\n"...)
		}
	}
	link := in.Web
	if o.AlertURL != nil {
		link = firstNonEmpty(o.AlertURL(a), link)
	}
	if link != "" {
		b = append(b, `<p><a href="`...)
		b = appendHTML(b, link, false)
		b = append(b, `">`...)
		b = appendHTML(b, link, false)
		b = append(b, "</a></p>\n"...)
	}
	return b
}

// appendHTML appends s escaped as html.EscapeString escapes it, with each
// new line also preceded by <br/> when br.
func appendHTML(b []byte, s string, br bool) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\n':
			if !br {
				continue
			}
			esc = "<br/>\n"
		default:
			continue
		}
		b = append(append(b, s[last:i]...), esc...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// appendTime appends t in RFC 3339, nothing for the zero time.
func appendTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return b
	}
	return t.AppendFormat(b, time.RFC3339)
}

// firstNonEmpty returns the first of its arguments that is not empty.
func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
