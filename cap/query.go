package cap

import (
	"errors"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The query parameters ParseQuery reads, named after CAP elements.
const (
	ParamStatus     = "status"
	ParamMsgType    = "msgType"
	ParamScope      = "scope"
	ParamSender     = "sender"
	ParamCategory   = "category"
	ParamEvent      = "event"
	ParamUrgency    = "urgency"
	ParamSeverity   = "severity"
	ParamCertainty  = "certainty"
	ParamLanguage   = "language"
	ParamAreaDesc   = "areaDesc"
	ParamGeocode    = "geocode"
	ParamSentAfter  = "sent.after"
	ParamSentBefore = "sent.before"
	ParamActive     = "active"
	ParamBBox       = "bbox"
	ParamGeohash    = "geohash"
)

// QueryParams returns the names of the parameters ParseQuery accepts, so
// that an HTTP handler can split its own parameters (paging, format) from
// the filter.
func QueryParams() []string {
	return []string{
		ParamStatus, ParamMsgType, ParamScope, ParamSender, ParamCategory, ParamEvent,
		ParamUrgency, ParamSeverity, ParamCertainty, ParamLanguage, ParamAreaDesc,
		ParamGeocode, ParamSentAfter, ParamSentBefore, ParamActive, ParamBBox, ParamGeohash,
	}
}

// QueryError is a bad query parameter. It wraps ErrBadQuery and, when there
// is one, the underlying cause.
type QueryError struct {
	Param string // the parameter name as given
	Value string // the offending value, if any
	Err   error  // what is wrong with it
}

// Error returns "cap: bad query: PARAM=VALUE: CAUSE".
func (e *QueryError) Error() string {
	s := "cap: bad query: " + e.Param
	if e.Value != "" {
		s += "=" + e.Value
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns ErrBadQuery and the cause.
func (e *QueryError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrBadQuery}
	}
	return []error{ErrBadQuery, e.Err}
}

// Query selects alerts by CAP element values, times and places. Within a
// field the values are alternatives (any of them matches); the fields are
// combined with AND. A zero Query matches every alert.
//
// Alert-level criteria (Status, MsgType, Scope, Sender, SentAfter,
// SentBefore) test the alert. Info-level criteria (Category, Event,
// Urgency, Severity, Certainty, Language, Active) must all hold in one info
// block, and area-level criteria (AreaDesc, Geocode, BBox, Geohash) must all
// hold in one area of that same info block: "severity=Extreme&event=Flood"
// does not match an alert whose Extreme info is about a fire and whose flood
// info is Minor. An alert without info blocks matches no info- or
// area-level criterion.
type Query struct {
	Status  []Status
	MsgType []MsgType
	Scope   []Scope
	// Sender values match the sender exactly, ignoring case.
	Sender   []string
	Category []Category
	// Event values match when they occur in the info's event, ignoring case
	// ("flood" matches "Flash Flood Warning").
	Event     []string
	Urgency   []Urgency
	Severity  []Severity
	Certainty []Certainty
	// Language values are RFC 3066 tags matched on whole subtags, ignoring
	// case: "en" matches "en-US" and "en", not "eng". An info without
	// language is "en-US", as CAP says.
	Language []string
	// AreaDesc values match when they occur in the area description,
	// ignoring case.
	AreaDesc []string
	// Geocode values match a geocode of the area. An empty ValueName matches
	// any value name; names are compared ignoring case, values exactly, and a
	// value that lists several codes separated by spaces (as some feeds
	// write) matches any of them.
	Geocode []NamedValue
	// SentAfter and SentBefore bound the alert's sent time to the half-open
	// interval [SentAfter, SentBefore); zero means unbounded.
	SentAfter, SentBefore time.Time
	// Active, when not zero, keeps info blocks in effect at that time:
	// start ≤ Active < end, with the period of Alert.InfoPeriod and
	// DefaultTTL: start is the effective time, else the alert's sent time
	// (not the onset, which is when the event begins); end is the expires
	// time, else sent + DefaultTTL, so that an alert matches Active exactly
	// while one of its info blocks does and Alert.Expired agrees.
	Active time.Time
	// BBox boxes match an area whose polygons or circles meet one of them.
	// Areas with geocodes only have no geometry and never match.
	BBox []BBox
	// Geohash cells (lower-case base 32, 1 to 12 characters) match an area
	// whose polygons or circles meet one of the cells.
	Geohash []string
}

// ParseQuery reads a query from URL parameters named after CAP elements:
// status, msgType, scope, sender, category, event, urgency, severity,
// certainty, language, areaDesc, geocode, sent.after, sent.before, active,
// bbox (west,south,east,north) and geohash. Parameter names are matched
// ignoring case. A repeated parameter lists alternatives; the enumerated
// parameters (status, msgType, scope, category, urgency, severity,
// certainty) and language also accept comma-separated alternatives, while
// free-text parameters (sender, event, areaDesc, geocode) never split at
// commas, since their values may contain them. Enumeration values are
// accepted in any case and stored in their CAP spelling. Times are RFC 3339
// and may be given once each. A geocode is "valueName:value" or just
// "value" (":value" for a value that contains a colon). Empty values are
// ignored, as HTML forms send them for blank fields.
//
// Unknown parameters and bad values give a *QueryError naming the parameter.
// Names that differ only in case are one parameter: their values are taken
// together ("severity=Severe&Severity=Extreme" is both severities, and a
// time given under both spellings is given more than once).
func ParseQuery(v url.Values) (*Query, error) {
	// Sorted names make the outcome independent of map order: the same
	// error for the same query.
	names := slices.Sorted(maps.Keys(v))
	type param struct {
		name   string // first spelling, for errors
		values []string
	}
	params := map[string]*param{}
	var order []string
	for _, name := range names {
		canon, ok := canonicalParam(name)
		if !ok {
			return nil, &QueryError{Param: name, Err: errors.New("unknown parameter")}
		}
		p := params[canon]
		if p == nil {
			p = &param{name: name}
			params[canon] = p
			order = append(order, canon)
		}
		p.values = append(p.values, v[name]...)
	}
	q := &Query{}
	for _, canon := range order {
		p := params[canon]
		if err := q.set(canon, p.name, p.values); err != nil {
			return nil, err
		}
	}
	q.normalize()
	return q, nil
}

// set parses the values of the parameter param, given as name, into q.
func (q *Query) set(param, name string, values []string) error {
	var vals []string
	for _, s := range values {
		if s = strings.TrimSpace(s); s != "" {
			vals = append(vals, s)
		}
	}
	bad := func(value string, err error) error { return &QueryError{Param: name, Value: value, Err: err} }
	var err error
	switch param {
	case ParamStatus:
		q.Status, err = parseEnums(splitCommas(vals), statusValues[Version12])
	case ParamMsgType:
		q.MsgType, err = parseEnums(splitCommas(vals), msgTypeValues)
	case ParamScope:
		q.Scope, err = parseEnums(splitCommas(vals), scopeValues)
	case ParamCategory:
		q.Category, err = parseEnums(splitCommas(vals), categoryValues[Version12])
	case ParamUrgency:
		q.Urgency, err = parseEnums(splitCommas(vals), urgencyValues)
	case ParamSeverity:
		q.Severity, err = parseEnums(splitCommas(vals), severityValues)
	case ParamCertainty:
		q.Certainty, err = parseEnums(splitCommas(vals), slices.Concat(certaintyValues[Version12], []Certainty{CertaintyVeryLikely}))
	case ParamLanguage:
		for _, s := range splitCommas(vals) {
			if !validLanguageTag(s) {
				return bad(s, errors.New("not a language tag"))
			}
			q.Language = append(q.Language, s)
		}
	case ParamSender:
		q.Sender = vals
	case ParamEvent:
		q.Event = vals
	case ParamAreaDesc:
		q.AreaDesc = vals
	case ParamGeocode:
		for _, s := range vals {
			g := parseGeocodeParam(s)
			if g.Value == "" {
				return bad(s, errors.New("empty geocode value"))
			}
			q.Geocode = append(q.Geocode, g)
		}
	case ParamSentAfter, ParamSentBefore, ParamActive:
		if len(vals) > 1 {
			return bad(vals[1], errors.New("given more than once"))
		}
		if len(vals) == 0 {
			return nil
		}
		t, terr := time.Parse(time.RFC3339, vals[0])
		if terr != nil {
			return bad(vals[0], errors.New("not an RFC 3339 time"))
		}
		*q.timeField(param) = t.UTC()
	case ParamBBox:
		for _, s := range vals {
			b, berr := ParseBBox(s)
			if berr != nil {
				return bad(s, berr)
			}
			q.BBox = append(q.BBox, b)
		}
	case ParamGeohash:
		for _, s := range vals {
			h := strings.ToLower(s)
			if !validGeohash(h) {
				return bad(s, errors.New("not a geohash of 1 to 12 base-32 characters"))
			}
			q.Geohash = append(q.Geohash, h)
		}
	}
	if err != nil {
		var ev enumValueError
		if errors.As(err, &ev) {
			return bad(string(ev), errors.New("not a "+param+" value"))
		}
		return bad("", err)
	}
	return nil
}

// timeField returns the time field of a time parameter.
func (q *Query) timeField(param string) *time.Time {
	switch param {
	case ParamSentAfter:
		return &q.SentAfter
	case ParamSentBefore:
		return &q.SentBefore
	}
	return &q.Active
}

// canonicalParam returns the canonical spelling of a parameter name.
func canonicalParam(name string) (string, bool) {
	for _, p := range QueryParams() {
		if strings.EqualFold(p, name) {
			return p, true
		}
	}
	return "", false
}

// splitCommas splits each value at commas, dropping empty parts.
func splitCommas(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// enumValueError is a value that is not in an enumeration.
type enumValueError string

func (e enumValueError) Error() string { return "unknown value " + string(e) }

// parseEnums maps each value to its CAP spelling in values.
func parseEnums[T ~string](vals []string, values []T) ([]T, error) {
	var out []T
	for _, s := range vals {
		x, ok := foldOneOf(s, values)
		if !ok {
			return nil, enumValueError(s)
		}
		out = append(out, x)
	}
	return out, nil
}

// validLanguageTag reports whether s looks like an RFC 3066 tag: subtags of 1
// to 8 ASCII letters or digits separated by hyphens.
func validLanguageTag(s string) bool {
	for _, sub := range strings.Split(s, "-") {
		if len(sub) == 0 || len(sub) > 8 {
			return false
		}
		for _, r := range sub {
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
				return false
			}
		}
	}
	return true
}

// parseGeocodeParam splits "valueName:value" at the first colon.
func parseGeocodeParam(s string) NamedValue {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return NamedValue{Value: s}
	}
	return NamedValue{ValueName: strings.TrimSpace(name), Value: strings.TrimSpace(value)}
}

