package cap

import (
	"strings"
	"time"
)

// Version is a CAP version, known from the namespace of the alert element.
type Version string

// The CAP versions this package reads and writes.
const (
	Version10 Version = "1.0"
	Version11 Version = "1.1"
	Version12 Version = "1.2"
)

// The namespaces of the CAP versions and of XML Signature.
const (
	Namespace10     = "http://www.incident.com/cap/1.0"
	Namespace11     = "urn:oasis:names:tc:emergency:cap:1.1"
	Namespace12     = "urn:oasis:names:tc:emergency:cap:1.2"
	NamespaceXMLSig = "http://www.w3.org/2000/09/xmldsig#"
)

// Namespace returns the XML namespace of version v, or "" for an unknown
// version.
func (v Version) Namespace() string {
	switch v {
	case Version10:
		return Namespace10
	case Version11:
		return Namespace11
	case Version12:
		return Namespace12
	}
	return ""
}

// VersionOf returns the CAP version whose namespace is ns. The CAP 1.0
// namespace is also recognised in its OASIS form
// (urn:oasis:names:tc:emergency:cap:1.0), which some producers use.
func VersionOf(ns string) (Version, bool) {
	switch ns {
	case Namespace10, "urn:oasis:names:tc:emergency:cap:1.0":
		return Version10, true
	case Namespace11:
		return Version11, true
	case Namespace12:
		return Version12, true
	}
	return "", false
}

// Alert is a CAP alert message: the alert element with its info blocks.
//
// Element values are stored with leading and trailing white space removed.
// Optional elements that are absent are the zero value of their field: an
// empty string, a nil slice, a zero time.Time (test with IsZero) or a nil
// pointer.
type Alert struct {
	// Version is the CAP version, known from the namespace. Marshal writes the
	// alert in this version's namespace; an empty Version is written as 1.2.
	Version Version

	Identifier string    // identifier: unique per sender; no spaces, commas, < or &
	Sender     string    // sender: globally unique sender id; same character rules
	Password   string    // password: CAP 1.0 only (deprecated in 1.1, removed)
	Sent       time.Time // sent: with the zone offset written in the document
	Status     Status
	MsgType    MsgType
	Source     string
	Scope      Scope // required in 1.1 and 1.2, optional in 1.0
	// Restriction says who may see a Restricted alert.
	Restriction string
	// Addresses are the recipients of a Private alert (the white-space
	// separated list of the addresses element, quotes removed).
	Addresses []string
	Codes     []string // code elements, in order
	Note      string
	// References are the earlier alerts this one updates, cancels or
	// acknowledges.
	References []Reference
	// Incidents are the incident identifiers (white-space separated list of
	// the incidents element, quotes removed).
	Incidents []string
	Infos     []Info
}

// Reference identifies an alert by the sender, identifier and sent triplet
// written in the references element.
type Reference struct {
	Sender     string
	Identifier string
	Sent       time.Time
}

// Info is one info block of an alert: an event in one language.
type Info struct {
	// Language is an RFC 3066 language tag; "" when absent, which CAP reads
	// as "en-US".
	Language string
	// Category lists the category elements (one or more).
	Category      []Category
	Event         string
	ResponseTypes []ResponseType // responseType elements; CAP 1.1 and later
	Urgency       Urgency
	Severity      Severity
	Certainty     Certainty
	Audience      string
	EventCodes    []NamedValue // eventCode elements
	Effective     time.Time    // zero when absent (then effective = sent)
	Onset         time.Time    // zero when absent
	Expires       time.Time    // zero when absent (see Alert.Expired)
	SenderName    string
	Headline      string
	Description   string
	Instruction   string
	Web           string // an absolute URI
	Contact       string
	Parameters    []NamedValue // parameter elements
	Resources     []Resource
	Areas         []Area
}

// NamedValue is a valueName/value pair, the form of eventCode, parameter and
// geocode. In CAP 1.0 these elements hold "valueName=value" text, split at
// the first "=" (no "=" gives an empty ValueName).
type NamedValue struct {
	ValueName string
	Value     string
}

// Resource is a file that supplements an info block.
type Resource struct {
	ResourceDesc string
	MimeType     string // required in CAP 1.2
	Size         int64  // size in bytes; 0 when absent
	URI          string
	DerefURI     string // base64 content of the resource; CAP 1.1 and later
	Digest       string // SHA-1 hash of the resource, in hexadecimal
}

// Area is a geographic area an info block applies to.
type Area struct {
	AreaDesc string
	Polygons []Polygon
	Circles  []Circle
	Geocodes []NamedValue
	Altitude *float64 // feet above sea level; nil when absent
	Ceiling  *float64 // feet above sea level; nil when absent; needs Altitude
}

