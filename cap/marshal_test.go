package cap

import (
	"bytes"
	"encoding/xml"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMarshalRoundTrip checks Parse(Marshal(a)) == a for every valid file and
// ParseLenient(Marshal(a)) == a for every salvaged one.
func TestMarshalRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range alertFiles(t) {
		want := fileVerdicts[name]
		if !want.lenient {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data := readFile(t, "testdata/alerts/"+name)
			if want.err == nil {
				a, err := Parse(data)
				if err != nil {
					t.Fatal(err)
				}
				out, err := Marshal(a)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Parse(out)
				if err != nil {
					t.Fatalf("Parse(Marshal(a)): %v\n%s", err, out)
				}
				if d := diffAlert(a, b); d != "" {
					t.Errorf("strict round trip: %s", d)
				}
			}
			a, _, err := ParseLenient(data)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			b, _, err := ParseLenient(out)
			if err != nil {
				t.Fatalf("ParseLenient(Marshal(a)): %v", err)
			}
			if d := diffAlert(a, b); d != "" {
				t.Errorf("lenient round trip: %s", d)
			}
		})
	}
}

// TestMarshalSchemaValid validates Marshal output of every valid file
// against the OASIS schema of its version with xmllint.
func TestMarshalSchemaValid(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed (apt-get install libxml2-utils): cannot check Marshal output against the CAP schemas")
	}
	t.Parallel()
	schemas := map[Version]string{Version10: "cap10.xsd", Version11: "cap11.xsd", Version12: "cap12.xsd"}
	dir := t.TempDir()
	var args []string
	byVersion := map[Version][]string{}
	for _, name := range alertFiles(t) {
		if v := fileVerdicts[name]; v.err != nil {
			continue
		}
		a, err := Parse(readFile(t, "testdata/alerts/"+name))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, strings.ReplaceAll(name, "/", "_"))
		if err := os.WriteFile(path, out, 0o600); err != nil {
			t.Fatal(err)
		}
		byVersion[a.Version] = append(byVersion[a.Version], path)
	}
	for v, files := range byVersion {
		args = append([]string{"--noout", "--nonet", "--schema", filepath.Join("testdata/schemas", schemas[v])}, files...)
		if out, err := exec.Command(xmllint, args...).CombinedOutput(); err != nil {
			t.Errorf("CAP %s: xmllint: %v\n%s", v, err, out)
		}
	}
}

func TestMarshalVersionNamespace(t *testing.T) {
	t.Parallel()
	for _, v := range []Version{Version10, Version11, Version12, ""} {
		a := &Alert{Version: v, Identifier: "x", Sender: "y", Sent: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Status: StatusActual, MsgType: MsgTypeAlert, Scope: ScopePublic}
		out, err := Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		want := v.Namespace()
		if v == "" {
			want = Namespace12
		}
		if !bytes.Contains(out, []byte(`<alert xmlns="`+want+`">`)) || !bytes.Contains(out, []byte("<sent>2020-01-02T03:04:05-00:00</sent>")) {
			t.Errorf("version %q:\n%s", v, out)
		}
	}
}

func TestMarshalTimes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		t    time.Time
		v    Version
		want string
	}{
		{time.Date(2024, 5, 1, 10, 0, 0, 0, time.FixedZone("", -5*3600)), Version12, "2024-05-01T10:00:00-05:00"},
		{time.Date(2024, 5, 1, 10, 0, 0, 0, time.FixedZone("", 5*3600+1800)), Version12, "2024-05-01T10:00:00+05:30"},
		{time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), Version11, "2024-05-01T10:00:00-00:00"},
		{time.Date(2024, 5, 1, 10, 0, 0, 500_000_000, time.UTC), Version12, "2024-05-01T10:00:00-00:00"},
		{time.Date(2024, 5, 1, 10, 0, 0, 500_000_000, time.UTC), Version10, "2024-05-01T10:00:00.5-00:00"},
	}
	for _, tt := range tests {
		b, err := appendTime(nil, tt.t, tt.v)
		got := string(b)
		if err != nil || got != tt.want {
			t.Errorf("appendTime(%v, %s) = %q, %v; want %q", tt.t, tt.v, got, err, tt.want)
		}
	}
}

