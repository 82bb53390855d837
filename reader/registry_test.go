package reader

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func TestReadMediaType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, contentType, body string
		wantType, wantText      string
	}{
		{"html declared", "text/html; charset=utf-8", "<p>x</p>", "text/html", "x"},
		{"case and spaces", " Text/HTML ;charset=UTF-8", "<p>x</p>", "text/html", "x"},
		{"malformed header sniffs", "text/html; charset", "<p>x</p>", "text/html", "x"},
		{"missing sniffs html", "", "<!DOCTYPE html><p>x</p>", "text/html", "x"},
		{"octet-stream sniffs html", "application/octet-stream", "  <html><body>x</body></html>", "text/html", "x"},
		{"html fragment", "", "<span>x</span>", "text/html", "x"},
		{"sniff xml", "", `<?xml version="1.0"?><a><b>x</b><c>y</c></a>`, "application/xml", "x\ny"},
		{"sniff xml without declaration", "", `<note><to>x</to></note>`, "application/xml", "x"},
		{"sniff rss", "", `<rss version="2.0"><channel><title>T</title></channel></rss>`, "application/rss+xml", "T"},
		{"sniff atom", "", `<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>`, "application/atom+xml", "T"},
		{"sniff xhtml", "", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>`, "application/xhtml+xml", "x"},
		{"xhtml as application/xml", "application/xml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p><p>y</p></body></html>`, "application/xhtml+xml", "x\ny"},
		{"sniff json", "", `{"a": 1}`, "application/json", "a: 1"},
		{"sniff json array", "application/octet-stream", `[1, "two"]`, "application/json", "[]: 1\n[]: two"},
		{"brace that is not json", "", `{not json}`, "text/plain", "{not json}"},
		{"sniff text", "", "just text\r\nlines", "text/plain", "just text\nlines"},
		{"text/plain with html stays text", "text/plain", "<p>x</p>", "text/plain", "<p>x</p>"},
		{"other text type", "text/csv", "a,b\n1,2", "text/plain", "a,b\n1,2"},
		{"unknown application type sniffed", "application/x-foo", "<p>x</p>", "text/html", "x"},
		{"json suffix", "application/geo+json", `{"b":2,"a":1}`, "application/json", "a: 1\nb: 2"},
		{"ndjson", "application/x-ndjson", "{\"a\": 1}\n{\"a\": 2}\n", "application/x-ndjson", "a: 1\na: 2"},
		{"jsonl", "application/jsonl; charset=utf-8", "[1]\n[2]", "application/jsonl", "[]: 1\n[]: 2"},
		{"xml suffix", "application/vnd.foo+xml", `<a>x</a>`, "application/xml", "x"},
		{"rss served as text/html", "text/html", `<?xml version="1.0"?><rss><channel><title>T</title></channel></rss>`, "application/rss+xml", "T"},
		{"xhtml served as text/html", "text/html", `<?xml version="1.0"?><html><body><p>x</p></body></html>`, "text/html", "x"},
		{"text/xml", "text/xml", `<a>x</a>`, "text/xml", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc, err := readDoc(context.Background(), tt.contentType, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if doc.MediaType != tt.wantType || doc.Text != tt.wantText {
				t.Errorf("got (%q, %q), want (%q, %q)", doc.MediaType, doc.Text, tt.wantType, tt.wantText)
			}
		})
	}
}

// Real signatures of binary formats.
var (
	pngHead  = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa"
	pdfHead  = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
	zipHead  = "PK\x03\x04\x14\x00\x00\x00\x08\x00"
	gzipHead = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
)

