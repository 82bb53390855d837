// Package cap reads, validates, writes and queries Common Alerting Protocol
// (CAP 1.0, 1.1 and 1.2) alerts and their Atom, RSS and EDXL-DE indices.
//
// # Alerts
//
// The model follows the CAP elements: an Alert holds Infos, an Info holds
// Resources and Areas; enumerations are typed strings with constants
// (StatusActual, SeveritySevere, ...); times are time.Time values in the zone
// offset the document wrote; polygons are closed rings of Points and circles
// have a radius in kilometres. Alert.Version records the CAP version, known
// from the namespace.
//
//   - Parse reads an alert strictly: the version's schema and the rules of
//     the specification's text. Its error joins one *ValidationError per
//     broken rule (errors.Is(err, ErrInvalid); ValidationErrors lists them),
//     or wraps ErrMalformed, ErrNotCAP, ErrDTD or ErrTooLarge when the
//     document cannot be read as an alert.
//   - ParseLenient salvages non-conforming alerts and returns the problems
//     it found and what it did about each.
//   - Marshal and EncodeAlert write an alert canonically in its own
//     version's namespace; Parse(Marshal(a)) equals a.
//   - Alert.Validate checks a model built in code.
//   - Alert.Ref, Key, Refers, Supersedes, ExpiresAt, Expired and ExpiredTTL
//     answer which alert replaces which and which are still in effect.
//
// # Caveats
//
// The package name shadows Go's builtin cap function in files that import
// it; import it under another name:
//
//	import capxml "github.com/vokter-go/vokter/cap"
//
// Leading and trailing XML white space of every value is removed when
// reading. Optional elements that are absent are zero values: an empty
// string, a nil slice, a zero time.Time (test with IsZero), a nil *float64
// for altitude and ceiling, a zero Resource.Size. An empty optional element
// (such as <restriction/>) reads as absent.
//
// Times keep their offset as a time.FixedZone without a name (time.UTC for
// offset zero, written back as -00:00). Compare times with Equal.
//
// An XML signature (<Signature> in the xmldsig namespace) is accepted after
// the info blocks but not kept: Marshal cannot reproduce it, and a signature
// over re-serialised XML would not verify anyway.
//
// CAP 1.0 is read and written in its own form (password element,
// "valueName=value" text for eventCode, parameter and geocode, "Very Likely"
// certainty); the OASIS-style namespace urn:oasis:names:tc:emergency:cap:1.0
// is read as CAP 1.0 too, and written as http://www.incident.com/cap/1.0.
// CAP 1.0's schema takes any xs:dateTime, so "Z" and fractional seconds are
// valid there only.
//
// Parse refuses documents larger than MaxAlertBytes, with more than
// MaxElements elements, nested deeper than MaxDepth or with a DTD (so no
// entity is ever expanded or fetched), and drops polygons longer than
// MaxPolygonPoints with a ValidationError. It reports at most MaxProblems
// broken rules, then one ValidationError counting the others. It refuses
// XML that is not well-formed, including text outside the root element and
// repeated attributes (which encoding/xml lets through); ParseLenient
// reports and ignores them.
//
// Every error of Parse is a *ValidationError for errors.As: a document that
// cannot be read as an alert gives one for the field "alert" that wraps
// ErrMalformed, ErrDTD, ErrNotCAP or ErrTooLarge rather than ErrInvalid.
//
// Beyond the schema, Parse rejects an alert that references itself (same
// sender and identifier), as Google's CAP validator does, and an empty
// <references/>.
//
// The Field of a *ValidationError names the element in the document
// ("alert.info[0].area[1].polygon[0]"). Parse keeps the indices of the
// document for the rules it checks on the model, and reports each broken
// rule once: a value that could not be read at all (an unreadable date, an
// empty polygon) is not reported again as missing. ParseLenient drops
// unusable polygons and circles, so Validate on its alert counts indices in
// the model.
//
// An info block is in effect (Query.Active, Alert.Expired, the KML TimeSpan)
// from its effective time, else the alert's sent time, to its expires time,
// else sent + DefaultTTL: see Alert.InfoPeriod. Onset, when the event is
// expected to begin, plays no part.
package cap
