package cap

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mmcloughlin/geohash"
)

// earthRadiusKm is the mean Earth radius used for circles: CAP gives circle
// radii in kilometres and a sphere is precise enough for filtering.
const earthRadiusKm = 6371.0088

// MaxGeohashPrecision is the longest geohash, in characters, that
// CoveringGeohashes and geohash queries accept (12 characters = 60 bits).
const MaxGeohashPrecision = 12

// MaxCoveringGeohashes bounds the number of cells CoveringGeohashes returns:
// when an area needs more cells at the asked precision, a coarser precision is
// used.
const MaxCoveringGeohashes = 64

// BBox is a longitude/latitude rectangle in WGS 84 decimal degrees, edges
// included. West greater than East means the box crosses the antimeridian
// (180°): it spans from West eastwards to 180 and from -180 to East.
type BBox struct {
	West, South, East, North float64
}

// ParseBBox parses "west,south,east,north" in decimal degrees. Latitudes must
// lie in [-90, 90] with south ≤ north, longitudes in [-180, 180]; west > east
// denotes a box crossing the antimeridian.
func ParseBBox(s string) (BBox, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return BBox{}, fmt.Errorf("want west,south,east,north, got %d values", len(parts))
	}
	var v [4]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return BBox{}, fmt.Errorf("%q is not a number", p)
		}
		v[i] = f
	}
	b := BBox{West: v[0], South: v[1], East: v[2], North: v[3]}
	switch {
	case b.West < -180 || b.West > 180 || b.East < -180 || b.East > 180:
		return BBox{}, fmt.Errorf("longitude outside [-180, 180]")
	case b.South < -90 || b.North > 90:
		return BBox{}, fmt.Errorf("latitude outside [-90, 90]")
	case b.South > b.North:
		return BBox{}, fmt.Errorf("south %v is north of north %v", b.South, b.North)
	}
	return b, nil
}

// String returns the box as "west,south,east,north", the form ParseBBox
// reads.
func (b BBox) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return f(b.West) + "," + f(b.South) + "," + f(b.East) + "," + f(b.North)
}

// Intersects reports whether b and o share at least one point.
func (b BBox) Intersects(o BBox) bool {
	if b.South > o.North || o.South > b.North {
		return false
	}
	for _, x := range b.lonSpans() {
		for _, y := range o.lonSpans() {
			if x[0] <= y[1] && y[0] <= x[1] {
				return true
			}
		}
	}
	return false
}

// Contains reports whether p lies in b.
func (b BBox) Contains(p Point) bool {
	if p.Lat < b.South || p.Lat > b.North {
		return false
	}
	for _, s := range b.lonSpans() {
		if p.Lon >= s[0] && p.Lon <= s[1] {
			return true
		}
	}
	return false
}

// lonSpans returns b's longitude range as one or two non-wrapping intervals.
func (b BBox) lonSpans() [][2]float64 {
	if b.West <= b.East {
		return [][2]float64{{b.West, b.East}}
	}
	return [][2]float64{{b.West, 180}, {-180, b.East}}
}

// union returns the smallest box holding b and o (assuming neither wraps, as
// is the case for boxes of points read with unwrapped longitudes).
func (b BBox) union(o BBox) BBox {
	return BBox{
		West: math.Min(b.West, o.West), South: math.Min(b.South, o.South),
		East: math.Max(b.East, o.East), North: math.Max(b.North, o.North),
	}
}

// Bounds returns the bounding box of the polygon; a polygon whose longitudes
// span more than 180° is taken to cross the antimeridian, so its box has
// West > East. ok is false for an empty polygon.
func (p Polygon) Bounds() (b BBox, ok bool) {
	if len(p) == 0 {
		return BBox{}, false
	}
	b = BBox{West: p[0].Lon, East: p[0].Lon, South: p[0].Lat, North: p[0].Lat}
	// Plain comparisons: math.Min and math.Max, which care for NaN and
	// signed zeros, made this loop the cost of filtering by place.
	for _, q := range p[1:] {
		if q.Lon < b.West {
			b.West = q.Lon
		} else if q.Lon > b.East {
			b.East = q.Lon
		}
		if q.Lat < b.South {
			b.South = q.Lat
		} else if q.Lat > b.North {
			b.North = q.Lat
		}
	}
	if b.East-b.West > 180 {
		// Crossing the antimeridian: the box runs from the smallest positive
		// longitude eastwards to the largest negative one.
		w, e := 180.0, -180.0
		for _, q := range p {
			if q.Lon >= 0 {
				w = math.Min(w, q.Lon)
			} else {
				e = math.Max(e, q.Lon)
			}
		}
		b.West, b.East = w, e
	}
	return b, true
}