func TestReadUnsupported(t *testing.T) {
	t.Parallel()
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(i*7919>>3) ^ byte(i)
	}
	tests := []struct {
		name, contentType, body string
		binary                  bool
	}{
		{"png as image/png", "image/png", pngHead, true},
		{"png undeclared", "", pngHead, true},
		{"png as text/html", "text/html", pngHead, true},
		{"pdf as application/pdf", "application/pdf", pdfHead, true},
		{"pdf undeclared", "", pdfHead, true},
		{"zip as octet-stream", "application/octet-stream", zipHead, true},
		{"gzip as text/html", "text/html; charset=utf-8", gzipHead + "compressed", true},
		{"nul bytes as text/html", "text/html", "<html>" + strings.Repeat("\x00\x01\x02x", 100), true},
		{"random as text/plain", "text/plain", string(random), true},
		{"random as application/json", "application/json", string(random), true},
		{"video declared", "video/mp4", "not really a video", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := readDoc(context.Background(), tt.contentType, strings.NewReader(tt.body))
			if !errors.Is(err, ErrUnsupportedMediaType) {
				t.Fatalf("err = %v, want ErrUnsupportedMediaType", err)
			}
			if errors.Is(err, ErrBinary) != tt.binary {
				t.Errorf("errors.Is(err, ErrBinary) = %v, want %v (err %v)", !tt.binary, tt.binary, err)
			}
			var mte *MediaTypeError
			if !errors.As(err, &mte) {
				t.Fatalf("err %T is not a *MediaTypeError", err)
			}
			if mte.MediaType != normalizeMediaType(tt.contentType) {
				t.Errorf("MediaType = %q", mte.MediaType)
			}
			name := mte.Detected
			if mte.MediaType != "" && !isGeneric(mte.MediaType) {
				name = mte.MediaType
			}
			if name == "" || !strings.Contains(err.Error(), name) {
				t.Errorf("error %q does not name the type %q", err, name)
			}
		})
	}
}

func TestReadBounds(t *testing.T) {
	t.Parallel()
	t.Run("empty body", func(t *testing.T) {
		t.Parallel()
		for _, ct := range []string{"", "text/html", "application/json", "image/png"} {
			doc, err := readDoc(context.Background(), ct, strings.NewReader(""))
			if err != nil || doc.Text != "" {
				t.Errorf("%q: (%v, %v), want empty text", ct, doc, err)
			}
		}
		doc, err := readDoc(context.Background(), "", nil)
		if err != nil || doc.Text != "" {
			t.Errorf("nil body: (%v, %v)", doc, err)
		}
	})
	t.Run("50 MB rejected quickly", func(t *testing.T) {
		t.Parallel()
		const size = 50 << 20
		for name, r := range map[string]io.Reader{
			"sized":  bytes.NewReader(make([]byte, size)), // refused by its Len
			"stream": io.LimitReader(repeatReader("<p>text</p>\n"), size),
		} {
			start := time.Now()
			_, err := readDoc(context.Background(), "text/html", r)
			if !errors.Is(err, ErrTooLarge) {
				t.Errorf("%s: err = %v, want ErrTooLarge", name, err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("%s: took %v", name, d)
			}
		}
	})
	t.Run("limit is exact", func(t *testing.T) {
		t.Parallel()
		opts := &Options{MaxBytes: 10}
		if _, err := NewRegistry().Read(context.Background(), "text/plain", iotest(strings.Repeat("x", 10)), opts); err != nil {
			t.Errorf("10 bytes at limit 10: %v", err)
		}
		if _, err := NewRegistry().Read(context.Background(), "text/plain", iotest(strings.Repeat("x", 11)), opts); !errors.Is(err, ErrTooLarge) {
			t.Errorf("11 bytes at limit 10: %v", err)
		}
	})
	t.Run("deep json", func(t *testing.T) {
		t.Parallel()
		body := strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)
		_, err := readDoc(context.Background(), "application/json", strings.NewReader(body))
		if !errors.Is(err, ErrTooDeep) {
			t.Errorf("err = %v, want ErrTooDeep", err)
		}
		body = strings.Repeat(`{"a":`, 10_000) + "1" + strings.Repeat("}", 10_000)
		if _, err := readDoc(context.Background(), "", strings.NewReader(body)); err == nil {
			t.Errorf("sniffed deep JSON read without error")
		}
	})
	t.Run("deep xml", func(t *testing.T) {
		t.Parallel()
		body := strings.Repeat("<a>", 100_000) + "x" + strings.Repeat("</a>", 100_000)
		doc, err := readDoc(context.Background(), "application/xml", strings.NewReader(body))
		if err != nil || doc.Text != "x" {
			t.Errorf("(%v, %v)", doc, err)
		}
	})
	t.Run("malformed", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct{ ct, body string }{
			{"application/json", `{"a": [1, 2}`},
			{"application/json", `{"a": 1`},
			{"application/xml", `<a><b x="1></a>`},
			{"application/rss+xml", `<rss><channel><title>x</ti`},
		} {
			if _, err := readDoc(context.Background(), tc.ct, strings.NewReader(tc.body)); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s %q: err = %v, want ErrMalformed", tc.ct, tc.body, err)
			}
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Read(ctx, "text/html", strings.NewReader("<p>x</p>")); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		for name, tc := range map[string]struct {
			rd   Reader
			body string
		}{
			"html": {htmlReader{}, string(readFile(t, "article_el.html"))},
			"xml":  {xmlReader{}, strings.Repeat("<a>x</a>", 5000)},
			"feed": {feedReader{}, "<rss><channel>" + strings.Repeat("<item><title>x</title></item>", 2000) + "</channel></rss>"},
			"json": {jsonReader{}, "[" + strings.Repeat("1,", 5000) + "1]"},
		} {
			if _, err := tc.rd.Read(ctx, []byte(tc.body), ReadParams{}); !errors.Is(err, context.Canceled) {
				t.Errorf("%s reader: err = %v, want context.Canceled", name, err)
			}
		}
	})
}

