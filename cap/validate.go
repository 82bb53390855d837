package cap

import (
	"encoding/base64"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// elemSpec is one element of a schema sequence.
type elemSpec struct {
	name     string
	ns       string // "" for the CAP namespace of the alert
	min, max int    // max < 0: unbounded
}

const unbounded = -1

var (
	signatureSpec = elemSpec{name: "Signature", ns: NamespaceXMLSig, max: unbounded}
	alertTail     = []elemSpec{
		{name: "source", max: 1}, {name: "scope", min: 1, max: 1}, {name: "restriction", max: 1},
		{name: "addresses", max: 1}, {name: "code", max: unbounded}, {name: "note", max: 1},
		{name: "references", max: 1}, {name: "incidents", max: 1},
		{name: "info", max: unbounded}, signatureSpec,
	}
	alertHead = []elemSpec{
		{name: "identifier", min: 1, max: 1}, {name: "sender", min: 1, max: 1}, {name: "sent", min: 1, max: 1},
		{name: "status", min: 1, max: 1}, {name: "msgType", min: 1, max: 1},
	}
	// alertSpecs is the alert sequence per version: CAP 1.0 has the
	// password element and an optional scope.
	alertSpecs = map[Version][]elemSpec{
		Version10: concat(alertHead, []elemSpec{{name: "password", max: 1}, {name: "source", max: 1}, {name: "scope", max: 1}}, alertTail[2:]),
		Version11: concat(alertHead, alertTail),
		Version12: concat(alertHead, alertTail),
	}
	infoMiddle = []elemSpec{
		{name: "urgency", min: 1, max: 1}, {name: "severity", min: 1, max: 1}, {name: "certainty", min: 1, max: 1},
		{name: "audience", max: 1}, {name: "eventCode", max: unbounded},
		{name: "effective", max: 1}, {name: "onset", max: 1}, {name: "expires", max: 1},
		{name: "senderName", max: 1}, {name: "headline", max: 1}, {name: "description", max: 1},
		{name: "instruction", max: 1}, {name: "web", max: 1}, {name: "contact", max: 1},
		{name: "parameter", max: unbounded}, {name: "resource", max: unbounded},
		{name: "area", max: unbounded},
	}
	// infoSpecs is the info sequence per version: CAP 1.0 has no
	// responseType and category is optional there.
	infoSpecs = map[Version][]elemSpec{
		Version10: concat([]elemSpec{{name: "language", max: 1}, {name: "category", max: unbounded}, {name: "event", min: 1, max: 1}},
			infoMiddle),
		Version11: concat([]elemSpec{{name: "language", max: 1}, {name: "category", min: 1, max: unbounded}, {name: "event", min: 1, max: 1},
			{name: "responseType", max: unbounded}}, infoMiddle),
	}
	// resourceSpecs is the resource sequence per version: derefUri came in
	// CAP 1.1, and mimeType is required since 1.2.
	resourceSpecs = map[Version][]elemSpec{
		Version10: {{name: "resourceDesc", min: 1, max: 1}, {name: "mimeType", max: 1}, {name: "size", max: 1},
			{name: "uri", max: 1}, {name: "digest", max: 1}},
		Version11: {{name: "resourceDesc", min: 1, max: 1}, {name: "mimeType", max: 1}, {name: "size", max: 1},
			{name: "uri", max: 1}, {name: "derefUri", max: 1}, {name: "digest", max: 1}},
		Version12: {{name: "resourceDesc", min: 1, max: 1}, {name: "mimeType", min: 1, max: 1}, {name: "size", max: 1},
			{name: "uri", max: 1}, {name: "derefUri", max: 1}, {name: "digest", max: 1}},
	}
	areaSpecs = []elemSpec{
		{name: "areaDesc", min: 1, max: 1}, {name: "polygon", max: unbounded}, {name: "circle", max: unbounded},
		{name: "geocode", max: unbounded}, {name: "altitude", max: 1}, {name: "ceiling", max: 1},
	}
	namedValueSpecs = []elemSpec{{name: "valueName", min: 1, max: 1}, {name: "value", min: 1, max: 1}}

	allCertainties = append(certaintyValues[Version12][:5:5], CertaintyVeryLikely)
)

func init() {
	// CAP 1.1 and 1.2 share the info sequence.
	infoSpecs[Version12] = infoSpecs[Version11]
}

func concat(parts ...[]elemSpec) []elemSpec {
	var out []elemSpec
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// check compares the children of n with the schema sequence specs: unknown
// or foreign elements, order, cardinality, and text where the schema has
// none (elements where it has none are reported by leafText).
func (p *parser) check(n *node, path string, specs []elemSpec) {
	if t := trimSpace(string(n.text)); t != "" {
		p.add(path, p.dropped("text not allowed in <"+n.name.Local+">"), t)
	}
	var counts [24]int
	for _, k := range n.kids {
		if i := p.specIndex(k, specs); i >= 0 {
			counts[i]++
		}
	}
	pos := 0
	for _, k := range n.kids {
		kpath := loc{path, k.name.Local, -1}
		i := p.specIndex(k, specs)
		if i < 0 {
			switch {
			case k.name.Space != p.ns && k.name.Space == NamespaceXMLSig:
				p.add(kpath.String(), p.dropped("XML signature element not allowed here"), "")
			case k.name.Space != p.ns:
				p.add(kpath.String(), p.dropped("element not in the CAP "+string(p.version)+" namespace"), k.name.Space)
			default:
				p.add(kpath.String(), p.dropped("unexpected element"), "")
			}
			continue
		}
		s := &specs[i]
		if s.ns == "" && k.name.Space != p.ns {
			// Only in lenient mode: the element is read by its local name.
			p.add(kpath.String(), "element not in the alert's namespace (read anyway)", k.name.Space)
		}
		if i < pos {
			p.add(kpath.String(), p.fixed("element out of order", "read anyway"), "")
		} else {
			pos = i
		}
	}
	for i, s := range specs {
		switch {
		case counts[i] < s.min:
			p.unreadable(path+"."+s.name, "required element missing", "")
		case s.max > 0 && counts[i] > s.max:
			p.add(path+"."+s.name, p.fixed("element repeated (at most "+strconv.Itoa(s.max)+")", "first kept"), "")
		}
	}
}

// Validate checks a against the rules of the CAP specification that apply
// to the model (required values, enumerations of a.Version, identifier
// characters, scope, references, polygons, circles, altitude and ceiling).
// Rules about how values are written in XML are checked by Parse. The error
// joins one *ValidationError per broken rule, at most MaxProblems of them.
func (a *Alert) Validate() error {
	ps := a.validate()
	probs := ps.result()
	if len(probs) == 0 {
		return nil
	}
	errs := make([]error, len(probs))
	for i, p := range probs {
		errs[i] = p
	}
	return errors.Join(errs...)
}

// validator collects broken rules of the model.
type validator struct {
	problems
	v Version
}

func (c *validator) required(field, value string) bool {
	if value == "" {
		c.add(field, "required", "")
		return false
	}
	return true
}

// token checks an identifier or sender: required, and without white space,
// comma, "<" or "&".
func (c *validator) token(field, value string) {
	if c.required(field, value) && strings.ContainsAny(value, " \t\n\r,<&") {
		c.add(field, "contains a space, comma, < or &", value)
	}
}

func checkEnum[T ~string](c *validator, field string, v T, allowed []T, required bool) {
	switch {
	case v == "" && required:
		c.add(field, "required", "")
	case v != "" && !oneOf(v, allowed):
		c.add(field, "enumeration", string(v))
	}
}

func (a *Alert) validate() *problems {
	c := &validator{v: a.Version}
	if c.v == "" {
		c.v = Version12 // as Marshal writes it
	} else if _, ok := alertSpecs[c.v]; !ok {
		c.add("alert", "unknown CAP version", string(a.Version))
		c.v = Version12
	}
	c.token("alert.identifier", a.Identifier)
	c.token("alert.sender", a.Sender)
	if a.Sent.IsZero() {
		c.add("alert.sent", "required", "")
	}
	checkEnum(c, "alert.status", a.Status, statusValues[c.v], true)
	checkEnum(c, "alert.msgType", a.MsgType, msgTypeValues, true)
	checkEnum(c, "alert.scope", a.Scope, scopeValues, c.v != Version10)
	if a.Password != "" && c.v != Version10 {
		c.add("alert.password", "password is CAP 1.0 only", "")
	}
	if a.Restriction != "" && a.Scope != ScopeRestricted {
		c.add("alert.restriction", "restriction only with scope Restricted", string(a.Scope))
	}
	if a.Scope == ScopePrivate && len(a.Addresses) == 0 {
		c.add("alert.addresses", "scope Private needs addresses", "")
	}
	for _, r := range a.References {
		c.token("alert.references", r.Sender)
		c.token("alert.references", r.Identifier)
		if r.Sent.IsZero() {
			c.add("alert.references", "reference without sent time", r.Sender+","+r.Identifier)
		}
		if r.Sender == a.Sender && r.Identifier == a.Identifier {
			c.add("alert.references", "alert references itself", r.Sender+","+r.Identifier)
		}
	}
	for i := range a.Infos {
		c.info(&a.Infos[i], "alert.info["+strconv.Itoa(i)+"]")
	}
	return &c.problems
}

func (c *validator) info(in *Info, path string) {
	if in.Language != "" && !isLanguageTag(in.Language) {
		c.add(path+".language", "not an RFC 3066 language tag", in.Language)
	}
	if len(in.Category) == 0 && c.v != Version10 {
		c.add(path+".category", "required", "")
	}
	for i, cat := range in.Category {
		checkEnum(c, path+".category["+strconv.Itoa(i)+"]", cat, categoryValues[c.v], true)
	}
	c.required(path+".event", in.Event)
	if c.v == Version10 && len(in.ResponseTypes) > 0 {
		c.add(path+".responseType", "responseType is not in CAP 1.0", "")
	}
	for i, r := range in.ResponseTypes {
		checkEnum(c, path+".responseType["+strconv.Itoa(i)+"]", r, responseTypeValues[c.v], true)
	}
	checkEnum(c, path+".urgency", in.Urgency, urgencyValues, true)
	checkEnum(c, path+".severity", in.Severity, severityValues, true)
	checkEnum(c, path+".certainty", in.Certainty, certaintyValues[c.v], true)
	if in.Web != "" {
		if u, err := url.Parse(in.Web); err != nil || !u.IsAbs() {
			c.add(path+".web", "not an absolute URI", in.Web)
		}
	}
	for i := range in.Resources {
		c.resource(&in.Resources[i], path+".resource["+strconv.Itoa(i)+"]")
	}
	for i := range in.Areas {
		c.area(&in.Areas[i], path+".area["+strconv.Itoa(i)+"]")
	}
}

func (c *validator) resource(r *Resource, path string) {
	c.required(path+".resourceDesc", r.ResourceDesc)
	if c.v == Version12 {
		c.required(path+".mimeType", r.MimeType)
	}
	if r.Size < 0 {
		c.add(path+".size", "negative size", strconv.FormatInt(r.Size, 10))
	}
	switch {
	case r.DerefURI == "":
	case c.v == Version10:
		c.add(path+".derefUri", "derefUri is not in CAP 1.0", "")
	default:
		if _, err := base64.StdEncoding.DecodeString(stripSpace(r.DerefURI)); err != nil {
			c.add(path+".derefUri", "not base64", r.DerefURI)
		}
	}
}

func (c *validator) area(ar *Area, path string) {
	c.required(path+".areaDesc", ar.AreaDesc)
	for i, poly := range ar.Polygons {
		ppath := path + ".polygon[" + strconv.Itoa(i) + "]"
		switch {
		case len(poly) < 4:
			c.add(ppath, "fewer than 4 points", strconv.Itoa(len(poly)))
		case poly[0] != poly[len(poly)-1]:
			c.add(ppath, "polygon not closed (first point differs from last)", formatPoint(poly[0])+" "+formatPoint(poly[len(poly)-1]))
		}
		for _, pt := range poly {
			if !pt.valid() {
				c.add(ppath, "coordinate out of range", formatPoint(pt))
				break
			}
		}
	}
	for i, ci := range ar.Circles {
		cpath := path + ".circle[" + strconv.Itoa(i) + "]"
		if !ci.Center.valid() {
			c.add(cpath, "coordinate out of range", formatPoint(ci.Center))
		}
		if !(ci.Radius >= 0) || math.IsInf(ci.Radius, 0) {
			c.add(cpath, "radius not a non-negative number", strconv.FormatFloat(ci.Radius, 'g', -1, 64))
		}
	}
	if ar.Altitude != nil && !isFinite(*ar.Altitude) {
		c.add(path+".altitude", "not a number", "")
	}
	if ar.Ceiling != nil {
		switch {
		case !isFinite(*ar.Ceiling):
			c.add(path+".ceiling", "not a number", "")
		case ar.Altitude == nil:
			c.add(path+".ceiling", "ceiling needs altitude", "")
		case *ar.Altitude > *ar.Ceiling:
			c.add(path+".ceiling", "altitude above ceiling", strconv.FormatFloat(*ar.Ceiling, 'f', -1, 64))
		}
	}
}

// valid reports whether pt is within WGS 84 ranges.
func (pt Point) valid() bool {
	return pt.Lat >= -90 && pt.Lat <= 90 && pt.Lon >= -180 && pt.Lon <= 180
}

func isFinite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && isXMLSpace(byte(r)) {
			return -1
		}
		return r
	}, s)
}

