package kml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"html"
	"image/color"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gokml "github.com/twpayne/go-kml/v3"
	"github.com/twpayne/go-kml/v3/sphere"

	capxml "github.com/vokter-go/vokter/cap"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// loadAlerts parses every alert of testdata/alerts, in name order.
func loadAlerts(t testing.TB) []*capxml.Alert {
	t.Helper()
	files, err := filepath.Glob("testdata/alerts/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test alerts: %v", err)
	}
	var out []*capxml.Alert
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := capxml.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, a)
	}
	return out
}

// validate checks doc against the OGC KML 2.2 schema with xmllint --nonet
// (its imports resolve to testdata/schemas).
func validate(t *testing.T, doc []byte) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils): schema validation skipped")
	}
	path := filepath.Join(t.TempDir(), "doc.kml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--nonet", "--noout", "--schema", "testdata/schemas/kml22.xsd", path).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}

func TestWrite(t *testing.T) {
	t.Parallel()
	alerts := loadAlerts(t)
	tests := []struct {
		name   string
		alerts []*capxml.Alert
		opts   *Options
	}{
		{"alerts.kml", alerts, &Options{Name: "Test alerts",
			AlertURL: func(a *capxml.Alert) string { return "https://example.org/alerts/" + a.Identifier + ".cap" }}},
		{"empty.kml", nil, nil},
		{"refresh.kml", alerts, &Options{Name: "Severe alerts", RefreshURL: "https://example.org/cap2kml?severity=Severe&bbox=-10,35,30,60"}},
		{"refresh_expire.kml", nil, &Options{RefreshURL: "https://example.org/cap2kml", RefreshMode: RefreshOnExpire}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			if err := Write(&buf, tt.alerts, tt.opts); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata/golden", tt.name)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s (run go test -update and review the diff)", path)
			}
			validate(t, buf.Bytes())
		})
	}
}

// placemarks decodes the placemarks of a document.
type placemarks struct {
	Placemarks []struct {
		Name        string `xml:"name"`
		StyleURL    string `xml:"styleUrl"`
		Description string `xml:"description"`
		Polygons    []struct {
			Coordinates string `xml:"outerBoundaryIs>LinearRing>coordinates"`
		} `xml:"Polygon"`
		MultiPolygons []struct{} `xml:"MultiGeometry>Polygon"`
		Points        []struct{} `xml:"Point"`
	} `xml:"Document>Placemark"`
}