// repeatReader repeats its text forever.
type repeatReader string

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r[i%len(r)]
	}
	return len(p), nil
}

// iotest returns a reader that does not reveal its length.
func iotest(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) }

func TestReadCharset(t *testing.T) {
	t.Parallel()
	utf16le := func(s string) string {
		b, _ := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String(s)
		return b
	}
	cp1251 := func(s string) string {
		b, _ := charmap.Windows1251.NewEncoder().String(s)
		return b
	}
	tests := []struct {
		name, contentType, body string
		want                    string
	}{
		{"utf-8 BOM", "text/plain", "\xef\xbb\xbfпривет", "привет"},
		{"utf-16 BOM html", "text/html", utf16le("<p>Ελλάδα</p>"), "Ελλάδα"},
		{"utf-16 BOM sniffed xml", "", utf16le(`<?xml version="1.0" encoding="UTF-16"?><a>日本</a>`), "日本"},
		{"header charset", "text/plain; charset=windows-1251", cp1251("привет"), "привет"},
		{"meta charset", "text/html", `<meta charset="windows-1251"><p>` + cp1251("привет"), "привет"},
		{"header wins over meta", "text/html; charset=windows-1251", `<meta charset="iso-8859-7"><p>` + cp1251("привет"), "привет"},
		{"xml declaration", "application/xml", `<?xml version="1.0" encoding="windows-1251"?><a>` + cp1251("привет") + `</a>`, "привет"},
		{"unknown charset label falls back", "text/plain; charset=x-nonsense", "caf\xc3\xa9", "café"},
		{"utf-16 meta in ascii page", "text/html", `<meta charset="utf-16"><p>caf` + "\xc3\xa9", "café"},
		{"invalid utf-8 replaced", "text/plain; charset=utf-8", "bad \xff\xfe bytes", "bad \uFFFD bytes"},
		{"undeclared legacy text is windows-1252", "text/plain", "bad \xff\xfe bytes \x80", "bad ÿþ bytes €"},
		{"undeclared legacy html is windows-1252", "text/html", "<p>Caf\xe9 cr\xe8me \x93quoted\x94</p>", "Café crème “quoted”"},
		{"sniffed legacy html is windows-1252", "", "<!DOCTYPE html><p>Caf\xe9</p>", "Café"},
		{"undeclared utf-8 html stays utf-8", "text/html", "<p>Caf\xc3\xa9</p>", "Café"},
		{"meta utf-8 html keeps U+FFFD", "text/html", "<meta charset=utf-8><p>Caf\xe9</p>", "Caf\uFFFD"},
		{"undeclared xml stays utf-8", "application/xml", "<a>Caf\xe9</a>", "Caf\uFFFD"},
		{"invalid utf-8 in html", "text/html; charset=utf-8", "<p>caf\xe9</p>", "caf\uFFFD"},
		{"invalid utf-8 in json", "application/json", "{\"k\": \"v\xff\"}", "k: v\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc, err := readDoc(context.Background(), tt.contentType, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("text = %q, want %q", doc.Text, tt.want)
			}
			if !utf8.ValidString(doc.Text) {
				t.Errorf("invalid UTF-8")
			}
		})
	}
}

