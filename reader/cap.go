package reader

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"

	capxml "github.com/vokter-go/vokter/cap"
)

// CAP namespaces claimed by the CAP reader when an alert is served as
// generic XML. The OASIS prefix covers CAP 1.0 to 1.2 and later 1.x.
const (
	capOASISNamespace = "urn:oasis:names:tc:emergency:cap:"
	capIncidentNS10   = "http://www.incident.com/cap/1.0"
)

// capReader reads a CAP alert, leniently, into text: per info its event,
// headline, description, instruction and area descriptions, one per line,
// so a watched alert can be keyword-matched like any page.
type capReader struct{}

// xmlEncodingDecl matches the encoding pseudo-attribute of an XML
// declaration.
var xmlEncodingDecl = regexp.MustCompile(`^(\s*<\?xml[^>]*?encoding\s*=\s*)["'][^"']*["']`)

// Read implements Reader.
func (capReader) Read(ctx context.Context, body []byte, p ReadParams) (string, error) {
	doc, err := capReader{}.ReadDocument(ctx, body, p)
	return doc.Text, err
}

// ReadDocument implements DocumentReader: the title is the first headline,
// else the first event.
func (capReader) ReadDocument(ctx context.Context, body []byte, _ ReadParams) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, err
	}
	// The registry hands readers UTF-8 whatever the declared charset, so
	// the declaration must say so or the alert would be decoded twice.
	body = xmlEncodingDecl.ReplaceAll(body, []byte(`${1}"UTF-8"`))
	a, _, err := capxml.ParseLenient(body)
	if err != nil {
		return Document{}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	var b bytes.Buffer
	var title string
	line := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, in := range a.Infos {
		line(in.Event)
		line(in.Headline)
		line(in.Description)
		line(in.Instruction)
		for _, ar := range in.Areas {
			line(ar.AreaDesc)
		}
		if title == "" {
			title = cmpOr(strings.TrimSpace(in.Headline), strings.TrimSpace(in.Event))
		}
	}
	return Document{Text: strings.TrimRight(b.String(), "\n"), Title: title}, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
