package cap

// ParseLenient reads a CAP alert that may not conform to the specification
// and salvages what it can. It returns the alert and every problem found,
// each a *ValidationError whose Rule says what was wrong and, in
// parentheses, what was done about it ("closed", "dropped", "read anyway").
// A value that could not be kept is always reported: no data is lost
// silently.
//
// It accepts an alert in no or a wrong namespace (read as the CAP version
// whose namespace the root declares, else 1.2), elements out of order,
// repeated or missing, white space around values, enumerations in the wrong
// case, dateTimes with "Z", without a zone (UTC assumed), with a zone
// without colon or with fractional seconds (dropped for 1.1 and 1.2),
// unclosed polygons (closed), CAP 1.0 valueName=value text in later
// versions, and a document cut short (read up to the error). Polygons and
// circles that cannot be read or are out of range are dropped.
//
// The error is not nil only when there is nothing to salvage: the input is
// too large (ErrTooLarge), has a DTD (ErrDTD), is not XML (ErrMalformed) or
// has no alert root element (ErrNotCAP).
//
// The alert returned always survives Marshal: ParseLenient(Marshal(a))
// gives an equal alert.
func ParseLenient(data []byte) (*Alert, []*ValidationError, error) {
	return parse(data, true)
}