// Point is a WGS 84 coordinate in decimal degrees.
type Point struct {
	Lat float64
	Lon float64
}

// Polygon is a closed ring of at least four points whose first and last
// points are equal.
type Polygon []Point

// Circle is a circular area: a center and a radius in kilometres.
type Circle struct {
	Center Point
	Radius float64 // kilometres
}

// Status is the code denoting the appropriate handling of an alert.
type Status string

// The Status values.
const (
	StatusActual   Status = "Actual"
	StatusExercise Status = "Exercise"
	StatusSystem   Status = "System"
	StatusTest     Status = "Test"
	StatusDraft    Status = "Draft" // CAP 1.1 and later
)

// MsgType is the code denoting the nature of an alert message.
type MsgType string

// The MsgType values.
const (
	MsgTypeAlert  MsgType = "Alert"
	MsgTypeUpdate MsgType = "Update"
	MsgTypeCancel MsgType = "Cancel"
	MsgTypeAck    MsgType = "Ack"
	MsgTypeError  MsgType = "Error"
)

// Scope is the code denoting the intended distribution of an alert.
type Scope string

// The Scope values.
const (
	ScopePublic     Scope = "Public"
	ScopeRestricted Scope = "Restricted"
	ScopePrivate    Scope = "Private"
)

// Category is the code denoting the category of the subject event.
type Category string

// The Category values.
const (
	CategoryGeo       Category = "Geo"
	CategoryMet       Category = "Met"
	CategorySafety    Category = "Safety"
	CategorySecurity  Category = "Security"
	CategoryRescue    Category = "Rescue"
	CategoryFire      Category = "Fire"
	CategoryHealth    Category = "Health"
	CategoryEnv       Category = "Env"
	CategoryTransport Category = "Transport"
	CategoryInfra     Category = "Infra"
	CategoryCBRNE     Category = "CBRNE" // CAP 1.1 and later
	CategoryOther     Category = "Other"
)

// ResponseType is the code denoting the recommended action (CAP 1.1 and
// later).
type ResponseType string

// The ResponseType values.
const (
	ResponseShelter  ResponseType = "Shelter"
	ResponseEvacuate ResponseType = "Evacuate"
	ResponsePrepare  ResponseType = "Prepare"
	ResponseExecute  ResponseType = "Execute"
	ResponseAvoid    ResponseType = "Avoid" // CAP 1.2
	ResponseMonitor  ResponseType = "Monitor"
	ResponseAssess   ResponseType = "Assess"
	ResponseAllClear ResponseType = "AllClear" // CAP 1.2
	ResponseNone     ResponseType = "None"
)

// Urgency is the code denoting the urgency of the subject event.
type Urgency string

// The Urgency values.
const (
	UrgencyImmediate Urgency = "Immediate"
	UrgencyExpected  Urgency = "Expected"
	UrgencyFuture    Urgency = "Future"
	UrgencyPast      Urgency = "Past"
	UrgencyUnknown   Urgency = "Unknown"
)

// Severity is the code denoting the severity of the subject event.
type Severity string

// The Severity values.
const (
	SeverityExtreme  Severity = "Extreme"
	SeveritySevere   Severity = "Severe"
	SeverityModerate Severity = "Moderate"
	SeverityMinor    Severity = "Minor"
	SeverityUnknown  Severity = "Unknown"
)

// Certainty is the code denoting the certainty of the subject event.
type Certainty string

// The Certainty values.
const (
	CertaintyObserved   Certainty = "Observed" // CAP 1.1 and later
	CertaintyVeryLikely Certainty = "Very Likely"
	CertaintyLikely     Certainty = "Likely"
	CertaintyPossible   Certainty = "Possible"
	CertaintyUnlikely   Certainty = "Unlikely"
	CertaintyUnknown    Certainty = "Unknown"
)