// normalize sorts and de-duplicates every list, so that equal queries have
// equal fields and one encoding.
func (q *Query) normalize() {
	q.Status = sortedSet(q.Status)
	q.MsgType = sortedSet(q.MsgType)
	q.Scope = sortedSet(q.Scope)
	q.Sender = sortedSet(q.Sender)
	q.Category = sortedSet(q.Category)
	q.Event = sortedSet(q.Event)
	q.Urgency = sortedSet(q.Urgency)
	q.Severity = sortedSet(q.Severity)
	q.Certainty = sortedSet(q.Certainty)
	q.Language = sortedSet(q.Language)
	q.AreaDesc = sortedSet(q.AreaDesc)
	q.Geohash = sortedSet(q.Geohash)
	slices.SortFunc(q.Geocode, func(a, b NamedValue) int {
		return strings.Compare(a.ValueName+"\x00"+a.Value, b.ValueName+"\x00"+b.Value)
	})
	q.Geocode = slices.Compact(q.Geocode)
	slices.SortFunc(q.BBox, func(a, b BBox) int { return strings.Compare(a.String(), b.String()) })
	q.BBox = slices.Compact(q.BBox)
}

// sortedSet sorts s and removes duplicates.
func sortedSet[T ~string](s []T) []T {
	slices.Sort(s)
	return slices.Compact(s)
}

