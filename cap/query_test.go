package cap

import (
	"errors"
	"net/url"
	"reflect"
	"testing"
	"time"
)

func TestParseQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   url.Values
		want *Query
	}{
		{"empty", url.Values{}, &Query{}},
		{"blank values ignored", url.Values{"severity": {""}, "bbox": {" "}}, &Query{}},
		{"enums any case, commas, sorted", url.Values{"severity": {"severe,EXTREME", "Severe"}, "msgtype": {"alert"}},
			&Query{Severity: []Severity{SeverityExtreme, SeveritySevere}, MsgType: []MsgType{MsgTypeAlert}}},
		// All spellings count, rather than the one map order puts last.
		{"names differing in case merged", url.Values{"severity": {"Severe"}, "Severity": {"Extreme"}, "SEVERITY": {"Minor"}},
			&Query{Severity: []Severity{SeverityExtreme, SeverityMinor, SeveritySevere}}},
		{"certainty spellings", url.Values{"certainty": {"very likely", "observed"}},
			&Query{Certainty: []Certainty{CertaintyObserved, CertaintyVeryLikely}}},
		{"free text keeps commas", url.Values{"areaDesc": {"Beadle, SD"}, "event": {"Flood"}},
			&Query{AreaDesc: []string{"Beadle, SD"}, Event: []string{"Flood"}}},
		{"geocodes", url.Values{"geocode": {"UGC:MDC031", "024031", ":a:b"}},
			&Query{Geocode: []NamedValue{{"", "024031"}, {"", "a:b"}, {"UGC", "MDC031"}}}},
		{"times in UTC", url.Values{"sent.after": {"2025-08-22T12:00:00-05:00"}, "active": {"2025-08-23T00:00:00Z"}},
			&Query{SentAfter: time.Date(2025, 8, 22, 17, 0, 0, 0, time.UTC), Active: time.Date(2025, 8, 23, 0, 0, 0, 0, time.UTC)}},
		{"bbox and geohash", url.Values{"bbox": {"170,-30,-170,-10"}, "geohash": {"U0"}},
			&Query{BBox: []BBox{{170, -30, -170, -10}}, Geohash: []string{"u0"}}},
		{"language", url.Values{"language": {"en,fr-CA"}}, &Query{Language: []string{"en", "fr-CA"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseQuery(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseQuery = %+v, want %+v", got, tt.want)
			}
			again, err := ParseQuery(got.Encode())
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Errorf("ParseQuery(Encode()) = %+v, %v; want %+v", again, err, got)
			}
		})
	}
}

func TestParseQueryErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, param string
		in          url.Values
	}{
		{"unknown parameter", "colour", url.Values{"colour": {"red"}}},
		{"bad enum", "severity", url.Values{"severity": {"Severe,Hgh"}}},
		{"bad time", "sent.before", url.Values{"sent.before": {"yesterday"}}},
		{"repeated time", "active", url.Values{"active": {"2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"}}},
		{"time repeated in another case", "Active", url.Values{"active": {"2025-01-01T00:00:00Z"}, "Active": {"2026-01-01T00:00:00Z"}}},
		{"bbox arity", "bbox", url.Values{"bbox": {"1,2,3"}}},
		{"bbox latitude", "bbox", url.Values{"bbox": {"0,-91,1,0"}}},
		{"bbox south of north", "bbox", url.Values{"bbox": {"0,10,1,0"}}},
		{"bbox NaN", "bbox", url.Values{"bbox": {"NaN,0,1,1"}}},
		{"bbox longitude", "bbox", url.Values{"bbox": {"-181,0,1,1"}}},
		{"geohash letter", "geohash", url.Values{"geohash": {"u0a"}}},
		{"geohash length", "geohash", url.Values{"geohash": {"u0000000000000"}}},
		{"language", "language", url.Values{"language": {"en_US"}}},
		{"empty geocode value", "geoCode", url.Values{"geoCode": {" :"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := ParseQuery(tt.in)
			var qe *QueryError
			if q != nil || !errors.Is(err, ErrBadQuery) || !errors.As(err, &qe) || qe.Param != tt.param {
				t.Fatalf("ParseQuery = %v, %v; want a *QueryError for %s", q, err, tt.param)
			}
			if qe.Error() == "" {
				t.Error("empty message")
			}
		})
	}
}

// queryAlert is a two-info alert: an Extreme fire over a polygon in
// Switzerland and a Minor flood over a circle near Fiji (across the
// antimeridian) and a geocode-only area.
func queryAlert() *Alert {
	sent := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	return &Alert{
		Identifier: "Q1", Sender: "alerts@example.org", Sent: sent,
		Status: StatusActual, MsgType: MsgTypeAlert, Scope: ScopePublic,
		Infos: []Info{
			{
				Language: "de-CH", Category: []Category{CategoryFire}, Event: "Forest Fire",
				Urgency: UrgencyImmediate, Severity: SeverityExtreme, Certainty: CertaintyObserved,
				Expires: sent.Add(6 * time.Hour),
				Areas: []Area{{AreaDesc: "Valais", Polygons: []Polygon{{
					{46.0, 7.0}, {46.5, 7.0}, {46.5, 8.0}, {46.0, 8.0}, {46.0, 7.0},
				}}}},
			},
			{
				Category: []Category{CategoryMet}, Event: "Flash Flood Warning",
				Urgency: UrgencyExpected, Severity: SeverityMinor, Certainty: CertaintyLikely,
				Effective: sent.Add(time.Hour), Onset: sent.Add(2 * time.Hour),
				Areas: []Area{
					{AreaDesc: "Fiji waters", Circles: []Circle{{Center: Point{-17, 179.9}, Radius: 50}}},
					{AreaDesc: "County list", Geocodes: []NamedValue{{"FIPS6", "009007 009009"}, {"UGC", "CTZ001"}}},
				},
			},
		},
	}
}

