package cap

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// MediaType is the media type of CAP documents (RFC 4287 treats it as an
// XML media type, so Atom content of this type holds the alert element).
const MediaType = "application/cap+xml"

// AtomOptions configures WriteAtom. The zero value (or nil) writes a feed
// titled DefaultAtomTitle whose id is derived from the title.
type AtomOptions struct {
	// Title is the feed title. Defaults to DefaultAtomTitle.
	Title string
	// ID is the feed's permanent IRI. Defaults to SelfURL, or when that is
	// empty to a urn:uuid derived from Title.
	ID string
	// Updated is the feed's last change. Defaults to the latest sent time of
	// the alerts, or the current time when there are none; set it for
	// reproducible output.
	Updated time.Time
	// SelfURL, when not empty, is written as the feed's rel="self" link.
	SelfURL string
	// Author is the feed author's name. Defaults to DefaultAtomAuthor.
	Author string
	// AlertURL, when not nil, returns the URL of an alert's source
	// document, written as the entry's rel="alternate" link; an empty
	// result writes no link. It is the only way entries link to their
	// source: without it (the default) they have no link at all, only the
	// embedded alert, since the package knows no URL of its own and does
	// not invent one (an info's web page is not the CAP document).
	AlertURL func(*Alert) string
}

// Defaults of AtomOptions.
const (
	DefaultAtomTitle  = "CAP alerts"
	DefaultAtomAuthor = "vokter"
)

// atomNamespace is the namespace of Atom feeds (RFC 4287).
const atomNamespace = "http://www.w3.org/2005/Atom"

// atomChunk is the size at which WriteAtom hands its buffer to the writer,
// so that memory does not grow with the number of alerts.
const atomChunk = 64 << 10

// WriteAtom writes the alerts as an Atom feed (RFC 4287): a CAP index in
// which each entry embeds its alert as XML content of type
// application/cap+xml. Entries carry the id, title, updated and author that
// RFC 4287 requires: the id is a urn:uuid derived from the alert's sender,
// identifier and sent time (stable across runs and feeds), the title is the
// first info's headline (or event, or the identifier), updated is the sent
// time and the author is the sender. ParseIndex reads the alerts back.
func WriteAtom(w io.Writer, alerts []*Alert, opts *AtomOptions) error {
	o := AtomOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Title == "" {
		o.Title = DefaultAtomTitle
	}
	if o.ID == "" {
		o.ID = o.SelfURL
	}
	if o.ID == "" {
		o.ID = string(appendHashUUID(nil, []byte("feed\x00"+o.Title)))
	}
	if o.Author == "" {
		o.Author = DefaultAtomAuthor
	}
	updated := o.Updated
	for i, a := range alerts {
		if a == nil {
			return fmt.Errorf("cap: WriteAtom: alert %d is nil", i)
		}
		if o.Updated.IsZero() && a.Sent.After(updated) {
			updated = a.Sent
		}
	}
	if updated.IsZero() {
		updated = time.Now()
	}
	// The feed is written directly rather than by encoding/xml, in the
	// layout xml.Encoder gives the RFC 4287 elements with Indent("", "  "),
	// with the same escaping (new lines escaped, as encoding/xml does for
	// struct fields); testdata/golden pins the bytes.
	aw := &atomWriter{x: xmlWriter{buf: make([]byte, 0, 2*atomChunk)}}
	aw.alert.out = &aw.x
	x := &aw.x
	x.buf = append(x.buf, xml.Header...)
	x.startElem("feed", attr{"xmlns", atomNamespace})
	writeLeaf(x, "id", o.ID, true)
	writeLeaf(x, "title", o.Title, true)
	aw.time("updated", updated)
	aw.author(o.Author)
	writeLeaf(x, "generator", "vokter", true)
	if o.SelfURL != "" {
		aw.link("self", "application/atom+xml", o.SelfURL)
	}
	for _, a := range alerts {
		if err := aw.entry(a, updated, o.AlertURL); err != nil {
			return fmt.Errorf("cap: WriteAtom: %w", err)
		}
		if len(x.buf) >= atomChunk {
			if _, err := w.Write(x.buf); err != nil {
				return fmt.Errorf("cap: WriteAtom: %w", err)
			}
			x.buf = x.buf[:0]
		}
	}
	x.endElem("feed")
	x.buf = append(x.buf, '\n')
	if _, err := w.Write(x.buf); err != nil {
		return fmt.Errorf("cap: WriteAtom: %w", err)
	}
	return nil
}

