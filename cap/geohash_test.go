package cap

import (
	"math"
	"slices"
	"testing"

	"github.com/mmcloughlin/geohash"
)

func TestCoveringGeohashes(t *testing.T) {
	t.Parallel()
	valais := Area{Polygons: []Polygon{{{46.0, 7.0}, {46.5, 7.0}, {46.5, 8.0}, {46.0, 8.0}, {46.0, 7.0}}}}
	fiji := Area{Circles: []Circle{{Center: Point{-17, 179.9}, Radius: 50}}}
	tests := []struct {
		name      string
		area      Area
		precision uint
		wantLen   int // characters of each cell
		contains  []Point
	}{
		{"polygon", valais, 4, 4, []Point{{46.2, 7.5}, {46.0, 7.0}, {46.5, 8.0}}},
		{"coarser when too many", valais, 7, 4, []Point{{46.25, 7.5}}},
		{"antimeridian circle", fiji, 3, 3, []Point{{-17, 179.9}, {-17, -179.9}, {-17.3, 180}}},
		{"precision clamped", valais, 0, 1, []Point{{46.2, 7.5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cells := CoveringGeohashes(&tt.area, tt.precision)
			if len(cells) == 0 || len(cells) > MaxCoveringGeohashes || !slices.IsSorted(cells) {
				t.Fatalf("cells = %q", cells)
			}
			shapes := tt.area.shapes(nil)
			for _, c := range cells {
				if len(c) != tt.wantLen {
					t.Errorf("cell %q has %d characters, want %d", c, len(c), tt.wantLen)
				}
				if !shapes.intersectsBBox(geohashBBox(c)) {
					t.Errorf("cell %q does not meet the area", c)
				}
			}
			for _, p := range tt.contains {
				h := geohash.EncodeWithPrecision(p.Lat, p.Lon, uint(tt.wantLen))
				if !slices.Contains(cells, h) {
					t.Errorf("point %v in cell %q, not covered by %q", p, h, cells)
				}
			}
		})
	}
	if cells := CoveringGeohashes(&Area{Geocodes: []NamedValue{{"UGC", "X"}}}, 5); cells != nil {
		t.Errorf("geocode-only area covered by %q", cells)
	}
	world := Area{Circles: []Circle{{Center: Point{0, 0}, Radius: 30000}}}
	if cells := CoveringGeohashes(&world, 12); len(cells) == 0 || len(cells) > MaxCoveringGeohashes {
		t.Errorf("world covered by %d cells", len(cells))
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		area Area
		want BBox
	}{
		{"polygon", Area{Polygons: []Polygon{{{1, 2}, {3, 4}, {1, 4}, {1, 2}}}}, BBox{2, 1, 4, 3}},
		{"antimeridian polygon", Area{Polygons: []Polygon{{{60, 179}, {61, -179}, {62, 178}, {60, 179}}}}, BBox{178, 60, -179, 62}},
		{"polygon and circle merged across 180", Area{
			Polygons: []Polygon{{{0, 170}, {1, 171}, {0, 171}, {0, 170}}},
			Circles:  []Circle{{Center: Point{0, -170}, Radius: 0}},
		}, BBox{170, 0, -170, 1}},
		{"polar circle", Area{Circles: []Circle{{Center: Point{89, 0}, Radius: 500}}}, BBox{-180, 89 - 500/earthRadiusKm*57.29577951308232, 180, 90}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := tt.area.Bounds()
			if !ok || got != tt.want {
				t.Errorf("Bounds = %v, %v; want %v", got, ok, tt.want)
			}
		})
	}
	if _, ok := (&Area{}).Bounds(); ok {
		t.Error("empty area has bounds")
	}
}

// TestNormLon checks that longitudes of any size fold at once (a loop of
// ±360 steps never ended on 1e300).
func TestNormLon(t *testing.T) {
	t.Parallel()
	for _, lon := range []float64{0, 180, -180, 190, -190, 540, 1e6 + 0.5, -1e6, 1e300, -1e300, math.MaxFloat64} {
		got := normLon(lon)
		if got < -180 || got > 180 || (math.Abs(lon) < 1e15 && math.Abs(math.Remainder(got-lon, 360)) > 1e-9) {
			t.Errorf("normLon(%v) = %v", lon, got)
		}
	}
	for _, lon := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := normLon(lon); !math.IsNaN(got) {
			t.Errorf("normLon(%v) = %v, want NaN", lon, got)
		}
	}
	// A circle with such a centre (built by a caller, not parsed) has bounds.
	if b := (Circle{Center: Point{Lat: 0, Lon: 1e300}, Radius: 10}).Bounds(); b.West < -180 || b.East > 180 {
		t.Errorf("bounds %v", b)
	}
}

func TestParseBBoxString(t *testing.T) {
	t.Parallel()
	b, err := ParseBBox(" -10.5, 35,30 ,60")
	if err != nil || b != (BBox{-10.5, 35, 30, 60}) || b.String() != "-10.5,35,30,60" {
		t.Errorf("ParseBBox = %v (%s), %v", b, b, err)
	}
}