// TestQueryActive checks the period of active=: from effective, else sent
// (not onset), to expires, else sent + DefaultTTL, as Alert.Expired says.
func TestQueryActive(t *testing.T) {
	t.Parallel()
	sent := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	a := &Alert{Sent: sent, Infos: []Info{{Onset: sent.Add(24 * time.Hour)}}}
	for _, tt := range []struct {
		name   string
		at     time.Duration // after sent
		active bool
	}{
		{"before sent", -time.Second, false},
		{"at sent, before onset", 0, true},
		{"an hour after sent", time.Hour, true},
		{"at sent + DefaultTTL", DefaultTTL, false},
		{"years later", 5 * 365 * 24 * time.Hour, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			at := sent.Add(tt.at)
			q := &Query{Active: at}
			if got := q.Match(a); got != tt.active {
				t.Errorf("Match at %v = %v, want %v", at, got, tt.active)
			}
			if tt.at >= 0 && a.Expired(at) == tt.active {
				t.Errorf("Expired(%v) = %v disagrees with Match", at, a.Expired(at))
			}
		})
	}
}

func TestQueryMatch(t *testing.T) {
	t.Parallel()
	a := queryAlert()
	sent := a.Sent
	tests := []struct {
		name  string
		query url.Values
		want  bool
	}{
		{"empty", url.Values{}, true},
		{"status", url.Values{"status": {"Actual"}}, true},
		{"status other", url.Values{"status": {"Test", "Exercise"}}, false},
		{"sender ignores case", url.Values{"sender": {"ALERTS@example.org"}}, true},
		{"severity any of", url.Values{"severity": {"Severe", "Extreme"}}, true},
		{"same info", url.Values{"severity": {"Extreme"}, "event": {"fire"}}, true},
		{"criteria across infos", url.Values{"severity": {"Extreme"}, "event": {"flood"}}, false},
		{"event substring", url.Values{"event": {"FLASH"}}, true},
		{"category", url.Values{"category": {"Met"}, "urgency": {"Expected"}}, true},
		{"language prefix", url.Values{"language": {"de"}}, true},
		{"language default en-US", url.Values{"language": {"en"}, "event": {"Flood"}}, true},
		{"language subtag boundary", url.Values{"language": {"d"}}, false},
		{"areaDesc substring", url.Values{"areaDesc": {"valais"}}, true},
		{"area criteria in one area", url.Values{"areaDesc": {"County"}, "bbox": {"170,-30,-170,-10"}}, false},
		{"area of another info", url.Values{"areaDesc": {"Valais"}, "severity": {"Minor"}}, false},
		{"geocode listed value", url.Values{"geocode": {"FIPS6:009009"}}, true},
		{"geocode any name", url.Values{"geocode": {"CTZ001"}}, true},
		{"geocode wrong name", url.Values{"geocode": {"SAME:CTZ001"}}, false},
		{"sent window", url.Values{"sent.after": {"2025-06-01T12:00:00Z"}, "sent.before": {"2025-06-01T12:00:01Z"}}, true},
		{"sent before is exclusive", url.Values{"sent.before": {"2025-06-01T12:00:00Z"}}, false},
		{"sent after", url.Values{"sent.after": {"2025-06-02T00:00:00Z"}}, false},
		{"active fire", url.Values{"active": {sent.Add(time.Hour).Format(time.RFC3339)}, "event": {"fire"}}, true},
		{"fire expired", url.Values{"active": {sent.Add(6 * time.Hour).Format(time.RFC3339)}, "event": {"fire"}}, false},
		{"flood not yet effective", url.Values{"active": {sent.Add(30 * time.Minute).Format(time.RFC3339)}, "event": {"flood"}}, false},
		{"flood without expiry", url.Values{"active": {sent.Add(DefaultTTL - time.Second).Format(time.RFC3339)}, "event": {"flood"}}, true},
		{"flood past DefaultTTL", url.Values{"active": {sent.Add(DefaultTTL).Format(time.RFC3339)}, "event": {"flood"}}, false},
		{"nothing active years later", url.Values{"active": {"2030-01-01T00:00:00Z"}}, false},
		{"bbox over polygon", url.Values{"bbox": {"7.5,46.2,9,47"}}, true},
		{"bbox inside polygon", url.Values{"bbox": {"7.4,46.2,7.5,46.3"}}, true},
		{"bbox beside polygon", url.Values{"bbox": {"8.1,46,9,47"}}, false},
		{"bbox across antimeridian over circle", url.Values{"bbox": {"179.95,-17.2,-179.5,-16.8"}}, true},
		{"bbox east of antimeridian reaches circle", url.Values{"bbox": {"-179.9,-17.1,-179,-16.9"}}, true},
		{"bbox too far from circle", url.Values{"bbox": {"-179,-17.1,-178,-16.9"}}, false},
		{"geohash of Valais", url.Values{"geohash": {"u0m"}}, true},
		{"geohash elsewhere", url.Values{"geohash": {"9q8"}}, false},
		{"severity and bbox", url.Values{"severity": {"Extreme"}, "bbox": {"-10,35,30,60"}}, true},
		{"severity and wrong bbox", url.Values{"severity": {"Minor"}, "bbox": {"-10,35,30,60"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q, err := ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.Match(a); got != tt.want {
				t.Errorf("Match(%s) = %v, want %v", q, got, tt.want)
			}
		})
	}
	var nilQuery *Query
	if !nilQuery.Match(a) || nilQuery.Match(nil) {
		t.Error("nil query must match every non-nil alert")
	}
	if q, _ := ParseQuery(url.Values{"severity": {"Minor"}}); q.Match(&Alert{}) {
		t.Error("info criterion matched an alert without info")
	}
}

func TestFilterSamples(t *testing.T) {
	t.Parallel()
	alerts := loadAlerts(t, sampleAlertFiles...)
	tests := []struct {
		query url.Values
		want  []string // identifiers
	}{
		{url.Values{"msgType": {"Update"}}, []string{"TRI13970876.2", "2.49.0.1.124.6bddbc91.2012"}},
		{url.Values{"bbox": {"140,-40,155,-25"}}, []string{"tag:www.rfs.nsw.gov.au2011-10-06:40184"}},
		// Chukotka polygons cross the antimeridian, as does the GDACS
		// cyclone near Fiji.
		{url.Values{"bbox": {"179,60,-179,75"}}, []string{"2.49.0.1.643.0.20250301.222516.0086037.00.RU"}},
		{url.Values{"bbox": {"-179.5,-30,-177,-18"}}, []string{"GDACS_TC_1001150_2"}},
		{url.Values{"geocode": {"UGC:MTZ014"}}, []string{"NOAA-NWS-ALERTS-MT20100830100700TFXFlashFloodWatchTFX20100830180000MT"}},
	}
	for _, tt := range tests {
		t.Run(tt.query.Encode(), func(t *testing.T) {
			t.Parallel()
			q, err := ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range Filter(alerts, q) {
				got = append(got, a.Identifier)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Filter = %q, want %q", got, tt.want)
			}
		})
	}
	if got := Filter(alerts, nil); len(got) != len(alerts) {
		t.Errorf("nil query kept %d of %d", len(got), len(alerts))
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"severity=Severe&severity=extreme&bbox=-10,35,30,60",
		"event=Flood&areaDesc=Beadle,+SD&geocode=UGC:MDC031&geocode=:a:b",
		"sent.after=2025-08-22T12:00:00-05:00&active=2025-08-23T00:00:00.5Z&geohash=u0m",
		"status=actual,test&msgType=Alert&scope=Public&category=Met&urgency=Past&certainty=Very+Likely&language=en",
		"bbox=170,-30,-170,-10&sender=a@b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 4096 {
			return
		}
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, err := ParseQuery(v)
		if err != nil {
			if !errors.Is(err, ErrBadQuery) {
				t.Fatalf("error %v does not wrap ErrBadQuery", err)
			}
			return
		}
		again, err := ParseQuery(q.Encode())
		if err != nil {
			t.Fatalf("ParseQuery(%q) = %v", q.Encode().Encode(), err)
		}
		if !reflect.DeepEqual(again, q) {
			t.Fatalf("round trip:\n%+v\n%+v", q, again)
		}
		q.Match(queryAlert())
	})
}

func BenchmarkFilter(b *testing.B) {
	alerts := manyAlerts(b, 100_000)
	q, err := ParseQuery(url.Values{"severity": {"Severe", "Extreme"}, "bbox": {"-10,35,30,60"}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(Filter(alerts, q))
	}
	b.ReportMetric(float64(n), "hits")
}

// BenchmarkFilterBigPolygons filters alerts with large polygons (the GDACS
// cyclone near Fiji, Chukotka districts across the antimeridian) by a box
// across the antimeridian and by a small box that meets no polygon.
func BenchmarkFilterBigPolygons(b *testing.B) {
	base := loadAlerts(b, "kde/lib/testdata/gdacs-cap_1001150.xml", "kde/lib/testdata/ru-20250301222516-0086037.xml")
	alerts := make([]*Alert, 10_000)
	for i := range alerts {
		alerts[i] = base[i%len(base)]
	}
	for _, bbox := range []string{"175,-30,-175,70", "170,-21,171,-20"} {
		q, err := ParseQuery(url.Values{"bbox": {bbox}})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("bbox="+bbox, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = len(Filter(alerts, q))
			}
			b.ReportMetric(float64(n), "hits")
		})
	}
}
