package reader

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ctxEvery is how many tokens or nodes a reader handles between two checks
// of its context.
const ctxEvery = 1024

// htmlReader reads HTML and XHTML: visible text only, one block per line.
type htmlReader struct{ xhtml bool }

// Read implements [Reader].
func (h htmlReader) Read(ctx context.Context, body []byte, p ReadParams) (string, error) {
	d, err := h.ReadDocument(ctx, body, p)
	return d.Text, err
}

// ReadDocument implements [DocumentReader].
func (h htmlReader) ReadDocument(ctx context.Context, body []byte, p ReadParams) (Document, error) {
	var w lineWriter
	e := htmlText{w: &w}
	var err error
	if p.Selector == nil {
		e.wantTitle = true // the tree walk finds the title itself
		err = e.tokens(ctx, body, h.xhtml)
	} else {
		err = e.tree(ctx, body, p.Selector)
	}
	if err != nil {
		return Document{}, err
	}
	return Document{Text: w.String(), Title: collapse(e.title.String())}, nil
}

// elemClass says how an element shapes the text.
type elemClass uint8

const (
	inline  elemClass = iota // part of the surrounding line
	block                    // starts and ends a line
	cell                     // separates words (table cells)
	hidden                   // its content is not shown
	preform                  // block whose line breaks are kept
)

// classOf returns the class of an HTML element. object and math are
// inline: browsers show an object's fallback content and MathML's text.
func classOf(a atom.Atom) elemClass {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe,
		atom.Svg, atom.Noembed, atom.Noframes:
		return hidden
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body,
		atom.Br, atom.Caption, atom.Center, atom.Dd, atom.Details, atom.Dialog,
		atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Header, atom.Hgroup, atom.Hr, atom.Html,
		atom.Legend, atom.Li, atom.Main, atom.Menu, atom.Nav, atom.Ol,
		atom.Optgroup, atom.Option, atom.P, atom.Section, atom.Summary,
		atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Title, atom.Tr,
		atom.Ul, atom.Frameset, atom.Search:
		return block
	case atom.Td, atom.Th:
		return cell
	case atom.Pre, atom.Textarea, atom.Listing, atom.Plaintext:
		return preform
	}
	return inline
}

// isVoid reports whether an element never has content or an end tag.
func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Keygen, atom.Link, atom.Meta, atom.Param, atom.Source,
		atom.Track, atom.Wbr:
		return true
	}
	return false
}

// isRawText reports whether the tokenizer reads an element's content as raw
// text up to its end tag, even after a self-closing start tag: browsers
// ignore the "/" of <script/>, so the rest up to </script> is script.
func isRawText(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext,
		atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

// breaksOutOfSVG reports whether an HTML start tag inside SVG content ends
// the SVG, as the HTML parser does (foreign content's "any other start tag"
// rule), so that an unclosed <svg> does not hide the rest of a page.
func breaksOutOfSVG(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center,
		atom.Code, atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Hr,
		atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta, atom.Nobr,
		atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span,
		atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt,
		atom.U, atom.Ul, atom.Var:
		return true
	}
	return false
}

// inHead reports whether an element may stay in <head>; any other element
// (or visible text) implicitly ends the head, as in the HTML parser.
func inHead(a atom.Atom) bool {
	switch a {
	case atom.Head, atom.Title, atom.Meta, atom.Link, atom.Style, atom.Script,
		atom.Noscript, atom.Base, atom.Template:
		return true
	}
	return false
}

// htmlText turns a stream of HTML start tags, end tags and text into lines.
// Both the tokenizer (the fast path) and the document tree (when a selector
// needs it) drive it.
type htmlText struct {
	w         *lineWriter
	hide      []atom.Atom // open elements of the hidden region, outermost first; empty while text is shown
	pre       int         // depth inside preformatted elements
	head      bool        // inside <head>, where only the title is visible
	inTitle   bool
	wantTitle bool            // the first <title> is still to be found
	title     strings.Builder // raw text of the first <title>
}

// start handles a start tag; hiddenAttr is true when the element has the
// hidden attribute.
func (e *htmlText) start(a atom.Atom, hiddenAttr bool) {
	if a == atom.Head {
		e.head = true
	} else if !inHead(a) {
		e.head = false
	}
	if len(e.hide) > 0 {
		if breaksOutOfSVG(a) {
			e.hide = e.hide[:svgStart(e.hide)]
		}
		if len(e.hide) > 0 {
			if !isVoid(a) {
				e.hide = append(e.hide, a)
			}
			return
		}
	}
	c := classOf(a)
	if (c == hidden || hiddenAttr) && !isVoid(a) {
		e.hide = append(e.hide, a)
		return
	}
	e.inTitle = a == atom.Title
	e.shape(c)
	if c == preform {
		e.pre++
	}
}

// svgStart returns the index in the hidden region's open elements of the
// SVG element that an HTML start tag would end, or len(open) when there is
// none (no <svg>, or the tag is inside one of SVG's HTML integration
// points, where HTML is at home).
func svgStart(open []atom.Atom) int {
	for i := len(open) - 1; i >= 0; i-- {
		switch open[i] {
		case atom.Svg:
			return i
		case atom.Foreignobject, atom.ForeignObject, atom.Desc, atom.Title:
			return len(open)
		}
	}
	return len(open)
}

