// Package xmltext escapes text for XML written by hand, byte for byte as
// encoding/xml would, for the writers of package cap and kml that append to
// buffers instead of encoding tokens.
package xmltext

import "unicode/utf8"

// AppendEscaped appends s escaped exactly as encoding/xml escapes text, so
// that hand-written XML and xml.Encoder write the same bytes: & < > " ' as &amp;
// &lt; &gt; &#34; &#39;, tab and carriage return as &#x9; and &#xD;, new
// line as &#xA; only when escapeNewline, and each byte that is not UTF-8
// and each code point XML 1.0 forbids as U+FFFD. It copies runs of plain
// bytes whole, where xml.EscapeText decodes every rune.
func AppendEscaped[T string | []byte](dst []byte, s T, escapeNewline bool) []byte {
	// plain has bit c set for the ASCII bytes c written as they are: one
	// lookup instead of a comparison per special byte, without a branch
	// that mixed text mispredicts.
	plain := [2]uint64{(1<<64 - 1<<' ') &^ (1<<'"' | 1<<'&' | 1<<'\'' | 1<<'<' | 1<<'>'), 1<<64 - 1}
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && plain[c>>6]>>(c&63)&1 != 0 {
			i++
			continue
		}
		width := 1
		var esc string
		switch c {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '\t':
			esc = "&#x9;"
		case '\r':
			esc = "&#xD;"
		case '\n':
			if !escapeNewline {
				i++
				continue
			}
			esc = "&#xA;"
		default:
			if c >= utf8.RuneSelf {
				var r rune
				// The conversion of at most 4 bytes does not allocate.
				r, width = utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
				if !(r == utf8.RuneError && width == 1) && r != 0xFFFE && r != 0xFFFF {
					i += width
					continue
				}
			}
			// Other control characters, bytes that are not UTF-8, U+FFFE
			// and U+FFFF.
			esc = "\uFFFD"
		}
		dst = append(dst, s[last:i]...)
		dst = append(dst, esc...)
		i += width
		last = i
	}
	return append(dst, s[last:]...)
}
