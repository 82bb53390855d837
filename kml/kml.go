package kml

import (
	"bufio"
	"fmt"
	"html"
	"image/color"
	"io"
	"strings"
	"time"

	gokml "github.com/twpayne/go-kml/v3"
	"github.com/twpayne/go-kml/v3/sphere"

	capxml "github.com/vokter-go/vokter/cap"
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
	case capxml.SeverityExtreme, capxml.SeveritySevere, capxml.SeverityModerate, capxml.SeverityMinor:
		return strings.ToLower(string(s))
	}
	return "unknown"
}

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
	var doc *gokml.DocumentElement
	if o.RefreshURL != "" {
		nl, err := networkLink(&o)
		if err != nil {
			return err
		}
		doc = gokml.Document(gokml.Name(o.Name), nl)
	} else {
		doc = gokml.Document(gokml.Name(o.Name), gokml.Open(true))
		for _, s := range severityStyles {
			line := color.RGBA{R: s.rgb[0], G: s.rgb[1], B: s.rgb[2], A: 0xff}
			fill := color.RGBA{R: s.rgb[0], G: s.rgb[1], B: s.rgb[2], A: 0x80}
			doc.Append(gokml.SharedStyle(s.id,
				gokml.LineStyle(gokml.Color(line), gokml.Width(2)),
				gokml.PolyStyle(gokml.Color(fill)),
			))
		}
		for i, a := range alerts {
			if a == nil {
				return fmt.Errorf("%w: alert %d is nil", ErrNilAlert, i)
			}
			for j := range a.Infos {
				in := &a.Infos[j]
				if len(in.Areas) == 0 {
					doc.Append(placemark(&o, a, in, nil))
				}
				for k := range in.Areas {
					doc.Append(placemark(&o, a, in, &in.Areas[k]))
				}
			}
		}
	}
	bw := bufio.NewWriter(w)
	if err := gokml.KML(doc).WriteIndent(bw, "", "  "); err != nil {
		return fmt.Errorf("kml: %w", err)
	}
	if err := bw.WriteByte('\n'); err != nil {
		return fmt.Errorf("kml: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("kml: %w", err)
	}
	return nil
}

// networkLink builds the NetworkLink of a self-refreshing document.
func networkLink(o *Options) (gokml.Element, error) {
	link := gokml.Link(gokml.Href(o.RefreshURL))
	switch o.RefreshMode {
	case "", RefreshOnInterval:
		interval := o.RefreshInterval
		if interval == 0 {
			interval = DefaultRefreshInterval
		}
		if interval < 0 {
			return nil, fmt.Errorf("%w: negative refresh interval %v", ErrBadOptions, interval)
		}
		link.Append(gokml.RefreshMode(gokml.RefreshModeOnInterval), gokml.RefreshInterval(interval))
	case RefreshOnExpire:
		link.Append(gokml.RefreshMode(gokml.RefreshModeOnExpire))
	case RefreshOnChange:
		link.Append(gokml.RefreshMode(gokml.RefreshModeOnChange))
	default:
		return nil, fmt.Errorf("%w: unknown refresh mode %q", ErrBadOptions, o.RefreshMode)
	}
	return gokml.NetworkLink(gokml.Name(o.Name), gokml.Open(true), link), nil
}

// placemark builds the Placemark of one info block and area (area nil for an
// info without areas), children in the order of the KML schema: name,
// Snippet, description, TimeSpan, styleUrl, ExtendedData, geometry. An area
// without polygons or circles gets a Placemark without geometry, so that it
// still lists the alert.
func placemark(o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) gokml.Element {
	name := in.Headline
	if name == "" {
		name = in.Event
	}
	if name == "" {
		name = a.Identifier
	}
	pm := gokml.Placemark(gokml.Name(name))
	if area != nil && area.AreaDesc != "" {
		pm.Append(gokml.Snippet(area.AreaDesc))
	}
	pm.Append(gokml.Description(description(o, a, in, area)))
	if ts := timeSpan(a, in); ts != nil {
		pm.Append(ts)
	}
	pm.Append(gokml.StyleURL("#" + styleID(in.Severity)))
	pm.Append(gokml.ExtendedData(
		gokml.Data("identifier", gokml.Value(a.Identifier)),
		gokml.Data("sender", gokml.Value(a.Sender)),
		gokml.Data("sent", gokml.Value(formatTime(a.Sent))),
		gokml.Data("event", gokml.Value(in.Event)),
		gokml.Data("urgency", gokml.Value(string(in.Urgency))),
		gokml.Data("severity", gokml.Value(string(in.Severity))),
		gokml.Data("certainty", gokml.Value(string(in.Certainty))),
	))
	if area != nil {
		if g := geometry(area); g != nil {
			pm.Append(g)
		}
	}
	return pm
}