// The values each enumeration allows, per version. CAP 1.0 has no Draft
// status, CBRNE category or responseType and has "Very Likely" instead of
// "Observed"; 1.2 adds the Avoid and AllClear response types.
var (
	statusValues = map[Version][]Status{
		Version10: {StatusActual, StatusExercise, StatusSystem, StatusTest},
		Version11: {StatusActual, StatusExercise, StatusSystem, StatusTest, StatusDraft},
		Version12: {StatusActual, StatusExercise, StatusSystem, StatusTest, StatusDraft},
	}
	msgTypeValues = []MsgType{MsgTypeAlert, MsgTypeUpdate, MsgTypeCancel, MsgTypeAck, MsgTypeError}
	scopeValues   = []Scope{ScopePublic, ScopeRestricted, ScopePrivate}
	categoryBase  = []Category{CategoryGeo, CategoryMet, CategorySafety, CategorySecurity, CategoryRescue,
		CategoryFire, CategoryHealth, CategoryEnv, CategoryTransport, CategoryInfra}
	categoryValues = map[Version][]Category{
		Version10: append(categoryBase[:len(categoryBase):len(categoryBase)], CategoryOther),
		Version11: append(categoryBase[:len(categoryBase):len(categoryBase)], CategoryCBRNE, CategoryOther),
		Version12: append(categoryBase[:len(categoryBase):len(categoryBase)], CategoryCBRNE, CategoryOther),
	}
	responseTypeValues = map[Version][]ResponseType{
		Version11: {ResponseShelter, ResponseEvacuate, ResponsePrepare, ResponseExecute, ResponseMonitor,
			ResponseAssess, ResponseNone},
		Version12: {ResponseShelter, ResponseEvacuate, ResponsePrepare, ResponseExecute, ResponseAvoid,
			ResponseMonitor, ResponseAssess, ResponseAllClear, ResponseNone},
	}
	urgencyValues   = []Urgency{UrgencyImmediate, UrgencyExpected, UrgencyFuture, UrgencyPast, UrgencyUnknown}
	severityValues  = []Severity{SeverityExtreme, SeveritySevere, SeverityModerate, SeverityMinor, SeverityUnknown}
	certaintyValues = map[Version][]Certainty{
		Version10: {CertaintyVeryLikely, CertaintyLikely, CertaintyPossible, CertaintyUnlikely, CertaintyUnknown},
		Version11: {CertaintyObserved, CertaintyLikely, CertaintyPossible, CertaintyUnlikely, CertaintyUnknown},
		Version12: {CertaintyObserved, CertaintyLikely, CertaintyPossible, CertaintyUnlikely, CertaintyUnknown},
	}
)

// Valid reports whether s is a CAP 1.1/1.2 status value.
func (s Status) Valid() bool { return oneOf(s, statusValues[Version12]) }

// Valid reports whether m is a msgType value.
func (m MsgType) Valid() bool { return oneOf(m, msgTypeValues) }

// Valid reports whether s is a scope value.
func (s Scope) Valid() bool { return oneOf(s, scopeValues) }

// Valid reports whether c is a CAP 1.1/1.2 category value.
func (c Category) Valid() bool { return oneOf(c, categoryValues[Version12]) }

// Valid reports whether r is a CAP 1.2 responseType value.
func (r ResponseType) Valid() bool { return oneOf(r, responseTypeValues[Version12]) }

// Valid reports whether u is an urgency value.
func (u Urgency) Valid() bool { return oneOf(u, urgencyValues) }

// Valid reports whether s is a severity value.
func (s Severity) Valid() bool { return oneOf(s, severityValues) }

// Valid reports whether c is a certainty value of any CAP version
// ("Very Likely" is CAP 1.0, "Observed" 1.1 and later).
func (c Certainty) Valid() bool {
	return oneOf(c, certaintyValues[Version12]) || c == CertaintyVeryLikely
}

// Rank orders severities from 0 (Unknown or not a severity) to 4 (Extreme),
// for filters such as "at least Severe".
func (s Severity) Rank() int {
	switch s {
	case SeverityMinor:
		return 1
	case SeverityModerate:
		return 2
	case SeveritySevere:
		return 3
	case SeverityExtreme:
		return 4
	}
	return 0
}

// Rank orders urgencies from 0 (Unknown, Past or not an urgency) to 3
// (Immediate).
func (u Urgency) Rank() int {
	switch u {
	case UrgencyFuture:
		return 1
	case UrgencyExpected:
		return 2
	case UrgencyImmediate:
		return 3
	}
	return 0
}

// Rank orders certainties from 0 (Unknown, Unlikely or not a certainty) to 4
// (Observed).
func (c Certainty) Rank() int {
	switch c {
	case CertaintyPossible:
		return 1
	case CertaintyLikely:
		return 2
	case CertaintyVeryLikely:
		return 3
	case CertaintyObserved:
		return 4
	}
	return 0
}

func oneOf[T ~string](v T, values []T) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}

// foldOneOf returns the value of values equal to v under Unicode case folding
// and with spaces ignored (so "very likely", "VeryLikely" and "Very Likely"
// match), for lenient parsing.
func foldOneOf[T ~string](v string, values []T) (T, bool) {
	squeeze := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	for _, x := range values {
		if strings.EqualFold(squeeze(string(x)), squeeze(v)) {
			return x, true
		}
	}
	return "", false
}