// Bounds returns the bounding box of the circle. A circle reaching a pole, or
// wider than the globe, spans all longitudes.
func (c Circle) Bounds() BBox {
	dLat := c.Radius / earthRadiusKm * 180 / math.Pi
	b := BBox{South: c.Center.Lat - dLat, North: c.Center.Lat + dLat, West: -180, East: 180}
	if b.South <= -90 || b.North >= 90 {
		b.South, b.North = math.Max(b.South, -90), math.Min(b.North, 90)
		return b
	}
	// The widest parallel of the circle is the one farthest from the equator.
	cos := math.Cos(math.Max(math.Abs(b.South), math.Abs(b.North)) * math.Pi / 180)
	dLon := dLat / cos
	if dLon >= 180 {
		return b
	}
	b.West, b.East = normLon(c.Center.Lon-dLon), normLon(c.Center.Lon+dLon)
	return b
}

// Bounds returns the bounding box of the area's polygons and circles; ok is
// false for an area without geometry (geocodes only).
func (a *Area) Bounds() (b BBox, ok bool) {
	var boxes []BBox
	for _, p := range a.Polygons {
		if pb, pok := p.Bounds(); pok {
			boxes = append(boxes, pb)
		}
	}
	for _, c := range a.Circles {
		boxes = append(boxes, c.Bounds())
	}
	if len(boxes) == 0 {
		return BBox{}, false
	}
	// Merge in the frame giving the narrower box: as they are, or with
	// longitudes west of 0 moved east of 180 (needed when a box wraps, and
	// shorter when the shapes lie on both sides of the antimeridian).
	merge := func(shift bool) BBox {
		m := unwrapBox(boxes[0], shift)
		for _, x := range boxes[1:] {
			m = m.union(unwrapBox(x, shift))
		}
		return m
	}
	wraps := slices.ContainsFunc(boxes, func(x BBox) bool { return x.West > x.East })
	b = merge(true)
	if plain := merge(false); !wraps && plain.East-plain.West <= b.East-b.West {
		b = plain
	}
	if b.East-b.West >= 360 {
		b.West, b.East = -180, 180
	} else if b.East > 180 || b.West > 180 {
		b.West, b.East = normLon(b.West), normLon(b.East)
	}
	return b, true
}

// unwrapBox moves a box into the [0, 540) frame used when merging boxes
// across the antimeridian (shift true); it returns b as is otherwise.
func unwrapBox(b BBox, shift bool) BBox {
	if !shift {
		return b
	}
	if b.West > b.East {
		b.East += 360
	} else if b.East < 0 {
		b.West, b.East = b.West+360, b.East+360
	}
	return b
}

// normLon folds a longitude into [-180, 180] (in one step, however large;
// NaN and infinities stay NaN).
func normLon(lon float64) float64 {
	if lon >= -180 && lon <= 180 {
		return lon
	}
	return math.Remainder(lon, 360)
}

// areaShapes is an area prepared for several intersection tests (the boxes
// and geohashes of a query, the cells of a cover): each polygon's bounds are
// computed once, when first needed. It lives for one evaluation, so the Area
// itself is never written to and may be shared between goroutines.
type areaShapes struct {
	area   *Area
	bounds []polygonBounds // one per polygon
}

// polygonBounds caches the result of Polygon.Bounds.
type polygonBounds struct {
	box       BBox
	ok, known bool
}