// atomWriter writes the elements of an Atom feed.
type atomWriter struct {
	x     xmlWriter
	alert writer // writes to x
	// text holds the text of an id or time while it is composed.
	text []byte
}

// entry writes the entry of one alert; feedUpdated stands in for a missing
// sent time. Its id is a urn:uuid derived from the alert, its title the
// first info's headline (or event, or the identifier), its author the
// sender.
func (aw *atomWriter) entry(a *Alert, feedUpdated time.Time, alertURL func(*Alert) string) error {
	x := &aw.x
	x.startElem("entry")
	aw.text = appendAlertUUID(aw.text[:0], a)
	writeLeaf(x, "id", aw.text, true)
	title := a.Identifier
	if len(a.Infos) > 0 {
		if in := &a.Infos[0]; in.Headline != "" {
			title = in.Headline
		} else if in.Event != "" {
			title = in.Event
		}
	}
	writeLeaf(x, "title", title, true)
	if a.Sent.IsZero() {
		aw.time("updated", feedUpdated)
	} else {
		aw.time("updated", a.Sent)
		aw.time("published", a.Sent)
	}
	author := a.Sender
	if author == "" {
		author = "unknown"
	}
	aw.author(author)
	if alertURL != nil {
		if href := alertURL(a); href != "" {
			aw.link("alternate", MediaType, href)
		}
	}
	x.startElem("content", attr{"type", MediaType})
	if err := aw.alert.writeAlert(a); err != nil {
		return err
	}
	x.endElem("content")
	x.endElem("entry")
	return nil
}

// time writes t as an RFC 3339 date, keeping its zone offset.
func (aw *atomWriter) time(name string, t time.Time) {
	aw.text = t.AppendFormat(aw.text[:0], time.RFC3339)
	writeLeaf(&aw.x, name, aw.text, true)
}

func (aw *atomWriter) author(name string) {
	aw.x.startElem("author")
	writeLeaf(&aw.x, "name", name, true)
	aw.x.endElem("author")
}

func (aw *atomWriter) link(rel, typ, href string) {
	aw.x.startElem("link", attr{"rel", rel}, attr{"type", typ}, attr{"href", href})
	aw.x.endElem("link")
}

// AlertUUID returns the stable Atom id of an alert: a name-based (version 5
// layout) urn:uuid computed from its sender, identifier and sent time, the
// triplet CAP uses to name an alert. Equal triplets give equal ids.
func AlertUUID(a *Alert) string {
	return string(appendAlertUUID(nil, a))
}

// appendAlertUUID appends the AlertUUID of a.
func appendAlertUUID(dst []byte, a *Alert) []byte {
	var buf [128]byte // enough for most names, so that they stay on the stack
	name := append(buf[:0], a.Sender...)
	name = append(name, 0)
	name = append(name, a.Identifier...)
	name = append(name, 0)
	name = a.Sent.UTC().AppendFormat(name, time.RFC3339)
	return appendHashUUID(dst, name)
}

// appendHashUUID appends a urn:uuid built from the SHA-1 hash of name (its
// parts NUL-separated), with the version 5 and RFC 4122 variant bits set.
func appendHashUUID(dst, name []byte) []byte {
	u := sha1.Sum(name)
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	dst = append(dst, "urn:uuid:"...)
	dst = hex.AppendEncode(dst, u[0:4])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[4:6])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[6:8])
	dst = append(dst, '-')
	dst = hex.AppendEncode(dst, u[8:10])
	dst = append(dst, '-')
	return hex.AppendEncode(dst, u[10:16])
}
