package index

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// changeWords replaces share of the words of text, chosen at random with a
// fixed seed, by new words.
func changeWords(text string, share float64, seed uint64) string {
	words := strings.Fields(text)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range int(float64(len(words)) * share) {
		words[r.IntN(len(words))] = "changed" + string(rune('a'+i%26)) + strings.Repeat("x", i%7)
	}
	return strings.Join(words, " ")
}

func signature(text string, opts MinHashOptions) Signature {
	return NewSignature(NewNormalizer(all).Terms(text), opts)
}

func TestSimilarity(t *testing.T) {
	t.Parallel()
	spec := goSpec(t)
	half := len(spec) / 2
	tests := []struct {
		name     string
		a, b     string
		min, max float64
	}{
		{"identical", spec, spec, 1, 1},
		{"reformatted", spec, strings.Join(strings.Fields(spec), "  "), 1, 1},
		{"1% of words changed", spec, changeWords(spec, 0.01, 1), 0.8, 0.99},
		{"10% of words changed", spec, changeWords(spec, 0.10, 2), 0.2, 0.6},
		{"unrelated halves", spec[:half], spec[half:], 0, 0.15},
		{"unrelated languages", readFile(t, "lang/en.txt"), readFile(t, "lang/de.txt"), 0, 0.05},
		{"both empty", "", "", 1, 1},
		{"empty and not", "", spec, 0, 0},
		{"shorter than a shingle", "flood", "floods", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sim := signature(tt.a, MinHashOptions{}).Similarity(signature(tt.b, MinHashOptions{}))
			t.Logf("Similarity = %.3f", sim)
			if sim < tt.min || sim > tt.max {
				t.Errorf("Similarity = %.3f, want in [%.2f, %.2f]", sim, tt.min, tt.max)
			}
		})
	}
}

func TestSignatureOptions(t *testing.T) {
	t.Parallel()
	text := readFile(t, "lang/en.txt")
	def := signature(text, MinHashOptions{})
	if len(def.Hashes) != DefaultNumHash || def.Shingle != DefaultShingle || def.Seed != 0 {
		t.Fatalf("defaults: %d hashes, shingle %d, seed %d", len(def.Hashes), def.Shingle, def.Seed)
	}
	big := signature(text, MinHashOptions{NumHash: 1 << 20, Shingle: 1 << 20})
	if len(big.Hashes) != MaxNumHash || big.Shingle != MaxShingle {
		t.Errorf("bounds: %d hashes, shingle %d", len(big.Hashes), big.Shingle)
	}
	for _, other := range []Signature{
		signature(text, MinHashOptions{Seed: 7}),
		signature(text, MinHashOptions{Shingle: 2}),
		signature(text, MinHashOptions{NumHash: 64}),
		{},
	} {
		if def.Compatible(other) || def.Similarity(other) != 0 {
			t.Errorf("signature with options %d/%d/%d compared as compatible", len(other.Hashes), other.Shingle, other.Seed)
		}
	}
	if again := signature(text, MinHashOptions{}); def.Similarity(again) != 1 {
		t.Error("signatures are not deterministic")
	}
}

func TestSignatureJSONRoundTrip(t *testing.T) {
	t.Parallel()
	sig := signature(readFile(t, "lang/en.txt"), MinHashOptions{Seed: -3})
	data, err := json.Marshal(sig)
	if err != nil {
		t.Fatal(err)
	}
	var back Signature
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if sig.Similarity(back) != 1 {
		t.Errorf("round trip changed the signature: %s", data)
	}
}