func TestMarshalErrors(t *testing.T) {
	t.Parallel()
	base := func() *Alert {
		return &Alert{Identifier: "x", Sender: "y", Sent: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Status: StatusActual, MsgType: MsgTypeAlert, Scope: ScopePublic}
	}
	tests := []struct {
		name   string
		change func(a *Alert)
	}{
		{"unknown version", func(a *Alert) { a.Version = "9.9" }},
		{"quoted address with space", func(a *Alert) { a.Addresses = []string{`a "b" c`} }},
		{"reference with comma", func(a *Alert) { a.References = []Reference{{Sender: "a,b", Identifier: "c", Sent: a.Sent}} }},
		{"year 10000", func(a *Alert) { a.Sent = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }},
		{"NaN coordinate", func(a *Alert) {
			a.Infos = []Info{{Areas: []Area{{Circles: []Circle{{Radius: math.NaN()}}}}}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := base()
			tt.change(a)
			if _, err := Marshal(a); err == nil || !strings.HasPrefix(err.Error(), "cap: ") {
				t.Errorf("Marshal error = %v", err)
			}
		})
	}
	if _, err := Marshal(nil); err == nil {
		t.Error("Marshal(nil) succeeded")
	}
}

func TestMarshalLists(t *testing.T) {
	t.Parallel()
	a := &Alert{Version: Version12, Identifier: "x", Sender: "y", Sent: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Status: StatusActual,
		MsgType: MsgTypeAlert, Scope: ScopePrivate, Addresses: []string{"a@b", "Fire Dept", ""}, Incidents: []string{"i-1", `x"y`}}
	out, err := Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`<addresses>a@b &#34;Fire Dept&#34; &#34;&#34;</addresses>`)) {
		t.Errorf("addresses not quoted:\n%s", out)
	}
	b, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffAlert(a, b); d != "" {
		t.Error(d)
	}
}

// TestEncodeAlertEmbedded embeds an alert in another document, as an Atom
// entry does, and reads it back.
func TestEncodeAlertEmbedded(t *testing.T) {
	t.Parallel()
	a, err := Parse(readFile(t, "testdata/alerts/oasiscap/v1dot1_appendix_adot3.xml"))
	if err != nil {
		t.Fatal(err)
	}
	type content struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom content"`
		Alert   *Alert
	}
	out, err := xml.Marshal(content{Alert: a})
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(out, []byte("<alert"))
	end := bytes.LastIndex(out, []byte("</alert>"))
	if start < 0 || end < 0 {
		t.Fatalf("no alert in %s", out)
	}
	b, err := Parse(out[start : end+len("</alert>")])
	if err != nil {
		t.Fatal(err)
	}
	if d := diffAlert(a, b); d != "" {
		t.Error(d)
	}
	if err := EncodeAlert(xml.NewEncoder(&bytes.Buffer{}), nil); err == nil {
		t.Error("EncodeAlert(nil) succeeded")
	}
}

// encodeTokens is Marshal through EncodeAlert and an indenting
// xml.Encoder: the reference Marshal's direct writing must match byte for
// byte, errors included.
func encodeTokens(a *Alert) ([]byte, error) {
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

// checkMarshalMatchesTokens fails when Marshal(a) and encodeTokens(a)
// differ in bytes or error.
func checkMarshalMatchesTokens(t *testing.T, a *Alert) {
	t.Helper()
	got, gotErr := Marshal(a)
	want, wantErr := encodeTokens(a)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("Marshal error %v, EncodeAlert error %v", gotErr, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal differs from EncodeAlert:\n%s\nwant:\n%s", got, want)
	}
}

// nastyText holds every kind of character encoding/xml escapes or
// replaces.
const nastyText = "a&b<c>d\"e'f\tg\nh\ri \x00\x01\x1f\x7f \xff\xfe \xe2\x82 \xed\xa0\x80 \uFFFD\uFFFE\uFFFF \U0001F600 日本語 ]]>"

// TestMarshalMatchesEncoder checks that Marshal writes the bytes an
// xml.Encoder writes for the same alert.
func TestMarshalMatchesEncoder(t *testing.T) {
	t.Parallel()
	for _, name := range alertFiles(t) {
		if !fileVerdicts[name].lenient {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, _, err := ParseLenient(readFile(t, "testdata/alerts/"+name))
			if err != nil {
				t.Fatal(err)
			}
			checkMarshalMatchesTokens(t, a)
		})
	}
	for _, v := range []Version{Version10, Version11, Version12} {
		t.Run("synthetic CAP "+string(v), func(t *testing.T) {
			t.Parallel()
			checkMarshalMatchesTokens(t, nastyAlert(v, nastyText, 38.47))
		})
	}
	t.Run("empty elements", func(t *testing.T) {
		t.Parallel()
		checkMarshalMatchesTokens(t, &Alert{Infos: []Info{{Resources: []Resource{{}}, Areas: []Area{{}}}}})
	})
	t.Run("error", func(t *testing.T) {
		t.Parallel()
		checkMarshalMatchesTokens(t, nastyAlert(Version12, "x", math.Inf(1)))
	})
}