// isLanguageTag reports whether s has the RFC 3066 form: 1 to 8 letters,
// then "-" and 1 to 8 letters or digits, any number of times.
func isLanguageTag(s string) bool {
	for i, sub := range strings.Split(s, "-") {
		if len(sub) < 1 || len(sub) > 8 {
			return false
		}
		for j := 0; j < len(sub); j++ {
			c := sub[j] | 0x20 // lower-case letters; digits keep their value
			if !(c >= 'a' && c <= 'z') && !(i > 0 && sub[j] >= '0' && sub[j] <= '9') {
				return false
			}
		}
	}
	return true
}

// dateForm says how a dateTime departs from the CAP form
// YYYY-MM-DDThh:mm:ss±hh:mm (formCAP).
type dateForm uint8

const (
	formCAP       dateForm = 0
	formZ         dateForm = 1 << iota // "Z" zone
	formFraction                       // fractional seconds
	formNoZone                         // no zone
	formShortZone                      // ±hhmm or ±hh
	formSpace                          // " " between date and time
)

// parseDateTime reads an ISO 8601 date and time as CAP and its common
// variants write it. The time keeps the zone offset written (time.UTC for a
// zero offset).
func parseDateTime(s string) (time.Time, dateForm, bool) {
	var form dateForm
	num := func(i, n int) int {
		if i+n > len(s) {
			return -1
		}
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, 0, false
	}
	switch s[10] {
	case 'T':
	case ' ':
		form |= formSpace
	default:
		return time.Time{}, 0, false
	}
	year, month, day := num(0, 4), num(5, 2), num(8, 2)
	hour, minute, sec := num(11, 2), num(14, 2), num(17, 2)
	if year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 ||
		minute < 0 || minute > 59 || sec < 0 || sec > 59 ||
		day > time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return time.Time{}, 0, false
	}
	rest := s[19:]
	nsec := 0
	if rest != "" && rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			if i <= 9 {
				nsec = nsec*10 + int(rest[i]-'0')
			}
			i++
		}
		if i == 1 {
			return time.Time{}, 0, false
		}
		for d := i; d <= 9; d++ {
			nsec *= 10
		}
		form |= formFraction
		rest = rest[i:]
	}
	offset := 0
	switch {
	case rest == "":
		form |= formNoZone
	case rest == "Z":
		form |= formZ
	case rest[0] == '+' || rest[0] == '-':
		z := s[len(s)-len(rest):]
		var h, m int
		switch len(rest) {
		case 6:
			if rest[3] != ':' {
				return time.Time{}, 0, false
			}
			h, m = num(len(s)-5, 2), num(len(s)-2, 2)
		case 5:
			h, m = num(len(s)-4, 2), num(len(s)-2, 2)
			form |= formShortZone
		case 3:
			h = num(len(s)-2, 2)
			form |= formShortZone
		default:
			return time.Time{}, 0, false
		}
		if h < 0 || m < 0 || h > 14 || m > 59 {
			return time.Time{}, 0, false
		}
		offset = (h*60 + m) * 60
		if z[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, 0, false
	}
	loc := time.UTC
	if offset != 0 {
		loc = time.FixedZone("", offset)
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc), form, true
}
