// Package kml renders CAP alerts as OGC KML 2.2 documents, for Google Earth
// and other map viewers.
//
// Write emits a Document with one shared Style per CAP severity (ids
// "extreme", "severe", "moderate", "minor" and "unknown", as in Google
// AlertFeed's style sheet) and one Placemark per info block and area, so
// alerts with several infos and areas are drawn whole. Each Placemark has the
// headline (or event) as name, the area description as Snippet, an HTML
// description with severity, urgency, certainty, times, description,
// instruction and a link, a TimeSpan from the effective time (else the
// alert's sent time) to the expiry (else sent + capxml.DefaultTTL), as
// Alert.InfoPeriod defines it,
// a styleUrl, ExtendedData with the alert's key values, and its geometry.
// Elements follow the order of the OGC schema, which is strict about it.
//
// With Options.RefreshURL set, Write emits instead a small document holding a
// NetworkLink that loads that URL (a /cap2kml query) and refreshes it on an
// interval, on expiry or on change.
//
// The package imports the cap package as capxml: the name cap would shadow
// Go's builtin cap function in this package's files. Callers may do the same.
//
// # Caveats
//
//   - CAP writes coordinates as "lat,lon"; KML as "lon,lat". Write swaps
//     them, so feeds that wrote CAP coordinates in the wrong order (some do)
//     are drawn mirrored.
//   - Circles are drawn as polygons on a sphere with at most 1% radial error
//     (16 vertices); a circle of radius 0, or one whose radius is not a
//     number or overflows float64 metres (lenient parsing lets such
//     radii through), is a Point.
//   - An area with geocodes only has no geometry: its Placemark has none
//     either (viewers list it without drawing it) rather than being dropped.
//   - Altitude and ceiling are not drawn: shapes are clamped to the ground.
//   - Polygons crossing the antimeridian are written as given; viewers that
//     do not wrap longitudes may draw them across the whole map.
package kml