// nastyAlert returns an alert holding s in text, list and named-value
// fields and f in coordinates.
func nastyAlert(v Version, s string, f float64) *Alert {
	sent := time.Date(2024, 5, 1, 10, 0, 0, 123456789, time.FixedZone("", 3600))
	alt := f
	return &Alert{
		Version: v, Identifier: "id", Sender: "sender", Sent: sent, Status: StatusActual, MsgType: MsgTypeAlert,
		Scope: ScopePrivate, Note: s, Codes: []string{s, ""}, Addresses: []string{"a", "b c", ""},
		// A list item cannot hold both white space and a double quote.
		References: []Reference{{Sender: "s", Identifier: "i", Sent: sent}}, Incidents: []string{strings.ReplaceAll(s, `"`, "'")},
		Infos: []Info{{
			Event: s, Description: s, EventCodes: []NamedValue{{ValueName: s, Value: s}, {Value: "a=b"}, {Value: "plain"}},
			Resources: []Resource{{ResourceDesc: s, Size: 42}},
			Areas: []Area{{
				AreaDesc: s, Polygons: []Polygon{{{Lat: f, Lon: -f}, {Lat: 1, Lon: 2}}, {}},
				Circles:  []Circle{{Center: Point{Lat: f, Lon: 0.1 + 0.2}, Radius: f}},
				Geocodes: []NamedValue{{ValueName: "g", Value: s}}, Altitude: &alt, Ceiling: &alt,
			}},
		}},
	}
}

// FuzzMarshalEncoder checks Marshal against EncodeAlert with arbitrary
// text and numbers in an alert read from the fuzzed document (or an empty
// one).
func FuzzMarshalEncoder(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzBytes {
			return
		}
		a, _, err := ParseLenient(data)
		if err != nil {
			a = &Alert{}
		}
		checkMarshalMatchesTokens(t, a)
		// The raw input as text and its first bytes as a number, in every
		// version.
		var bits uint64
		for i := 0; i < len(data) && i < 8; i++ {
			bits = bits<<8 | uint64(data[i])
		}
		x := math.Float64frombits(bits)
		if !isFinite(x) {
			x = 1.5 // an error would hide the output
		}
		for _, v := range []Version{Version10, Version11, Version12} {
			checkMarshalMatchesTokens(t, nastyAlert(v, string(data), x))
		}
	})
}

// TestAppendDecimal compares appendDecimal with strconv on edge cases,
// decimals of up to 9 digits and random float64s.
func TestAppendDecimal(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 38.47, -120.14, 0.1 + 0.2, 1e-7, 1e-8, 5e-8, 123456.1234567,
		1 << 20, math.Nextafter(1<<20, 0), 1e21, 1e-300, math.SmallestNonzeroFloat64, math.MaxFloat64, math.NaN(), math.Inf(1), math.Inf(-1)} {
		checkDecimal(t, f)
	}
	rnd := rand.New(rand.NewPCG(3, 4)) // fixed seed: the same numbers every run
	pow := []float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9}
	for range 100_000 {
		d := rnd.IntN(len(pow))
		f := float64(rnd.Int64N(1<<45)) / pow[d]
		if rnd.IntN(2) == 0 {
			f = -f
		}
		checkDecimal(t, f)
		checkDecimal(t, math.Float64frombits(rnd.Uint64()))
		checkDecimal(t, rnd.Float64()*360-180)
	}
}

func FuzzAppendDecimal(f *testing.F) {
	for _, x := range []float64{0, 38.47, -120.14, 1e-7, 0.1 + 0.2, 1 << 20} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		checkDecimal(t, x)
	})
}

func checkDecimal(t *testing.T, f float64) {
	t.Helper()
	if got, want := appendDecimal(nil, f), strconv.AppendFloat(nil, f, 'f', -1, 64); !bytes.Equal(got, want) {
		t.Fatalf("appendDecimal(%v) = %s, want %s", f, got, want)
	}
}
