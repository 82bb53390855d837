package index

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
)

// pages cuts the Go specification into n pages of about equal size.
func pages(t testing.TB, n int) []string {
	words := strings.Fields(goSpec(t))
	size := len(words) / n
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Join(words[i*size:(i+1)*size], " ")
	}
	return out
}

func TestLSHFindsNearDuplicate(t *testing.T) {
	t.Parallel()
	ps := pages(t, 100)
	l, err := NewLSH(0.7, MinHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if err := l.Add(fmt.Sprintf("page-%03d", i), signature(p, MinHashOptions{})); err != nil {
			t.Fatal(err)
		}
	}
	if l.Len() != len(ps) {
		t.Fatalf("Len() = %d", l.Len())
	}
	for _, i := range []int{0, 42, 57, 99} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			near := changeWords(ps[i], 0.01, uint64(i))
			got, err := l.Query(signature(near, MinHashOptions{}))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("page-%03d", i); len(got) != 1 || got[0] != want {
				t.Errorf("Query = %q, want [%s]", got, want)
			}
		})
	}
	got, err := l.Query(signature(readFile(t, "lang/en.txt"), MinHashOptions{}))
	if err != nil || len(got) != 0 {
		t.Errorf("Query(unrelated) = %q, %v; want none", got, err)
	}
}

func TestLSHIncrementalAdds(t *testing.T) {
	t.Parallel()
	ps := pages(t, 10)
	l, err := NewLSH(0.9, MinHashOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		sig := signature(p, MinHashOptions{})
		if err := l.Add(fmt.Sprint(i), sig); err != nil {
			t.Fatal(err)
		}
		// Every page is found right after it is added, among earlier ones.
		got, err := l.Query(sig)
		if err != nil || len(got) != 1 || got[0] != fmt.Sprint(i) {
			t.Fatalf("after Add(%d): Query = %q, %v", i, got, err)
		}
	}
}

func TestLSHErrors(t *testing.T) {
	t.Parallel()
	for _, th := range []float64{0, -1, 1.01, math.NaN()} {
		if _, err := NewLSH(th, MinHashOptions{}); !errors.Is(err, ErrInvalidThreshold) {
			t.Errorf("NewLSH(%v) error = %v, want ErrInvalidThreshold", th, err)
		}
	}
	l, err := NewLSH(1, MinHashOptions{NumHash: 32})
	if err != nil {
		t.Fatal(err)
	}
	sig := signature("some text to index", MinHashOptions{NumHash: 32})
	if err := l.Add("a", sig); err != nil {
		t.Fatal(err)
	}
	if err := l.Add("a", sig); !errors.Is(err, ErrDuplicateID) {
		t.Errorf("duplicate Add error = %v, want ErrDuplicateID", err)
	}
	wrong := signature("some text to index", MinHashOptions{})
	if err := l.Add("b", wrong); !errors.Is(err, ErrIncompatibleSignature) {
		t.Errorf("Add(incompatible) error = %v", err)
	}
	if _, err := l.Query(wrong); !errors.Is(err, ErrIncompatibleSignature) {
		t.Errorf("Query(incompatible) error = %v", err)
	}
	if _, err := l.Query(Signature{}); !errors.Is(err, ErrIncompatibleSignature) {
		t.Errorf("Query(zero) error = %v", err)
	}
	if got, err := l.Query(sig); err != nil || len(got) != 1 || got[0] != "a" {
		t.Errorf("Query = %q, %v; threshold 1 must find the identical page", got, err)
	}
}

func TestLSHConcurrent(t *testing.T) {
	t.Parallel()
	ps := pages(t, 8)
	l, err := NewLSH(0.8, MinHashOptions{NumHash: 64})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			sig := signature(p, MinHashOptions{NumHash: 64})
			if err := l.Add(fmt.Sprint(i), sig); err != nil {
				t.Error(err)
			}
			if got, err := l.Query(sig); err != nil || len(got) == 0 {
				t.Errorf("Query(%d) = %q, %v", i, got, err)
			}
		})
	}
	wg.Wait()
}
