// Package reader turns fetched documents into clean text according to their
// media type: HTML and XHTML, XML, RSS and Atom, JSON, CAP and plain text.
// A [Registry] chooses the reader from the Content-Type and, when that is
// missing or generic, from a sniff of the first bytes.
package reader