// Encode returns the query as URL parameters in a canonical form (sorted,
// de-duplicated, one value per parameter occurrence, times in UTC), so that
// equal queries give equal URLs and ParseQuery(q.Encode()) gives back an
// equal query.
func (q *Query) Encode() url.Values {
	v := url.Values{}
	addAll(v, ParamStatus, q.Status)
	addAll(v, ParamMsgType, q.MsgType)
	addAll(v, ParamScope, q.Scope)
	addAll(v, ParamSender, q.Sender)
	addAll(v, ParamCategory, q.Category)
	addAll(v, ParamEvent, q.Event)
	addAll(v, ParamUrgency, q.Urgency)
	addAll(v, ParamSeverity, q.Severity)
	addAll(v, ParamCertainty, q.Certainty)
	addAll(v, ParamLanguage, q.Language)
	addAll(v, ParamAreaDesc, q.AreaDesc)
	for _, g := range q.Geocode {
		switch {
		case g.ValueName != "":
			v.Add(ParamGeocode, g.ValueName+":"+g.Value)
		case strings.Contains(g.Value, ":"):
			v.Add(ParamGeocode, ":"+g.Value)
		default:
			v.Add(ParamGeocode, g.Value)
		}
	}
	for _, p := range []string{ParamSentAfter, ParamSentBefore, ParamActive} {
		if t := *q.timeField(p); !t.IsZero() {
			v.Set(p, t.UTC().Format(time.RFC3339Nano))
		}
	}
	for _, b := range q.BBox {
		v.Add(ParamBBox, b.String())
	}
	addAll(v, ParamGeohash, q.Geohash)
	return v
}