// end handles an end tag. Inside a hidden region it closes the innermost
// open element of that name and those opened after it (end tags are often
// implied); </body> and </html> end any hidden region, so that one unclosed
// hidden element cannot hide the rest of a page.
func (e *htmlText) end(a atom.Atom) {
	if a == atom.Head {
		e.head = false
	}
	if len(e.hide) > 0 {
		if a != atom.Body && a != atom.Html {
			for i := len(e.hide) - 1; i >= 0; i-- {
				if e.hide[i] == a {
					e.hide = e.hide[:i]
					break
				}
			}
			return
		}
		e.hide = e.hide[:0]
	}
	c := classOf(a)
	if c == hidden {
		return // a stray end tag
	}
	if a == atom.Title && e.inTitle {
		e.inTitle = false
		if e.title.Len() > 0 {
			e.wantTitle = false
		}
	}
	e.shape(c)
	if c == preform && e.pre > 0 {
		e.pre--
	}
}

// shape applies the line breaks or word separation of an element's edge.
func (e *htmlText) shape(c elemClass) {
	switch c {
	case block, preform:
		e.w.breakLine()
	case cell:
		e.w.separate()
	}
}

func (e *htmlText) text(s string) {
	if len(e.hide) > 0 {
		return
	}
	switch {
	case e.inTitle:
		if e.wantTitle {
			e.title.WriteString(s)
		}
	case e.head:
		if isBlank(s) {
			return
		}
		e.head = false
	}
	if e.pre == 0 {
		e.w.WriteString(s)
		return
	}
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			e.w.breakLine()
		}
		e.w.WriteString(line)
	}
}

// tokens reads a whole document with the tokenizer: no tree, no depth limit,
// no allocation per element.
func (e *htmlText) tokens(ctx context.Context, body []byte, xhtml bool) error {
	z := html.NewTokenizer(bytes.NewReader(body))
	z.AllowCDATA(xhtml)
	for n := 1; ; n++ {
		if n%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch z.Next() {
		case html.ErrorToken:
			// The only error from a bytes.Reader is io.EOF.
			return nil
		case html.TextToken:
			e.text(string(z.Text()))
		case html.StartTagToken:
			e.start(tagOf(z))
		case html.EndTagToken:
			name, _ := z.TagName()
			e.end(atom.Lookup(name))
		case html.SelfClosingTagToken:
			a, hiddenAttr := tagOf(z)
			e.start(a, hiddenAttr)
			if !isRawText(a) {
				e.end(a)
			}
		}
	}
}

// tagOf returns the element of the tokenizer's current start tag and
// whether it has the hidden attribute.
func tagOf(z *html.Tokenizer) (atom.Atom, bool) {
	// TagAttr copies every attribute value; most tags have no "hidden"
	// anywhere in them, which a look at the raw bytes tells at once.
	raw := z.Raw()
	name, more := z.TagName()
	a := atom.Lookup(name)
	if !containsFold(raw, "hidden") {
		return a, false
	}
	for more {
		var key []byte
		key, _, more = z.TagAttr()
		if string(key) == "hidden" {
			return a, true
		}
	}
	return a, false
}

// containsFold reports whether b contains the lower-case ASCII word w in
// any case.
func containsFold(b []byte, w string) bool {
	for i := 0; i+len(w) <= len(b); i++ {
		if b[i]|0x20 == w[0] && bytes.EqualFold(b[i:i+len(w)], []byte(w)) {
			return true
		}
	}
	return false
}

// hasHiddenAttr reports whether attrs hold the hidden attribute.
func hasHiddenAttr(attrs []html.Attribute) bool {
	return slices.ContainsFunc(attrs, func(a html.Attribute) bool { return a.Key == "hidden" && a.Namespace == "" })
}

// tree parses the document and reads only the elements matching sel, each
// once (a match inside a match is part of the outer one). The walk follows
// node pointers, so it needs no stack whatever the depth.
func (e *htmlText) tree(ctx context.Context, body []byte, sel cascadia.Matcher) error {
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		// html.Parse fails on a bytes.Reader only when the document
		// nests more than 512 open elements.
		return fmt.Errorf("%w: html: %v", ErrTooDeep, err)
	}
	var match *html.Node // the matched element being read, nil outside
	n, count := doc, 0
	for n != nil {
		if count++; count%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		switch n.Type {
		case html.ElementNode:
			if n.DataAtom == atom.Title && e.title.Len() == 0 && n.Parent != nil && n.Parent.DataAtom == atom.Head {
				e.title.WriteString(collapse(nodeText(n)))
			}
			if match == nil && sel.Match(n) {
				match = n
				e.w.breakLine()
			}
			if match != nil {
				e.start(n.DataAtom, hasHiddenAttr(n.Attr))
			}
		case html.TextNode:
			if match != nil {
				e.text(n.Data)
			}
		}
		if n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		// Leave n and every ancestor that has no next sibling.
		for n != nil {
			if match != nil && n.Type == html.ElementNode {
				e.end(n.DataAtom)
			}
			if n == match {
				match = nil
				e.w.breakLine()
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
		}
	}
	return nil
}

// nodeText returns the concatenated text of n's child text nodes (enough for
// <title>, whose content is raw text).
func nodeText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
