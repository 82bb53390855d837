package cap

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseLenientRepairs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		data        []byte
		field, rule string
		check       func(t *testing.T, a *Alert)
	}{
		{"no namespace", []byte(strings.Replace(minimal, ` xmlns="urn:oasis:names:tc:emergency:cap:1.2"`, "", 1)), "alert", "not in a CAP namespace",
			func(t *testing.T, a *Alert) {
				if a.Version != Version12 || a.Identifier != "ID-1" {
					t.Errorf("alert = %+v", a)
				}
			}},
		{"declared prefix only", []byte(strings.Replace(minimal, ` xmlns="urn:oasis:names:tc:emergency:cap:1.2"`, ` xmlns:cap="urn:oasis:names:tc:emergency:cap:1.1"`, 1)), "alert", "read as CAP 1.1",
			func(t *testing.T, a *Alert) {
				if a.Version != Version11 {
					t.Errorf("version = %q", a.Version)
				}
			}},
		{"Z time", replace(t, "-05:00</sent>", "Z</sent>"), "alert.sent", `"Z" read as -00:00`,
			func(t *testing.T, a *Alert) {
				if !a.Sent.Equal(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)) {
					t.Errorf("sent = %v", a.Sent)
				}
			}},
		{"no zone", replace(t, "10:00:00-05:00", "10:00:00"), "alert.sent", "UTC assumed",
			func(t *testing.T, a *Alert) {
				if a.Sent.Location() != time.UTC || a.Sent.Hour() != 10 {
					t.Errorf("sent = %v", a.Sent)
				}
			}},
		{"fractional seconds", replace(t, "10:00:00-05:00", "10:00:00.750-0500"), "alert.sent", "fractional seconds dropped",
			func(t *testing.T, a *Alert) {
				if a.Sent.Nanosecond() != 0 {
					t.Errorf("sent = %v", a.Sent)
				}
			}},
		{"unparseable time", replace(t, "2024-05-01T10:00:00-05:00", "yesterday"), "alert.sent", "(dropped)",
			func(t *testing.T, a *Alert) {
				if !a.Sent.IsZero() {
					t.Errorf("sent = %v", a.Sent)
				}
			}},
		{"lower-case enumeration", replace(t, ">Severe<", ">SEVERE<"), "alert.info[0].severity", "corrected to Severe",
			func(t *testing.T, a *Alert) {
				if a.Infos[0].Severity != SeveritySevere {
					t.Errorf("severity = %q", a.Infos[0].Severity)
				}
			}},
		{"padded identifier", replace(t, "<identifier>ID-1<", "<identifier>\n  ID-1\n<"), "alert.identifier", "(removed)",
			func(t *testing.T, a *Alert) {
				if a.Identifier != "ID-1" {
					t.Errorf("identifier = %q", a.Identifier)
				}
			}},
		{"unknown enumeration kept", replace(t, ">Severe<", ">Catastrophic<"), "alert.info[0].severity", "unknown value kept",
			func(t *testing.T, a *Alert) {
				if a.Infos[0].Severity != "Catastrophic" {
					t.Errorf("severity = %q", a.Infos[0].Severity)
				}
			}},
		{"unclosed polygon", withArea("<polygon>1,1 2,2 3,1</polygon>"), "polygon[0]", "closed by repeating",
			func(t *testing.T, a *Alert) {
				if p := a.Infos[0].Areas[0].Polygons; len(p) != 1 || len(p[0]) != 4 || p[0][3] != (Point{1, 1}) {
					t.Errorf("polygons = %v", p)
				}
			}},
		{"empty polygon", withArea("<polygon></polygon>"), "polygon[0]", "empty polygon (dropped)",
			func(t *testing.T, a *Alert) {
				if p := a.Infos[0].Areas[0].Polygons; len(p) != 0 {
					t.Errorf("polygons = %v", p)
				}
			}},
		{"polygon out of range", withArea("<polygon>1,1 2,200 3,1 1,1</polygon>"), "polygon[0]", "out of range (dropped)", nil},
		{"circle garbage", withArea("<circle>here</circle>"), "circle[0]", "(dropped)", nil},
		{"out of order", replace(t, "<status>Actual</status>\n  <msgType>Alert</msgType>", "<msgType>Alert</msgType><status>Actual</status>"), "alert.status", "read anyway",
			func(t *testing.T, a *Alert) {
				if a.Status != StatusActual {
					t.Errorf("status = %q", a.Status)
				}
			}},
		{"repeated element", replace(t, "<event>Storm</event>", "<event>Storm</event><event>Flood</event>"), "alert.info[0].event", "first kept",
			func(t *testing.T, a *Alert) {
				if a.Infos[0].Event != "Storm" {
					t.Errorf("event = %q", a.Infos[0].Event)
				}
			}},
		{"unknown element", replace(t, "<event>Storm</event>", "<event>Storm</event><color>red</color>"), "alert.info[0].color", "unexpected element (dropped)", nil},
		{"1.0 text pair in 1.2", withArea("<geocode>FIPS=123</geocode>"), "geocode[0]", "converted",
			func(t *testing.T, a *Alert) {
				if g := a.Infos[0].Areas[0].Geocodes; len(g) != 1 || g[0] != (NamedValue{"FIPS", "123"}) {
					t.Errorf("geocodes = %v", g)
				}
			}},
		{"truncated", []byte(minimal[:strings.Index(minimal, "<info>")+30]), "alert", "malformed XML",
			func(t *testing.T, a *Alert) {
				if a.Scope != ScopePublic || len(a.Infos) != 1 {
					t.Errorf("alert = %+v", a)
				}
			}},
		{"missing required", replace(t, "<sender>s@example.org</sender>", ""), "alert.sender", "required element missing", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, probs, err := ParseLenient(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if !hasProblem(probs, tt.field, tt.rule) {
				t.Errorf("problems lack %s: %s; got %v", tt.field, tt.rule, probs)
			}
			if tt.check != nil {
				tt.check(t, a)
			}
			if _, err := Parse(tt.data); err == nil {
				t.Error("Parse accepted a document ParseLenient had to repair")
			}
			out, err := Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := ParseLenient(out)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffAlert(a, b); d != "" {
				t.Errorf("round trip: %s", d)
			}
		})
	}
}

func TestParseLenientRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
		want error
	}{
		{"not XML", "{}", ErrMalformed},
		{"no alert root", "<feed/>", ErrNotCAP},
		{"empty alert", "<alert/>", ErrNotCAP},
		{"DTD", `<!DOCTYPE alert SYSTEM "http://example.org/x.dtd"><alert><identifier>x</identifier></alert>`, ErrDTD},
		{"cut in the prolog", `<?xml version="1.0"?><ale`, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, _, err := ParseLenient([]byte(tt.data))
			if !errors.Is(err, tt.want) || a != nil {
				t.Errorf("ParseLenient = %v, %v; want %v", a, err, tt.want)
			}
		})
	}
}

// FuzzParseLenient checks that ParseLenient never panics and that what it
// salvages survives Marshal: ParseLenient(Marshal(a)) equals a.
func FuzzParseLenient(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzBytes {
			return
		}
		a, probs, err := ParseLenient(data)
		if err != nil {
			if a != nil || len(probs) > 0 {
				t.Fatal("alert or problems with an error")
			}
			return
		}
		out, err := Marshal(a)
		if err != nil {
			t.Fatalf("Marshal of a salvaged alert: %v", err)
		}
		b, _, err := ParseLenient(out)
		if err != nil {
			t.Fatalf("ParseLenient(Marshal(a)): %v\n%s", err, out)
		}
		if d := diffAlert(a, b); d != "" {
			t.Fatalf("round trip: %s\n%s", d, out)
		}
	})
}