// shapes prepares the area for intersection tests, using buf for the bounds
// when it is large enough (callers pass a small array to avoid allocating).
func (a *Area) shapes(buf []polygonBounds) areaShapes {
	n := len(a.Polygons)
	if n > cap(buf) {
		buf = make([]polygonBounds, n)
	}
	buf = buf[:n]
	clear(buf)
	return areaShapes{area: a, bounds: buf}
}

// polygonBounds returns the bounds of the i-th polygon.
func (s *areaShapes) polygonBounds(i int) (BBox, bool) {
	b := &s.bounds[i]
	if !b.known {
		b.box, b.ok = s.area.Polygons[i].Bounds()
		b.known = true
	}
	return b.box, b.ok
}

// intersectsBBox reports whether the area's polygons or circles share a
// point with q. Areas without geometry never do.
func (s *areaShapes) intersectsBBox(q BBox) bool {
	for i, p := range s.area.Polygons {
		if b, ok := s.polygonBounds(i); ok && p.intersectsBBox(b, q) {
			return true
		}
	}
	for _, c := range s.area.Circles {
		if c.intersectsBBox(q) {
			return true
		}
	}
	return false
}

// intersectsBBox reports whether the polygon, whose bounds are pb, shares a
// point of its ring or interior with q. A cheap box test comes first; only
// candidates pay for the exact test, which works on unwrapped longitudes so
// that antimeridian polygons are handled.
func (p Polygon) intersectsBBox(pb, q BBox) bool {
	if !pb.Intersects(q) {
		return false
	}
	wraps := pb.West > pb.East
	lon := func(x float64) float64 {
		if wraps && x < 0 {
			return x + 360
		}
		return x
	}
	// The polygon's longitudes once unwrapped: a part of q shifted by
	// ±360° outside them cannot meet it, so the exact test runs only for
	// the shifts that matter (one, unless the polygon or q wraps).
	minX, maxX := pb.West, pb.East
	if wraps {
		maxX += 360
	}
	for _, span := range q.lonSpans() {
		for _, shift := range [...]float64{0, 360, -360} {
			if span[1]+shift < minX || span[0]+shift > maxX {
				continue
			}
			r := [4]float64{span[0] + shift, q.South, span[1] + shift, q.North}
			for i := 1; i < len(p); i++ {
				if clipSegment(lon(p[i-1].Lon), p[i-1].Lat, lon(p[i].Lon), p[i].Lat, r) {
					return true
				}
			}
			if len(p) == 1 && clipSegment(lon(p[0].Lon), p[0].Lat, lon(p[0].Lon), p[0].Lat, r) {
				return true
			}
			// No edge meets the rectangle: either it lies wholly inside
			// the polygon or they are disjoint.
			if p.containsUnwrapped(r[0], r[1], lon) {
				return true
			}
		}
	}
	return false
}

// containsUnwrapped is an even-odd ray-casting test of the point (x, y)
// against the ring, with longitudes mapped by lon.
func (p Polygon) containsUnwrapped(x, y float64, lon func(float64) float64) bool {
	in := false
	for i, j := 0, len(p)-1; i < len(p); j, i = i, i+1 {
		xi, yi, xj, yj := lon(p[i].Lon), p[i].Lat, lon(p[j].Lon), p[j].Lat
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

// clipSegment reports whether the segment (x0,y0)-(x1,y1) meets the rectangle
// r = {minX, minY, maxX, maxY} (Liang–Barsky clipping).
func clipSegment(x0, y0, x1, y1 float64, r [4]float64) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := x1-x0, y1-y0
	for _, e := range [...][2]float64{{-dx, x0 - r[0]}, {dx, r[2] - x0}, {-dy, y0 - r[1]}, {dy, r[3] - y0}} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq < 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			if t > t1 {
				return false
			}
			t0 = math.Max(t0, t)
		} else {
			if t < t0 {
				return false
			}
			t1 = math.Min(t1, t)
		}
	}
	return true
}