// recorder is a Reader that records what it was given.
type recorder struct {
	name   string
	params ReadParams
	body   string
}

func (r *recorder) Read(_ context.Context, body []byte, p ReadParams) (string, error) {
	r.params, r.body = p, string(body)
	return r.name, nil
}

func TestRegisterXMLRoot(t *testing.T) {
	t.Parallel()
	const capNS = "urn:oasis:names:tc:emergency:cap:"
	alert := readFile(t, "alert.cap")
	latin7, _ := charmap.ISO8859_7.NewEncoder().String(`<?xml version="1.0" encoding="ISO-8859-7"?><cap:alert xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><headline>Καταιγίδα</headline></cap:alert>`)
	tests := []struct {
		name, contentType, body string
		want                    string // recorder that must be called
		wantType                string
	}{
		{"application/xml", "application/xml", string(alert), "cap", "application/xml"},
		{"text/xml", "text/xml; charset=utf-8", string(alert), "cap", "text/xml"},
		{"sniffed", "", string(alert), "cap", "application/xml"},
		{"octet-stream", "application/octet-stream", string(alert), "cap", "application/xml"},
		{"prefixed root and legacy charset", "text/xml", latin7, "cap", "text/xml"},
		{"longest prefix wins", "application/xml", `<alert xmlns="urn:oasis:names:tc:emergency:cap:1.2-special"/>`, "special", "application/xml"},
		{"other namespace not claimed", "application/xml", `<alert xmlns="urn:other"><x>text</x></alert>`, "", "application/xml"},
		{"same name no namespace not claimed", "application/xml", `<alert><x>text</x></alert>`, "", "application/xml"},
		{"declared type of another reader wins", "application/rss+xml", `<rss><channel><title>T</title></channel></rss>`, "", "application/rss+xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := NewRegistry()
			capRd := &recorder{name: "cap"}
			special := &recorder{name: "special"}
			r.RegisterXMLRoot(capNS, "alert", &recorder{name: "replaced"})
			r.RegisterXMLRoot(capNS, "alert", capRd)
			r.RegisterXMLRoot(capNS+"1.2-special", "alert", special)
			doc, err := r.Read(context.Background(), tt.contentType, strings.NewReader(tt.body), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && doc.Text != tt.want {
				t.Fatalf("text = %q, want reader %q", doc.Text, tt.want)
			}
			if tt.want == "" && (doc.Text == "cap" || doc.Text == "special") {
				t.Fatalf("claimed by %q", doc.Text)
			}
			if doc.MediaType != tt.wantType {
				t.Errorf("MediaType = %q, want %q", doc.MediaType, tt.wantType)
			}
			if tt.want == "cap" {
				if capRd.params.Root.Local != "alert" || !strings.HasPrefix(capRd.params.Root.Space, capNS) {
					t.Errorf("Root = %v", capRd.params.Root)
				}
				if !utf8.ValidString(capRd.body) {
					t.Errorf("body is not UTF-8")
				}
				// The body must parse as it is, whatever it declared.
				var v struct {
					Headline   string `xml:"headline"`
					Identifier string `xml:"identifier"`
				}
				if err := xml.Unmarshal([]byte(capRd.body), &v); err != nil {
					t.Errorf("body does not unmarshal: %v", err)
				}
				if v.Headline+v.Identifier == "" {
					t.Errorf("nothing unmarshalled")
				}
			}
		})
	}
}

func TestRegister(t *testing.T) {
	t.Parallel()
	r := NewRegistry()
	rec := &recorder{name: "custom"}
	r.Register("Text/HTML; charset=utf-8", rec)
	doc, err := r.Read(context.Background(), "text/html; charset=windows-1251; q=1", strings.NewReader("<p>\xff</p>"), nil)
	if err != nil || doc.Text != "custom" {
		t.Fatalf("(%v, %v)", doc, err)
	}
	if rec.params.MediaType != "text/html" || rec.params.Charset != "windows-1251" || rec.params.Params["q"] != "1" || rec.body != "<p>я</p>" {
		t.Errorf("params %+v, body %q", rec.params, rec.body)
	}
	r.Register("text/html", nil) // back to the fallback of text types
	if doc, err := r.Read(context.Background(), "text/html", strings.NewReader("<p>x</p>"), nil); err != nil || doc.MediaType != "text/plain" {
		t.Errorf("unregistered text/html: (%v, %v)", doc, err)
	}
	var zero Registry
	if _, err := zero.Read(context.Background(), "text/plain", strings.NewReader("x"), nil); !errors.Is(err, ErrUnsupportedMediaType) {
		t.Errorf("zero registry: err = %v", err)
	}
}

