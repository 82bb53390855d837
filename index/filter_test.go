package index

import (
	"fmt"
	"math"
	"testing"
)

func TestFilterNoFalseNegatives(t *testing.T) {
	t.Parallel()
	ts := NewNormalizer(all).Terms(goSpec(t))
	f := FilterOf(ts, 0.01)
	for _, term := range ts {
		if !f.Test(term.Term) {
			t.Fatalf("Test(%q) = false for an added term", term.Term)
		}
	}
}

func TestFilterFalsePositiveRate(t *testing.T) {
	t.Parallel()
	const n = 5000
	f := NewFilter(n, 0.01)
	for i := range n {
		f.Add(fmt.Sprintf("in-%d", i))
	}
	fp := 0
	const probes = 20000
	for i := range probes {
		if f.Test(fmt.Sprintf("out-%d", i)) {
			fp++
		}
	}
	if rate := float64(fp) / probes; rate > 0.03 {
		t.Errorf("false-positive rate %.4f, want about 0.01", rate)
	}
}

func TestFilterTestAll(t *testing.T) {
	t.Parallel()
	f := FilterOf(NewNormalizer(all).Terms("The gods left their houses"), DefaultFPRate)
	tests := []struct {
		terms []string
		want  bool
	}{
		{nil, true},
		{[]string{"god", "hous"}, true},
		{[]string{"god", "zeus"}, false},
	}
	for _, tt := range tests {
		if got := f.TestAll(tt.terms...); got != tt.want {
			t.Errorf("TestAll(%q) = %v, want %v", tt.terms, got, tt.want)
		}
	}
}

func TestNewFilterBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		n      uint
		fp     float64
		maxCap uint
	}{
		{"zero items", 0, 0.01, 64},
		{"NaN rate", 10, math.NaN(), 1 << 10},
		{"zero rate", 10, 0, 1 << 10},
		{"rate above one", 10, 2, 1 << 10},
		{"huge n is clamped", math.MaxUint, 0.01, 200 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.n > MaxFilterItems && testing.Short() {
				t.Skip("allocates the largest filter")
			}
			f := NewFilter(tt.n, tt.fp)
			if f.Cap() == 0 || f.Cap() > tt.maxCap {
				t.Errorf("Cap() = %d, want in (0, %d]", f.Cap(), tt.maxCap)
			}
			f.Add("x")
			if !f.Test("x") {
				t.Error("added term not found")
			}
		})
	}
}

func TestNilFilter(t *testing.T) {
	t.Parallel()
	var f *Filter
	if f.Test("x") || f.TestAll("x") || f.Cap() != 0 {
		t.Error("a nil Filter must be empty")
	}
}
