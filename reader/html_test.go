package reader

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestHTMLText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, title string
	}{
		{"inline does not split words", `<p>Hel<b>lo</b> <i>wor</i>ld</p>`, "Hello world", ""},
		{"blocks break lines", `<div>one</div><div>two<p>three</p>four</div>`, "one\ntwo\nthree\nfour", ""},
		{"br and hr", `a<br>b<br/>c<hr>d`, "a\nb\nc\nd", ""},
		{"list items", `<ul><li>α</li><li>β</li></ul>`, "α\nβ", ""},
		{"headings", `<h1>Top</h1><h6>Low</h6>text`, "Top\nLow\ntext", ""},
		{"table rows and cells", `<table><tr><td>a</td><td>b</td></tr><tr><th>c</th><td>d</td></tr></table>`, "a b\nc d", ""},
		{"whitespace collapsed", "<p>  many \t\n spaces\u00a0and\u3000ideographic  </p>", "many spaces and ideographic", ""},
		{"blank lines collapsed", `<p></p><div> </div><p>x</p><br><br><br><p>y</p>`, "x\ny", ""},
		{"entities decoded", `<p>&lt;tag&gt; &amp; &eacute;t&eacute; &#8364; &#x1F600; &nbsp;end</p>`, "<tag> & été € 😀 end", ""},
		{"scripts styles hidden", `<script>var a="<p>x</p>";</script><style>p{}</style><noscript>js</noscript><template><p>t</p></template><p>shown</p>`, "shown", ""},
		{"comments hidden", `<p>a<!-- hidden -->b</p>`, "ab", ""},
		{"title line and Title", `<html><head><title> The  Title </title><meta charset=utf-8></head><body>body</body></html>`, "The Title\nbody", "The Title"},
		{"svg title is not the title", `<body><svg><title>icon</title></svg><p>x</p></body>`, "x", ""},
		{"only first title", `<title>one</title><title>two</title>`, "one\ntwo", "one"},
		{"head ends implicitly", `<html><head><title>T</title><p>para</p>`, "T\npara", "T"},
		{"text in head shows", `<head>stray</head>`, "stray", ""},
		{"pre keeps lines", "<pre>line 1\n  line 2\n\nline 3</pre>", "line 1\nline 2\nline 3", ""},
		{"iframe hidden, object fallback shown", `<iframe>frame</iframe><object>obj</object>x`, "objx", ""},
		{"unclosed object", `<p>a</p><object data="x.swf"><p>b</p><p>c</p>`, "a\nb\nc", ""},
		{"unclosed svg ends at html", `<p>a</p><svg><path d="M0"/><p>b</p><div>c</div>`, "a\nb\nc", ""},
		{"svg html integration point stays hidden", `<svg><foreignObject><p>in</p></foreignObject></svg><p>out</p>`, "out", ""},
		{"unclosed svg ends at body end", `<p>x</p><svg><text>logo</text></body><p>after</p>`, "x\nafter", ""},
		{"mathml shown", `<p>Area <math><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math></p>`, "Area πr2", ""},
		{"unclosed math", `<math><mi>x</mi><p>rest</p>`, "x\nrest", ""},
		{"hidden attribute", `<p>a</p><div hidden><p>secret</p><div>more</div></div><p>b</p>`, "a\nb", ""},
		{"hidden attribute with implied end tags", `<div hidden><p>x<p>y<br></div>z`, "z", ""},
		{"unclosed hidden element ends at body end", `<div hidden><p>secret</body><p>after`, "after", ""},
		{"hidden attribute in upper case", `<DIV Hidden=""><P>x</P></DIV><p title="hidden">y</p>`, "y", ""},
		{"hidden void element", `<p>a<input hidden>b<img hidden src=x></p>`, "ab", ""},
		{"noembed and noframes hidden", `a<noembed>embed</noembed><noframes>frames</noframes>b`, "ab", ""},
		{"self-closing script", `<p>a</p><script src="x.js"/><p>b</p></script><p>c</p>`, "a\nc", ""},
		{"self-closing iframe", `<p>a</p><iframe src="x"/>inner</iframe><p>c</p>`, "a\nc", ""},
		{"self-closing div", `<div/>a<span/>b`, "ab", ""},
		{"unclosed script hides the rest", `<p>a</p><script>b`, "a", ""},
		{"stray end tags", `</div></script></p>a`, "a", ""},
		{"form controls", `<select><option>One</option><option>Two</option></select><textarea>typed
text</textarea>`, "One\nTwo\ntyped\ntext", ""},
		{"non-Latin", `<p>日本語の<b>テキスト</b></p><p>Ελληνικά</p>`, "日本語のテキスト\nΕλληνικά", ""},
		{"control characters", "<p>a\x01b\x7fc</p>", "a b c", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc, err := htmlReader{}.ReadDocument(context.Background(), []byte(tt.in), ReadParams{MediaType: "text/html"})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("text = %q, want %q", doc.Text, tt.want)
			}
			if doc.Title != tt.title {
				t.Errorf("title = %q, want %q", doc.Title, tt.title)
			}
		})
	}
}

func TestHTMLSelector(t *testing.T) {
	t.Parallel()
	page := `<html><head><title>Page</title></head><body>
<nav><a>Home</a></nav>
<div id="main"><h1>Headline</h1><p class="lead">Lead <b>text</b></p><div class="price">42 €</div></div>
<div class="price">13 €</div>
<footer>© footer</footer><div id="secret" hidden>secret</div></body></html>`
	tests := []struct {
		selector, want string
	}{
		{"#main", "Headline\nLead text\n42 €"},
		{".price", "42 €\n13 €"},
		{"#main, .price", "Headline\nLead text\n42 €\n13 €"}, // nested match read once
		{"h1, footer", "Headline\n© footer"},
		{"title", "Page"},
		{"article", ""},
		{"p.lead b", "text"},
		{"#main, #secret", "Headline\nLead text\n42 €"}, // hidden attribute
	}
	for _, tt := range tests {
		t.Run(tt.selector, func(t *testing.T) {
			t.Parallel()
			doc, err := NewRegistry().Read(context.Background(), "text/html", strings.NewReader(page), &Options{Selector: tt.selector})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != tt.want {
				t.Errorf("text = %q, want %q", doc.Text, tt.want)
			}
			if doc.Title != "Page" {
				t.Errorf("title = %q, want Page", doc.Title)
			}
		})
	}
}

// TestHTMLDeep: 100,000 nested elements are read quickly without a tree; with
// a selector (which needs the tree) they fail with ErrTooDeep.
func TestHTMLDeep(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		tag     string
		tooDeep bool // for the HTML parser; <table><table> closes the first
	}{{"div", true}, {"b", true}, {"table", false}} {
		body := strings.Repeat("<"+tt.tag+">", 100_000) + "deep text" + strings.Repeat("</"+tt.tag+">", 100_000)
		t.Run(tt.tag, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			doc, err := readDoc(context.Background(), "text/html", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Text != "deep text" {
				t.Errorf("text = %q", doc.Text)
			}
			_, err = NewRegistry().Read(context.Background(), "text/html", strings.NewReader(body), &Options{Selector: "p"})
			if errors.Is(err, ErrTooDeep) != tt.tooDeep {
				t.Errorf("with selector: err = %v, want ErrTooDeep: %v", err, tt.tooDeep)
			}
			if d := time.Since(start); d > 20*time.Second { // generous: -race is 40x slower here
				t.Errorf("took %v", d)
			}
		})
	}
}