func TestOptions(t *testing.T) {
	t.Parallel()
	page := "<html><head><title>Shop</title></head><body><h1>Offers</h1>" +
		"<p>Updated 12:03 on 2024-05-01</p><p class=visits>1234 visits</p><p>Price: 10 €</p></body></html>"
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"none", Options{}, "Shop\nOffers\nUpdated 12:03 on 2024-05-01\n1234 visits\nPrice: 10 €"},
		{"ignore dates and counters", Options{Ignore: []string{`\d{2}:\d{2}`, `\d{4}-\d{2}-\d{2}`, `^\d+ visits$`}}, "Shop\nOffers\nUpdated on\nPrice: 10 €"},
		{"ignore with selector", Options{Selector: "p", Ignore: []string{`(?i)updated.*`}}, "1234 visits\nPrice: 10 €"},
		{"ignore nothing matched", Options{Ignore: []string{`zzz`}}, "Shop\nOffers\nUpdated 12:03 on 2024-05-01\n1234 visits\nPrice: 10 €"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := tt.opts.Validate(); err != nil {
				t.Fatal(err)
			}
			doc, err := NewRegistry().Read(context.Background(), "text/html", strings.NewReader(page), &tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("text = %q, want %q", doc.Text, tt.want)
			}
		})
	}
}

func TestOptionsInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  Options
		field string
	}{
		{"bad regexp", Options{Ignore: []string{`ok`, `a(b`}}, "Ignore[1]"},
		{"perl lookahead", Options{Ignore: []string{`(?=x)`}}, "Ignore[0]"},
		{"bad selector", Options{Selector: "div[["}, "Selector"},
		{"negative limit", Options{MaxBytes: -1}, "MaxBytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := NewRegistry().Read(context.Background(), "text/html", strings.NewReader("<p>x</p>"), &tt.opts)
			if !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("err = %v, want ErrInvalidOptions", err)
			}
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Field != tt.field {
				t.Errorf("err = %v, want field %s", err, tt.field)
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("message %q does not name %s", err, tt.field)
			}
			if vErr := tt.opts.Validate(); !errors.Is(vErr, ErrInvalidOptions) {
				t.Errorf("Validate = %v", vErr)
			}
		})
	}
}

func TestMediaTypeErrorMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  MediaTypeError
		want string
	}{
		{MediaTypeError{MediaType: "image/png", Detected: "image/png", Binary: true}, "reader: unsupported media type image/png (binary content)"},
		{MediaTypeError{MediaType: "image/png", Binary: true}, "reader: unsupported media type image/png (binary content)"},
		{MediaTypeError{MediaType: "text/html", Detected: "image/png", Binary: true}, "reader: binary content (image/png) served as text/html"},
		{MediaTypeError{MediaType: "application/json", Binary: true}, "reader: binary content served as application/json"},
		{MediaTypeError{MediaType: "application/octet-stream", Detected: "application/zip", Binary: true}, "reader: unsupported media type application/zip (binary content)"},
		{MediaTypeError{Detected: "application/pdf", Binary: true}, "reader: unsupported media type application/pdf (binary content)"},
		{MediaTypeError{MediaType: "video/mp4"}, "reader: unsupported media type video/mp4"},
		{MediaTypeError{Binary: true}, "reader: binary content"},
		{MediaTypeError{}, "reader: unsupported media type"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

// readDoc reads with a default registry and options, as Read does, but
// returns the whole Document.
func readDoc(ctx context.Context, contentType string, body io.Reader) (*Document, error) {
	return NewRegistry().Read(ctx, contentType, body, nil)
}
