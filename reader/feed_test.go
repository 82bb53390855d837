package reader

import (
	"context"
	"testing"
)

// TestFeedMarkup: HTML markup left unescaped inside feed fields, often
// unbalanced, is read as HTML and ends with its field.
func TestFeedMarkup(t *testing.T) {
	t.Parallel()
	rss := func(items string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>` + items + `</channel></rss>`
	}
	tests := []struct {
		name, body, want string
	}{
		{"br in description", rss(`<item><description>Hello<br>world</description></item>`), "News\nHello\nworld"},
		{"unclosed p does not merge items", rss(`<item><description><p>First item text</description><link>https://x/1</link></item><item><title>Second</title></item>`), "News\nFirst item text\nSecond"},
		{"mixed escaped and raw", rss(`<item><description>Tom &amp;amp; Jerry <b>bold</b> &lt;i&gt;it&lt;/i&gt;<img src="a.png" alt='x"y'></description></item>`), "News\nTom & Jerry bold it"},
		{"self-closing markup", rss(`<item><content:encoded>one<br/>two</content:encoded></item>`), "News\none\ntwo"},
		{"markup in a plain title", rss(`<item><title>Big <b>news</title><description>body</description></item>`), "News\nBig news\nbody"},
		{"nested field name", rss(`<item><description>a<description>b</description>c</description><title>T</title></item>`), "News\nabc\nT"},
		{"feed cut short in a field", `<rss><channel><item><description>tail <b>text`, "tail text"},
		{"atom html summary", `<feed xmlns="http://www.w3.org/2005/Atom"><title>F</title><entry><summary type="html"><p>one<p>two</summary><title>E</title></entry></feed>`, "F\none\ntwo\nE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := feedReader{}.Read(context.Background(), []byte(tt.body), ReadParams{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