// intersectsBBox reports whether the circle reaches q: the great-circle
// distance from the center to the nearest point of q (nearest along the
// parallels and meridians, a close approximation) is at most the radius.
func (c Circle) intersectsBBox(q BBox) bool {
	if !c.Bounds().Intersects(q) {
		return false
	}
	if q.Contains(c.Center) {
		return true
	}
	lat := math.Max(q.South, math.Min(q.North, c.Center.Lat))
	lon := c.Center.Lon
	if !q.Contains(Point{Lat: q.South, Lon: lon}) {
		// Nearest of the west and east edges, measured around the globe.
		if angularGap(lon, q.West) <= angularGap(lon, q.East) {
			lon = q.West
		} else {
			lon = q.East
		}
	}
	return haversineKm(c.Center, Point{Lat: lat, Lon: lon}) <= c.Radius
}

// angularGap returns the longitude difference between a and b in [0, 180].
func angularGap(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

// haversineKm returns the great-circle distance between p and q.
func haversineKm(p, q Point) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (q.Lat-p.Lat)*rad, (q.Lon-p.Lon)*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(p.Lat*rad)*math.Cos(q.Lat*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}

// geohashBBox returns the cell of a valid geohash as a BBox.
func geohashBBox(hash string) BBox {
	g := geohash.BoundingBox(hash)
	return BBox{West: g.MinLng, South: g.MinLat, East: g.MaxLng, North: g.MaxLat}
}

// validGeohash reports whether s is a non-empty geohash of at most
// MaxGeohashPrecision lower-case base-32 characters.
func validGeohash(s string) bool {
	return s != "" && len(s) <= MaxGeohashPrecision && geohash.Validate(s) == nil
}

// CoveringGeohashes returns the sorted geohash cells of the given precision
// (1 to MaxGeohashPrecision characters) that cover the area's polygons and
// circles: every point of the area lies in one of the cells, and each cell
// meets the area. When that takes more than MaxCoveringGeohashes cells, the
// precision is lowered until it does not, so the result is always bounded.
// An area without geometry (geocodes only) has no covering: the result is
// nil.
//
// The cells are meant as keys of a spatial index: an alert whose area covers
// cell "u0" is found by a prefix scan for any longer cell inside "u0", and
// cells shorter than a query's geohash are its prefixes.
func CoveringGeohashes(a *Area, precision uint) []string {
	b, ok := a.Bounds()
	if !ok {
		return nil
	}
	precision = min(max(precision, 1), MaxGeohashPrecision)
	for ; precision > 1; precision-- {
		if estimateCells(b, precision) <= MaxCoveringGeohashes {
			break
		}
	}
	shapes := a.shapes(nil)
	for ; ; precision-- {
		cells := coverCells(&shapes, b, precision)
		if len(cells) <= MaxCoveringGeohashes || precision == 1 {
			return cells
		}
	}
}

// cellSize returns the latitude and longitude extent of geohash cells with
// the given number of characters.
func cellSize(precision uint) (dLat, dLon float64) {
	bits := int(5 * precision)
	return math.Ldexp(180, -(bits / 2)), math.Ldexp(360, -(bits - bits/2))
}

// estimateCells returns an upper bound of the number of cells of the given
// precision that the box touches.
func estimateCells(b BBox, precision uint) float64 {
	dLat, dLon := cellSize(precision)
	width := b.East - b.West
	if width < 0 {
		width += 360
	}
	return (math.Floor(width/dLon) + 2) * (math.Floor((b.North-b.South)/dLat) + 2)
}

// coverCells walks the grid of cells over box b and keeps those meeting the
// area.
func coverCells(a *areaShapes, b BBox, precision uint) []string {
	dLat, dLon := cellSize(precision)
	var cells []string
	seen := map[string]bool{}
	for _, span := range b.lonSpans() {
		for lat := b.South; ; lat += dLat {
			lat := math.Min(lat, b.North)
			for lon := span[0]; ; lon += dLon {
				lon := math.Min(lon, span[1])
				h := geohash.EncodeWithPrecision(lat, lon, precision)
				if !seen[h] {
					seen[h] = true
					if a.intersectsBBox(geohashBBox(h)) {
						cells = append(cells, h)
					}
				}
				if lon >= span[1] {
					break
				}
			}
			if lat >= b.North {
				break
			}
		}
	}
	slices.Sort(cells)
	return cells
}
