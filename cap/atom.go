package cap

import (
	"bufio"
	"crypto/sha1"
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
	// result writes no link.
	AlertURL func(*Alert) string
}

// Defaults of AtomOptions.
const (
	DefaultAtomTitle  = "CAP alerts"
	DefaultAtomAuthor = "vokter"
)

// atomFeed and the types below are the subset of RFC 4287 WriteAtom writes,
// fields in the order of the RFC's element lists.
type atomFeed struct {
	XMLName   xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID        string      `xml:"id"`
	Title     string      `xml:"title"`
	Updated   string      `xml:"updated"`
	Author    atomPerson  `xml:"author"`
	Generator string      `xml:"generator"`
	Links     []atomLink  `xml:"link"`
	Entries   []atomEntry `xml:"entry"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomEntry struct {
	ID        string      `xml:"id"`
	Title     string      `xml:"title"`
	Updated   string      `xml:"updated"`
	Published string      `xml:"published,omitempty"`
	Author    atomPerson  `xml:"author"`
	Links     []atomLink  `xml:"link"`
	Content   atomContent `xml:"content"`
}

// atomContent holds the alert as inline XML content.
type atomContent struct {
	alert *Alert
}

// MarshalXML writes <content type="application/cap+xml"> around the alert.
func (c atomContent) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "type"}, Value: MediaType})
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	if err := EncodeAlert(e, c.alert); err != nil {
		return err
	}
	return e.EncodeToken(start.End())
}

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
		o.ID = hashUUID("feed", o.Title)
	}
	if o.Author == "" {
		o.Author = DefaultAtomAuthor
	}
	feed := atomFeed{
		ID: o.ID, Title: o.Title, Author: atomPerson{Name: o.Author}, Generator: "vokter",
		Entries: make([]atomEntry, 0, len(alerts)),
	}
	if o.SelfURL != "" {
		feed.Links = []atomLink{{Rel: "self", Type: "application/atom+xml", Href: o.SelfURL}}
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
	feed.Updated = atomTime(updated)
	for _, a := range alerts {
		feed.Entries = append(feed.Entries, atomEntryOf(a, updated, o.AlertURL))
	}
	bw := bufio.NewWriter(w)
	if _, err := bw.WriteString(xml.Header); err != nil {
		return fmt.Errorf("cap: WriteAtom: %w", err)
	}
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if err := enc.Encode(feed); err != nil {
		return fmt.Errorf("cap: WriteAtom: %w", err)
	}
	if err := bw.WriteByte('\n'); err != nil {
		return fmt.Errorf("cap: WriteAtom: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("cap: WriteAtom: %w", err)
	}
	return nil
}

// atomEntryOf builds the entry of one alert; feedUpdated stands in for a
// missing sent time.
func atomEntryOf(a *Alert, feedUpdated time.Time, alertURL func(*Alert) string) atomEntry {
	e := atomEntry{ID: AlertUUID(a), Title: a.Identifier, Author: atomPerson{Name: a.Sender}, Content: atomContent{alert: a}}
	if len(a.Infos) > 0 {
		if in := a.Infos[0]; in.Headline != "" {
			e.Title = in.Headline
		} else if in.Event != "" {
			e.Title = in.Event
		}
	}
	if e.Author.Name == "" {
		e.Author.Name = "unknown"
	}
	if a.Sent.IsZero() {
		e.Updated = atomTime(feedUpdated)
	} else {
		e.Updated = atomTime(a.Sent)
		e.Published = e.Updated
	}
	if alertURL != nil {
		if href := alertURL(a); href != "" {
			e.Links = []atomLink{{Rel: "alternate", Type: MediaType, Href: href}}
		}
	}
	return e
}

// atomTime formats t as an RFC 3339 date, keeping its zone offset.
func atomTime(t time.Time) string { return t.Format(time.RFC3339) }

// AlertUUID returns the stable Atom id of an alert: a name-based (version 5
// layout) urn:uuid computed from its sender, identifier and sent time, the
// triplet CAP uses to name an alert. Equal triplets give equal ids.
func AlertUUID(a *Alert) string {
	return hashUUID(a.Sender, a.Identifier, a.Sent.UTC().Format(time.RFC3339))
}

// hashUUID returns a urn:uuid built from the SHA-1 hash of the parts
// (NUL-separated), with the version 5 and RFC 4122 variant bits set.
func hashUUID(parts ...string) string {
	h := sha1.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		io.WriteString(h, p)
	}
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("urn:uuid:%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