// timeSpan returns the info's validity, from its effective time (or onset,
// or the alert's sent time) to its expiry; nil when neither is known.
func timeSpan(a *capxml.Alert, in *capxml.Info) gokml.Element {
	begin := in.Effective
	if begin.IsZero() {
		begin = in.Onset
	}
	if begin.IsZero() {
		begin = a.Sent
	}
	var children []gokml.Element
	if !begin.IsZero() {
		children = append(children, gokml.Begin(begin))
	}
	if !in.Expires.IsZero() {
		children = append(children, gokml.End(in.Expires))
	}
	if len(children) == 0 {
		return nil
	}
	return gokml.TimeSpan(children...)
}

// geometry returns the area's shapes: a Polygon per CAP polygon and per
// circle (a circle of radius 0 is a Point), grouped in a MultiGeometry when
// there are several; nil when the area has none.
func geometry(area *capxml.Area) gokml.Element {
	var shapes []gokml.Element
	for _, p := range area.Polygons {
		if len(p) == 0 {
			continue
		}
		coords := make([]gokml.Coordinate, len(p))
		for i, pt := range p {
			// CAP writes lat,lon; KML wants lon,lat.
			coords[i] = gokml.Coordinate{Lon: pt.Lon, Lat: pt.Lat}
		}
		shapes = append(shapes, polygon(coords))
	}
	for _, c := range area.Circles {
		center := gokml.Coordinate{Lon: c.Center.Lon, Lat: c.Center.Lat}
		if c.Radius <= 0 {
			shapes = append(shapes, gokml.Point(gokml.Coordinates(center)))
			continue
		}
		radius := c.Radius * 1000 // km to m
		shapes = append(shapes, polygon(sphere.FAI.Circle(center, radius, radius*circleMaxError)))
	}
	switch len(shapes) {
	case 0:
		return nil
	case 1:
		return shapes[0]
	}
	return gokml.MultiGeometry(shapes...)
}

// polygon returns a tessellated Polygon with the given outer ring.
func polygon(ring []gokml.Coordinate) gokml.Element {
	return gokml.Polygon(
		gokml.Tessellate(true),
		gokml.OuterBoundaryIs(gokml.LinearRing(gokml.Coordinates(ring...))),
	)
}

// description returns the balloon HTML of a placemark: the facts a reader
// needs to act, every value escaped.
func description(o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) string {
	var b strings.Builder
	row := func(label, value string) {
		if value == "" {
			return
		}
		b.WriteString("<b>")
		b.WriteString(label)
		b.WriteString(":</b> ")
		b.WriteString(html.EscapeString(value))
		b.WriteString("<br/>\n")
	}
	b.WriteString("<p>")
	row("Event", in.Event)
	if area != nil {
		row("Area", area.AreaDesc)
	}
	row("Severity", string(in.Severity))
	row("Urgency", string(in.Urgency))
	row("Certainty", string(in.Certainty))
	row("Status", string(a.Status))
	row("Type", string(a.MsgType))
	row("Sent", formatTime(a.Sent))
	row("Effective", formatTime(in.Effective))
	row("Onset", formatTime(in.Onset))
	row("Expires", formatTime(in.Expires))
	row("Sender", firstNonEmpty(in.SenderName, a.Sender))
	b.WriteString("</p>\n")
	for _, para := range []string{in.Description, in.Instruction} {
		if para != "" {
			b.WriteString("<p>")
			b.WriteString(strings.ReplaceAll(html.EscapeString(para), "\n", "<br/>\n"))
			b.WriteString("</p>\n")
		}
	}
	link := in.Web
	if o.AlertURL != nil {
		link = firstNonEmpty(o.AlertURL(a), link)
	}
	if link != "" {
		esc := html.EscapeString(link)
		b.WriteString(`<p><a href="` + esc + `">` + esc + "</a></p>\n")
	}
	return b.String()
}

// formatTime formats t as RFC 3339, "" for the zero time.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
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
