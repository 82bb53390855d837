package reader_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vokter-go/vokter/reader"
)

func ExampleRead() {
	page := `<!DOCTYPE html>
<html><head><title>Weather</title><script>track()</script></head>
<body>
  <nav><a href="/">Home</a></nav>
  <h1>Forecast for Ἀθῆναι</h1>
  <p>Sunny, <b>28&nbsp;°C</b>.</p>
  <table><tr><td>Mon</td><td>Sun</td></tr><tr><td>Tue</td><td>Rain</td></tr></table>
</body></html>`
	text, err := reader.Read(context.Background(), "text/html; charset=utf-8", strings.NewReader(page))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(text)
	// Output:
	// Weather
	// Home
	// Forecast for Ἀθῆναι
	// Sunny, 28 °C.
	// Mon Sun
	// Tue Rain
}

func ExampleRegistry_Read() {
	r := reader.NewRegistry()
	opts := &reader.Options{
		Selector: "#news",                                        // only this part of the page
		Ignore:   []string{`Updated \d\d:\d\d`, `\(\d+ views\)`}, // parts that change on every visit
	}
	page := `<div id="menu">Menu</div>
<div id="news"><h2>Headlines</h2><p>Updated 10:42</p><ul><li>Storm warning (1503 views)</li><li>Roads closed</li></ul></div>`
	doc, err := r.Read(context.Background(), "text/html", strings.NewReader(page), opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Text)

	// Binary content is refused, whatever the declared type.
	_, err = r.Read(context.Background(), "text/html", strings.NewReader("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), nil)
	fmt.Println(errors.Is(err, reader.ErrBinary), err)
	// Output:
	// Headlines
	// Storm warning
	// Roads closed
	// true reader: binary content (image/png) served as text/html
}

func ExampleRegistry_Read_feed() {
	feed := `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>City news</title>
<item><title>Bridge reopened</title><link>https://example.org/1</link>
<description>&lt;p&gt;The &lt;b&gt;old bridge&lt;/b&gt; is open again.&lt;/p&gt;</description>
<pubDate>Tue, 19 Mar 2024 07:00:00 GMT</pubDate></item></channel></rss>`
	// Served as generic XML, recognised as RSS by its root element.
	doc, err := reader.NewRegistry().Read(context.Background(), "application/xml", strings.NewReader(feed), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.MediaType, "|", doc.Title)
	fmt.Println(doc.Text)
	// Output:
	// application/rss+xml | City news
	// City news
	// Bridge reopened
	// The old bridge is open again.
}

func ExampleRegistry_Read_json() {
	body := `{"station": "Λάρισα", "readings": [{"t": 21.5}, {"t": 22}], "ok": true}`
	doc, err := reader.NewRegistry().Read(context.Background(), "application/json", strings.NewReader(body), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Text)
	// Output:
	// ok: true
	// readings[].t: 21.5
	// readings[].t: 22
	// station: Λάρισα
}

// capReader stands for a CAP reader registered by another package.
type capReader struct{}

func (capReader) Read(_ context.Context, body []byte, p reader.ReadParams) (string, error) {
	return "CAP alert, root " + p.Root.Local + " in " + p.Root.Space, nil
}

func ExampleRegistry_RegisterXMLRoot() {
	r := reader.NewRegistry()
	r.RegisterXMLRoot("urn:oasis:names:tc:emergency:cap:", "alert", capReader{})
	alert := `<?xml version="1.0"?><alert xmlns="urn:oasis:names:tc:emergency:cap:1.2"><identifier>42</identifier></alert>`
	doc, err := r.Read(context.Background(), "text/xml", strings.NewReader(alert), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Text)
	// Output:
	// CAP alert, root alert in urn:oasis:names:tc:emergency:cap:1.2
}