// addAll adds the values to v under name.
func addAll[T ~string](v url.Values, name string, values []T) {
	for _, x := range values {
		v.Add(name, string(x))
	}
}

// String returns the encoded query, as in a URL.
func (q *Query) String() string { return q.Encode().Encode() }

// Filter returns the alerts q matches, in their order. A nil query matches
// every alert.
func Filter(alerts []*Alert, q *Query) []*Alert {
	var out []*Alert
	for _, a := range alerts {
		if q.Match(a) {
			out = append(out, a)
		}
	}
	return out
}

// Match reports whether q selects the alert (see Query for the rules). A nil
// query matches every non-nil alert.
func (q *Query) Match(a *Alert) bool {
	if a == nil {
		return false
	}
	if q == nil {
		return true
	}
	if !anyFold(q.Status, a.Status) || !anyFold(q.MsgType, a.MsgType) || !anyFold(q.Scope, a.Scope) ||
		!anyFold(q.Sender, a.Sender) {
		return false
	}
	if !q.SentAfter.IsZero() && a.Sent.Before(q.SentAfter) {
		return false
	}
	if !q.SentBefore.IsZero() && !a.Sent.Before(q.SentBefore) {
		return false
	}
	if !q.hasInfoCriteria() {
		return true
	}
	for i := range a.Infos {
		if q.matchInfo(a, &a.Infos[i]) {
			return true
		}
	}
	return false
}

// hasInfoCriteria reports whether q tests info blocks or areas.
func (q *Query) hasInfoCriteria() bool {
	return len(q.Category) > 0 || len(q.Event) > 0 || len(q.Urgency) > 0 || len(q.Severity) > 0 ||
		len(q.Certainty) > 0 || len(q.Language) > 0 || !q.Active.IsZero() || q.hasAreaCriteria()
}

