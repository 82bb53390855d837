// Package reader turns fetched documents into clean text according to their
// media type: HTML and XHTML, XML, RSS and Atom, JSON, CAP and plain text.
// A [Registry] chooses the reader from the Content-Type and, when that is
// missing or generic, from a sniff of the first bytes.
//
// The text is meant to be diffed and keyword-matched, so it is stable and
// line-shaped: valid UTF-8 in every script (nothing above U+007F is lost),
// one block of a page or one element of an XML document per line, white
// space collapsed inside lines, no empty lines.
//
//	doc, err := reader.Read(ctx, resp.Header.Get("Content-Type"), resp.Body)
//
// or, with a CSS selector to watch only part of a page and patterns for
// text that changes on every visit:
//
//	r := reader.NewRegistry()
//	doc, err := r.Read(ctx, contentType, body, &reader.Options{
//		Selector: "#content",
//		Ignore:   []string{`\d+ views`},
//	})
//
// # Readers
//
//   - HTML and XHTML (golang.org/x/net/html): visible text only. Scripts,
//     styles, noscript, noembed, noframes, templates, iframes, SVG,
//     comments, elements with the hidden attribute and the head (except the
//     title, which is also [Document].Title) are left out; an object's
//     fallback content and MathML text are shown;
//     block elements (p, div, li, tr, h1-h6, br, ...) end lines; inline
//     elements do not split words; table cells are separated by a space;
//     line breaks inside pre are kept.
//   - RSS 0.9x/1.0/2.0 and Atom: the feed's title and description, then each
//     item's title, description, summary and content; escaped HTML, and
//     HTML markup left unescaped in a field, is read as HTML. Links, dates
//     and identifiers are left out.
//   - Other XML: the text of each element on its own line.
//   - JSON and JSON Lines: one "path.to.key: value" line per scalar value.
//     Object members are sorted by key; array elements keep their order and
//     their paths carry no index (items[].title), so an element inserted at
//     the front of an array adds its lines and changes no other. Unusual
//     keys are quoted (path["a key"]).
//   - Plain text (and any other text/ type): as is, with "\n" line endings.
//
// More readers can be added with [Registry.Register] (by media type) and
// [Registry.RegisterXMLRoot] (by the root element of XML documents, e.g. CAP
// alerts served as application/xml).
//
// # Choosing a reader
//
// The Content-Type is parsed with mime.ParseMediaType; a malformed header
// counts as missing. A missing, generic (application/octet-stream) or
// unknown application type is replaced by a sniff of the first 8 KiB:
// binary signatures (net/http.DetectContentType), then XML (with its root
// element), HTML, JSON, or plain text. "+xml" and "+json" types fall back to
// the XML and JSON readers, text types to plain text. XML served as
// application/xml or text/xml is given to the reader that claims its root
// element (RSS, Atom, RDF, XHTML, or a registered one).
//
// # Charsets
//
// The charset is taken from the byte order mark, then the Content-Type
// charset parameter, then the document (<meta charset>, <meta http-equiv>,
// the XML declaration), else UTF-8 — except that an HTML or text body that
// declares nothing and is not valid UTF-8 is read as windows-1252, as
// browsers do. Bytes invalid in the charset become U+FFFD. Readers always
// receive valid UTF-8.
//
// # Bounds
//
// Bodies longer than [Options].MaxBytes (default [DefaultMaxBytes]) fail
// with [ErrTooLarge] after reading at most MaxBytes+1 bytes (at once when
// the body reports its length). HTML and XML are read as token streams
// without recursion, so depth costs nothing; JSON deeper than
// [MaxJSONDepth] fails with [ErrTooDeep], JSON giving more than
// [MaxJSONValues] lines or [MaxJSONText] bytes of text with [ErrTooLarge]. Every reader checks its context
// as it goes. A Registry is safe for concurrent use.
//
// # Caveats
//
//   - An HTML or text body without a declared charset is read as UTF-8 when
//     it is valid UTF-8, else as windows-1252; other legacy encodings are
//     not guessed, so undeclared windows-1251 or Shift_JIS reads as Latin
//     mojibake. Undeclared XML and JSON are always UTF-8 (invalid bytes
//     show U+FFFD).
//   - A CSS selector needs the HTML document tree, which golang.org/x/net/html
//     refuses beyond 512 nested open elements: such pages fail with
//     [ErrTooDeep] when a selector is set (they read fine without one).
//     Nested matches are read once, as part of the outer match.
//   - Ignore patterns are applied to each line on its own, after reading:
//     they cannot span lines, and ^, $, \A and \z match at the line's ends.
//     A line they change is re-collapsed and dropped when empty. They do not
//     apply to [Document].Title.
//   - JSON array elements carry no index: equal elements give equal lines,
//     and an element moved within its array shows as removed and added.
//   - An unclosed hidden element (<template>, <div hidden>...) hides the
//     text up to </body>; an unclosed <svg> ends at the first HTML block or
//     phrase element, as in browsers.
//   - text/plain is never sniffed: HTML served as text/plain is read as text.
//   - Adjacent inline elements without white space between them join their
//     words (<a>Home</a><a>News</a> gives "HomeNews"), as browsers show them.
//   - Documents claimed by [Registry.RegisterXMLRoot] report the XML media
//     type they were served or sniffed as (e.g. "application/xml").
package reader
