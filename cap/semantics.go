package cap

import (
	"strings"
	"time"
)

// DefaultTTL is how long an info block without expires stays in effect
// after the alert was sent, for Expired.
const DefaultTTL = 24 * time.Hour

// Ref returns the reference that identifies a: its sender, identifier and
// sent time, as other alerts cite it in their references.
func (a *Alert) Ref() Reference {
	return Reference{Sender: a.Sender, Identifier: a.Identifier, Sent: a.Sent}
}

// Key returns a string that identifies a: see Reference.Key.
func (a *Alert) Key() string { return a.Ref().Key() }

// Key returns "sender,identifier,sent" with sent written in UTC, so that
// references to the same alert written in different zones have equal keys.
func (r Reference) Key() string {
	return r.Sender + "," + r.Identifier + "," + r.Sent.UTC().Format("2006-01-02T15:04:05") + "-00:00"
}

// String returns r as CAP writes it: "sender,identifier,sent" with sent in
// its own zone.
func (r Reference) String() string {
	s, err := r.format(Version12)
	if err != nil {
		return r.Sender + "," + r.Identifier + "," + r.Sent.Format(time.RFC3339)
	}
	return s
}

// Matches reports whether r identifies other: same sender, same identifier
// and the same sent instant (in any zone).
func (r Reference) Matches(other *Alert) bool {
	return other != nil && r.Sender == other.Sender && r.Identifier == other.Identifier && r.Sent.Equal(other.Sent)
}

// ParseReference reads one "sender,identifier,sent" triplet as written in a
// references element.
func ParseReference(s string) (Reference, error) {
	parts := strings.Split(trimSpace(s), ",")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return Reference{}, &ValidationError{Field: "reference", Rule: "reference is not sender,identifier,sent", Value: clip(s)}
	}
	sent, form, ok := parseDateTime(parts[2])
	if !ok || form != formCAP {
		return Reference{}, &ValidationError{Field: "reference", Rule: "dateTime format", Value: clip(parts[2])}
	}
	return Reference{Sender: parts[0], Identifier: parts[1], Sent: sent}, nil
}

// Refers reports whether a lists other among its references.
func (a *Alert) Refers(other *Alert) bool {
	for _, r := range a.References {
		if r.Matches(other) {
			return true
		}
	}
	return false
}

// Supersedes reports whether a replaces other: a is an Update or a Cancel
// that references other. (Ack and Error messages reference alerts without
// replacing them.)
func (a *Alert) Supersedes(other *Alert) bool {
	return (a.MsgType == MsgTypeUpdate || a.MsgType == MsgTypeCancel) && a.Refers(other)
}

// InfoPeriod returns when the info block in (one of a's) is in effect, from
// start inclusive to end exclusive, with ttl as the life of an info block
// that has no expires. As CAP defines them, start is the effective time, else
// the alert's sent time (onset is when the event is expected to begin, not
// when the information takes effect), and end is the expires time, else
// sent + ttl. Query's Active and ExpiresAt use these periods.
func (a *Alert) InfoPeriod(in *Info, ttl time.Duration) (start, end time.Time) {
	start, end = in.Effective, in.Expires
	if start.IsZero() {
		start = a.Sent
	}
	if end.IsZero() {
		end = a.Sent.Add(ttl)
	}
	return start, end
}

// ExpiresAt returns when a stops being in effect, with ttl as the life of an
// info block that has no expires: the latest end of its info blocks'
// periods (see InfoPeriod), each expiring at its expires time or, without
// one, at sent + ttl. An alert without info blocks expires at sent + ttl.
func (a *Alert) ExpiresAt(ttl time.Duration) time.Time {
	if len(a.Infos) == 0 {
		return a.Sent.Add(ttl)
	}
	var last time.Time
	for i := range a.Infos {
		if _, end := a.InfoPeriod(&a.Infos[i], ttl); i == 0 || end.After(last) {
			last = end
		}
	}
	return last
}

// Expired reports whether a has expired at time at, giving info blocks
// without expires a life of DefaultTTL: see ExpiredTTL.
func (a *Alert) Expired(at time.Time) bool { return a.ExpiredTTL(at, DefaultTTL) }

// ExpiredTTL reports whether a has expired at time at: every info block has
// expired (at is at or after ExpiresAt(ttl)).
func (a *Alert) ExpiredTTL(at time.Time, ttl time.Duration) bool {
	return !at.Before(a.ExpiresAt(ttl))
}