// hasAreaCriteria reports whether q tests areas.
func (q *Query) hasAreaCriteria() bool {
	return len(q.AreaDesc) > 0 || len(q.Geocode) > 0 || len(q.BBox) > 0 || len(q.Geohash) > 0
}

// matchInfo tests the info-level and area-level criteria on one info block;
// the cheap comparisons run before the geometry.
func (q *Query) matchInfo(a *Alert, in *Info) bool {
	if !anyFold(q.Urgency, in.Urgency) || !anyFold(q.Severity, in.Severity) ||
		!anyFold(q.Certainty, in.Certainty) {
		return false
	}
	if len(q.Category) > 0 && !slices.ContainsFunc(in.Category, func(c Category) bool { return anyFold(q.Category, c) }) {
		return false
	}
	if len(q.Event) > 0 && !slices.ContainsFunc(q.Event, func(e string) bool { return containsFold(in.Event, e) }) {
		return false
	}
	if len(q.Language) > 0 {
		lang := in.Language
		if lang == "" {
			lang = "en-US"
		}
		if !slices.ContainsFunc(q.Language, func(l string) bool { return languageMatch(lang, l) }) {
			return false
		}
	}
	if !q.Active.IsZero() && !activeAt(a, in, q.Active) {
		return false
	}
	if !q.hasAreaCriteria() {
		return true
	}
	for i := range in.Areas {
		if q.matchArea(&in.Areas[i]) {
			return true
		}
	}
	return false
}

// activeAt reports whether the info block is in effect at t.
func activeAt(a *Alert, in *Info, t time.Time) bool {
	start, end := a.InfoPeriod(in, DefaultTTL)
	return !t.Before(start) && t.Before(end)
}

// matchArea tests the area-level criteria on one area.
func (q *Query) matchArea(ar *Area) bool {
	if len(q.AreaDesc) > 0 && !slices.ContainsFunc(q.AreaDesc, func(d string) bool { return containsFold(ar.AreaDesc, d) }) {
		return false
	}
	if len(q.Geocode) > 0 && !slices.ContainsFunc(q.Geocode, func(g NamedValue) bool { return geocodeMatch(ar.Geocodes, g) }) {
		return false
	}
	if len(q.BBox) == 0 && len(q.Geohash) == 0 {
		return true
	}
	// The polygons' bounds serve every box and cell of the query.
	var buf [16]polygonBounds
	shapes := ar.shapes(buf[:])
	if len(q.BBox) > 0 && !slices.ContainsFunc(q.BBox, shapes.intersectsBBox) {
		return false
	}
	return len(q.Geohash) == 0 || slices.ContainsFunc(q.Geohash, func(h string) bool { return shapes.intersectsBBox(geohashBBox(h)) })
}

// geocodeMatch reports whether one of the geocodes matches want.
func geocodeMatch(codes []NamedValue, want NamedValue) bool {
	for _, c := range codes {
		if want.ValueName != "" && !strings.EqualFold(c.ValueName, want.ValueName) {
			continue
		}
		if c.Value == want.Value || slices.Contains(strings.Fields(c.Value), want.Value) {
			return true
		}
	}
	return false
}

// anyFold reports whether want is empty or v equals one of its values
// ignoring case (alerts read leniently may spell values oddly).
func anyFold[T ~string](want []T, v T) bool {
	if len(want) == 0 {
		return true
	}
	for _, w := range want {
		if w == v || strings.EqualFold(string(w), string(v)) {
			return true
		}
	}
	return false
}

// containsFold reports whether sub occurs in s, ignoring case, without
// allocating.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// languageMatch reports whether tag is want or starts with want followed by a
// hyphen, ignoring case.
func languageMatch(tag, want string) bool {
	if len(tag) < len(want) || !strings.EqualFold(tag[:len(want)], want) {
		return false
	}
	return len(tag) == len(want) || tag[len(want)] == '-'
}
