package cap

import (
	"bytes"
	"encoding/xml"
	"math"
	"os"
	"os/exec"
	"path/filepath"
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
		got, err := formatTime(tt.t, tt.v)
		if err != nil || got != tt.want {
			t.Errorf("formatTime(%v, %s) = %q, %v; want %q", tt.t, tt.v, got, err, tt.want)
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