func TestWritePlacemarks(t *testing.T) {
	t.Parallel()
	sent := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	a := &capxml.Alert{Identifier: "A1", Sender: "s@example.org", Sent: sent, Infos: []capxml.Info{
		{Event: "Fire", Headline: "Fire <now> & here", Severity: capxml.SeverityExtreme, Areas: []capxml.Area{
			{AreaDesc: "one", Polygons: []capxml.Polygon{{{Lat: 46, Lon: 7}, {Lat: 47, Lon: 7}, {Lat: 47, Lon: 8}, {Lat: 46, Lon: 7}}}},
			{AreaDesc: "two", Circles: []capxml.Circle{{Center: capxml.Point{Lat: 10, Lon: 20}, Radius: 5}, {Center: capxml.Point{Lat: 1, Lon: 2}}}},
		}},
		{Event: "Flood", Severity: "", Areas: []capxml.Area{{AreaDesc: "codes", Geocodes: []capxml.NamedValue{{ValueName: "UGC", Value: "X"}}}}},
		{Event: "No area", Severity: capxml.SeverityMinor},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, []*capxml.Alert{a}, nil); err != nil {
		t.Fatal(err)
	}
	validate(t, buf.Bytes())
	var doc placemarks
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	pm := doc.Placemarks
	if len(pm) != 4 {
		t.Fatalf("%d placemarks, want 4 (one per info and area)", len(pm))
	}
	if pm[0].Name != "Fire <now> & here" || pm[0].StyleURL != "#extreme" || len(pm[0].Polygons) != 1 ||
		!strings.HasPrefix(pm[0].Polygons[0].Coordinates, "7,46 7,47 8,47") {
		t.Errorf("polygon placemark = %+v (KML wants lon,lat)", pm[0])
	}
	if len(pm[1].MultiPolygons) != 1 || len(pm[1].Polygons) != 0 {
		t.Errorf("circles placemark = %+v, want a MultiGeometry with a polygon and a point", pm[1])
	}
	if pm[2].Name != "Flood" || pm[2].StyleURL != "#unknown" || len(pm[2].Polygons)+len(pm[2].Points) != 0 ||
		!strings.Contains(pm[2].Description, "<b>Area:</b> codes") {
		t.Errorf("geocode placemark = %+v", pm[2])
	}
	if pm[3].StyleURL != "#minor" {
		t.Errorf("info without area = %+v", pm[3])
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		alerts []*capxml.Alert
		opts   *Options
		want   error
	}{
		{"nil alert", []*capxml.Alert{nil}, nil, ErrNilAlert},
		{"refresh mode", nil, &Options{RefreshURL: "https://example.org/", RefreshMode: "sometimes"}, ErrBadOptions},
		{"refresh interval", nil, &Options{RefreshURL: "https://example.org/", RefreshInterval: -time.Second}, ErrBadOptions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := Write(&bytes.Buffer{}, tt.alerts, tt.opts); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func BenchmarkWrite(b *testing.B) {
	base := loadAlerts(b)
	alerts := make([]*capxml.Alert, 1000)
	for i := range alerts {
		alerts[i] = base[i%len(base)]
	}
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, alerts, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// writeGoKML is Write built on go-kml's element tree, as Write was before
// it wrote bytes directly: the reference Write must match byte for byte.
func writeGoKML(w io.Writer, alerts []*capxml.Alert, opts *Options) error {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = DefaultName
	}
	var doc *gokml.DocumentElement
	if o.RefreshURL != "" {
		link := gokml.Link(gokml.Href(o.RefreshURL))
		switch o.RefreshMode {
		case "", RefreshOnInterval:
			interval := o.RefreshInterval
			if interval == 0 {
				interval = DefaultRefreshInterval
			}
			link.Append(gokml.RefreshMode(gokml.RefreshModeOnInterval), gokml.RefreshInterval(interval))
		case RefreshOnExpire:
			link.Append(gokml.RefreshMode(gokml.RefreshModeOnExpire))
		case RefreshOnChange:
			link.Append(gokml.RefreshMode(gokml.RefreshModeOnChange))
		}
		doc = gokml.Document(gokml.Name(o.Name), gokml.NetworkLink(gokml.Name(o.Name), gokml.Open(true), link))
	} else {
		doc = gokml.Document(gokml.Name(o.Name), gokml.Open(true))
		for _, s := range severityStyles {
			line := color.RGBA{R: s.rgb[0], G: s.rgb[1], B: s.rgb[2], A: 0xff}
			fill := color.RGBA{R: s.rgb[0], G: s.rgb[1], B: s.rgb[2], A: 0x80}
			doc.Append(gokml.SharedStyle(s.id, gokml.LineStyle(gokml.Color(line), gokml.Width(2)), gokml.PolyStyle(gokml.Color(fill))))
		}
		for _, a := range alerts {
			for j := range a.Infos {
				in := &a.Infos[j]
				if len(in.Areas) == 0 {
					doc.Append(placemarkGoKML(&o, a, in, nil))
				}
				for k := range in.Areas {
					doc.Append(placemarkGoKML(&o, a, in, &in.Areas[k]))
				}
			}
		}
	}
	if err := gokml.KML(doc).WriteIndent(w, "", "  "); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func placemarkGoKML(o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) gokml.Element {
	name := firstNonEmpty(in.Headline, in.Event, a.Identifier)
	pm := gokml.Placemark(gokml.Name(name))
	if area != nil && area.AreaDesc != "" {
		pm.Append(gokml.Snippet(area.AreaDesc))
	}
	pm.Append(gokml.Description(descriptionGoKML(o, a, in, area)))
	// The period CAP defines: effective, else sent, to expires, else sent
	// plus the cap package's DefaultTTL.
	begin, end := in.Effective, in.Expires
	if begin.IsZero() {
		begin = a.Sent
	}
	if end.IsZero() && !a.Sent.IsZero() {
		end = a.Sent.Add(capxml.DefaultTTL)
	}
	var span []gokml.Element
	if !begin.IsZero() {
		span = append(span, gokml.Begin(begin))
	}
	if !end.IsZero() {
		span = append(span, gokml.End(end))
	}
	if len(span) > 0 {
		pm.Append(gokml.TimeSpan(span...))
	}
	style := "unknown"
	switch in.Severity {
	case capxml.SeverityExtreme, capxml.SeveritySevere, capxml.SeverityModerate, capxml.SeverityMinor:
		style = strings.ToLower(string(in.Severity))
	}
	pm.Append(gokml.StyleURL("#"+style), gokml.ExtendedData(
		gokml.Data("identifier", gokml.Value(a.Identifier)),
		gokml.Data("sender", gokml.Value(a.Sender)),
		gokml.Data("sent", gokml.Value(formatTime(a.Sent))),
		gokml.Data("event", gokml.Value(in.Event)),
		gokml.Data("urgency", gokml.Value(string(in.Urgency))),
		gokml.Data("severity", gokml.Value(string(in.Severity))),
		gokml.Data("certainty", gokml.Value(string(in.Certainty))),
	))
	if area == nil {
		return pm
	}
	polygon := func(ring []gokml.Coordinate) gokml.Element {
		return gokml.Polygon(gokml.Tessellate(true), gokml.OuterBoundaryIs(gokml.LinearRing(gokml.Coordinates(ring...))))
	}
	var shapes []gokml.Element
	for _, p := range area.Polygons {
		if len(p) == 0 {
			continue
		}
		coords := make([]gokml.Coordinate, len(p))
		for i, pt := range p {
			coords[i] = gokml.Coordinate{Lon: pt.Lon, Lat: pt.Lat}
		}
		shapes = append(shapes, polygon(coords))
	}
	for _, c := range area.Circles {
		center := gokml.Coordinate{Lon: c.Center.Lon, Lat: c.Center.Lat}
		radius := c.Radius * 1000
		if !(radius > 0) || math.IsInf(radius, 1) {
			shapes = append(shapes, gokml.Point(gokml.Coordinates(center)))
			continue
		}
		shapes = append(shapes, polygon(sphere.FAI.Circle(center, radius, radius*circleMaxError)))
	}
	switch len(shapes) {
	case 0:
	case 1:
		pm.Append(shapes[0])
	default:
		pm.Append(gokml.MultiGeometry(shapes...))
	}
	return pm
}

// descriptionGoKML is appendDescription as it was written with
// html.EscapeString.
func descriptionGoKML(o *Options, a *capxml.Alert, in *capxml.Info, area *capxml.Area) string {
	var b strings.Builder
	row := func(label, value string) {
		if value != "" {
			b.WriteString("<b>" + label + ":</b> " + html.EscapeString(value) + "<br/>\n")
		}
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
			b.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(para), "\n", "<br/>\n") + "</p>\n")
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

// checkMatchesGoKML fails when Write and writeGoKML differ.
func checkMatchesGoKML(t *testing.T, alerts []*capxml.Alert, opts *Options) {
	t.Helper()
	var got, want bytes.Buffer
	if err := Write(&got, alerts, opts); err != nil {
		t.Fatal(err)
	}
	if err := writeGoKML(&want, alerts, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("Write differs from go-kml:\n%s\nwant:\n%s", got.Bytes(), want.Bytes())
	}
}

// nastyText holds every kind of character encoding/xml or html escapes or
// replaces.
const nastyText = "a&b<c>d\"e'f\tg\nh\ri \x00\x01\x1f\x7f \xff\xfe \xe2\x82 \xed\xa0\x80 \uFFFD\uFFFE\uFFFF \U0001F600 日本語 ]]>"

// nastyAlert returns an alert holding s in every text Write uses and f in
// coordinates and radii, with polygons, circles and points.
func nastyAlert(s string, f float64) *capxml.Alert {
	t := time.Date(2024, 5, 1, 10, 0, 0, 123456789, time.FixedZone("", 5*3600+1800))
	return &capxml.Alert{
		Identifier: s, Sender: s, Sent: t, Status: capxml.StatusActual, MsgType: capxml.MsgTypeAlert,
		Infos: []capxml.Info{
			{Event: s, Headline: s, Description: s, Instruction: s, Web: s, SenderName: s, Severity: capxml.Severity(s),
				Urgency: capxml.Urgency(s), Certainty: capxml.Certainty(s), Onset: t, Expires: t, Areas: []capxml.Area{
					{AreaDesc: s, Polygons: []capxml.Polygon{{{Lat: f, Lon: -f}, {Lat: 1, Lon: 2}, {Lat: f, Lon: -f}}, {}}},
					{Circles: []capxml.Circle{{Center: capxml.Point{Lat: f, Lon: 0.5}, Radius: math.Abs(math.Mod(f, 1000))}, {Radius: 0}}},
					{Circles: []capxml.Circle{{Radius: math.NaN()}}},
					{},
				}},
			{Severity: capxml.SeveritySevere, Expires: t},
			{Severity: capxml.SeverityModerate, Effective: t},
		},
	}
}

func TestWriteMatchesGoKML(t *testing.T) {
	t.Parallel()
	alerts := loadAlerts(t)
	url := func(a *capxml.Alert) string { return "https://example.org/a?id=" + a.Identifier + "&x=1" }
	tests := []struct {
		name   string
		alerts []*capxml.Alert
		opts   *Options
	}{
		{"testdata", alerts, &Options{AlertURL: url}},
		{"nasty", []*capxml.Alert{nastyAlert(nastyText, 46.123456789), nastyAlert("", 0)}, &Options{Name: nastyText}},
		{"empty alert", []*capxml.Alert{{}}, nil},
		{"empty URL", alerts[:1], &Options{AlertURL: func(*capxml.Alert) string { return "" }}},
		{"refresh interval", nil, &Options{RefreshURL: nastyText, RefreshInterval: 1500*time.Millisecond + 1}},
		{"refresh change", nil, &Options{RefreshURL: "u", RefreshMode: RefreshOnChange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkMatchesGoKML(t, tt.alerts, tt.opts)
		})
	}
}

// FuzzWriteMatchesGoKML checks Write against go-kml with arbitrary text
// and coordinates.
func FuzzWriteMatchesGoKML(f *testing.F) {
	f.Add(nastyText, 46.5)
	f.Add("", math.Copysign(0, -1))
	f.Add("x", 1e-9)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 1.5
		}
		checkMatchesGoKML(t, []*capxml.Alert{nastyAlert(s, x)}, &Options{Name: s, AlertURL: func(*capxml.Alert) string { return s }})
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteWriterError(t *testing.T) {
	t.Parallel()
	if err := Write(failWriter{}, loadAlerts(t), nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v, want the writer's error", err)
	}
}
