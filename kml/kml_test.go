package kml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
