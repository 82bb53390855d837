package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// maxFuzzLen caps fuzz inputs: the readers are linear, bigger inputs only
// slow the fuzzer down.
const maxFuzzLen = 64 << 10

// addSeeds adds the testdata files with the given extensions to f's corpus.
func addSeeds(f *testing.F, exts ...string) {
	f.Helper()
	for _, ext := range exts {
		files, err := filepath.Glob(filepath.Join("testdata", "*"+ext))
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > maxFuzzLen {
				b = b[:maxFuzzLen]
			}
			f.Add(b)
		}
	}
}

// checkLines asserts the shape of text from the HTML, XML and feed readers:
// valid UTF-8, no empty line, no space at either end of a line.
func checkLines(t *testing.T, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		t.Fatalf("invalid UTF-8: %q", text)
	}
	if text == "" {
		return
	}
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.TrimFunc(line, unicode.IsSpace) != line {
			t.Fatalf("line %d is not clean: %q", i, line)
		}
	}
}

// asRegistryWould returns body as the Registry hands it to readers.
func asRegistryWould(body []byte) []byte { return bytes.ToValidUTF8(body, []byte("\uFFFD")) }

func FuzzHTML(f *testing.F) {
	addSeeds(f, ".html", ".xhtml")
	f.Add([]byte(`<title>a</title><p>b<b>c</b></p><script>x</script><pre>1
2</pre><table><tr><td>d<td>e</table>`))
	f.Add([]byte(`<p>a<svg><title>t</title><p>b<div hidden><i>c</div><object>d<math><mi>e</mi><script/>f</script>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxFuzzLen {
			return
		}
		body = asRegistryWould(body)
		for _, xhtml := range []bool{false, true} {
			doc, err := htmlReader{xhtml: xhtml}.ReadDocument(context.Background(), body, ReadParams{})
			if err != nil {
				t.Fatalf("xhtml=%v: %v", xhtml, err)
			}
			checkLines(t, doc.Text)
			if doc.Title != collapse(doc.Title) {
				t.Fatalf("title not collapsed: %q", doc.Title)
			}
			again, _ := htmlReader{xhtml: xhtml}.ReadDocument(context.Background(), body, ReadParams{})
			if again != doc {
				t.Fatalf("not deterministic")
			}
		}
		p, err := (&Options{Selector: "p, td, li"}).compile()
		if err != nil {
			t.Fatal(err)
		}
		doc, err := htmlReader{}.ReadDocument(context.Background(), body, ReadParams{Selector: p.selector})
		if err != nil && !errors.Is(err, ErrTooDeep) {
			t.Fatalf("selector: %v", err)
		}
		checkLines(t, doc.Text)
	})
}

func FuzzXML(f *testing.F) {
	addSeeds(f, ".xml", ".rss", ".atom", ".cap", ".xhtml")
	f.Add([]byte(`<rss><channel><title>t</title><item><description>&lt;p&gt;x&lt;/p&gt;</description></item></channel></rss>`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom"><entry><content type="xhtml"><div><p>a</p></div></content></entry></feed>`))
	f.Add([]byte(`<rss><channel><item><description>a<br>b<p>c</description><title>t <b>u</title></item></channel></rss>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxFuzzLen {
			return
		}
		body = asRegistryWould(body)
		text, err := xmlReader{}.Read(context.Background(), body, ReadParams{})
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Fatalf("xml: %v", err)
		}
		checkLines(t, text)
		doc, ferr := feedReader{}.ReadDocument(context.Background(), body, ReadParams{})
		if (ferr == nil) != (err == nil) {
			t.Fatalf("xml error %v, feed error %v: both parse the same tokens", err, ferr)
		}
		checkLines(t, doc.Text)
		if doc.Title != collapse(doc.Title) {
			t.Fatalf("title not collapsed: %q", doc.Title)
		}
	})
}

func FuzzJSON(f *testing.F) {
	addSeeds(f, ".json")
	f.Add([]byte(`{"a": [1, "two", {"b": null}], "c": {"d": true}}`))
	f.Add([]byte(`[[[[[]]]]]`))
	f.Add([]byte(`{"b": ["\ud83d\ude00", "\ud83d"], "a": {"z": 1, "y": [{}, []]}} 3 "x"`))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxFuzzLen {
			return
		}
		body = asRegistryWould(body)
		text, err := jsonReader{}.Read(context.Background(), body, ReadParams{})
		switch {
		case err == nil:
		case errors.Is(err, ErrTooDeep):
			return
		case errors.Is(err, ErrMalformed):
			if json.Valid(body) {
				t.Fatalf("valid JSON reported malformed: %v", err)
			}
			return
		default:
			t.Fatal(err)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8")
		}
		// Every value line survives a reorder of the input's object keys,
		// so a second read of the same input must match exactly.
		again, _ := jsonReader{}.Read(context.Background(), body, ReadParams{})
		if again != text {
			t.Fatalf("not deterministic")
		}
		if json.Valid(body) {
			// Re-encoding sorts keys and drops white space: same lines.
			var v any
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				return // deeper than encoding/json accepts
			}
			re, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			text2, err := jsonReader{}.Read(context.Background(), re, ReadParams{})
			if err != nil {
				t.Fatal(err)
			}
			if !hasDuplicateKeys(body) && text2 != text {
				t.Fatalf("re-encoded JSON reads differently:\n%q\n%q", text, text2)
			}
		}
	})
}

// hasDuplicateKeys reports whether a JSON document may repeat an object key
// (then decoding into a map keeps only the last one). It is conservative:
// any object with two equal keys anywhere counts.
func hasDuplicateKeys(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // next string is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.obj && top.key {
			if top.keys[s] {
				return true
			}
			top.keys[s] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].key = true
			}
			continue
		}
		if top != nil && top.obj {
			top.key = true
		}
	}
}

func FuzzText(f *testing.F) {
	addSeeds(f, ".txt")
	f.Add([]byte("a\r\nb\rc\n\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > maxFuzzLen {
			return
		}
		body = asRegistryWould(body)
		text, err := textReader{}.Read(context.Background(), body, ReadParams{})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "\r") {
			t.Fatalf("carriage return left in %q", text)
		}
		// Only line endings change.
		if strings.ReplaceAll(text, "\n", "") != strings.NewReplacer("\r", "", "\n", "").Replace(string(body)) {
			t.Fatalf("text changed beyond line endings: %q -> %q", body, text)
		}
		if want := strings.Count(string(body), "\n") + strings.Count(string(body), "\r") - strings.Count(string(body), "\r\n"); strings.Count(text, "\n") != want {
			t.Fatalf("%d line endings, want %d", strings.Count(text, "\n"), want)
		}
	})
}

func FuzzRegistryRead(f *testing.F) {
	for _, ct := range []string{"", "text/html", "application/xml", "application/json", "text/plain; charset=windows-1251", "application/octet-stream"} {
		f.Add(ct, []byte("<p>x</p>"))
	}
	for _, name := range []string{"blog.atom", "weather.json", "ru_windows1251.html", "alert.cap", "notes.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add("", b)
	}
	f.Add("text/html", []byte(pngHead))
	f.Add("", []byte("\xff\xfe<\x00a\x00>\x00"))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		if len(body) > maxFuzzLen {
			return
		}
		r := NewRegistry()
		r.RegisterXMLRoot("urn:oasis:names:tc:emergency:cap:", "alert", xmlReader{})
		doc, err := r.Read(context.Background(), contentType, bytes.NewReader(body), &Options{Ignore: []string{`\d+`}})
		if err != nil {
			for _, known := range []error{ErrUnsupportedMediaType, ErrMalformed, ErrTooDeep} {
				if errors.Is(err, known) {
					return
				}
			}
			t.Fatalf("unexpected error: %v", err)
		}
		if doc.MediaType == "" {
			t.Fatalf("no media type")
		}
		if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
			t.Fatalf("invalid UTF-8")
		}
		if strings.ContainsAny(doc.Text, "0123456789") {
			t.Fatalf("ignored digits left in %q", doc.Text)
		}
	})
}
