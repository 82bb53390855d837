package index

import (
	"slices"
	"testing"
)

func TestNormalizeElision(t *testing.T) {
	t.Parallel()
	fr := Options{IgnoreCase: true, Stopwords: true, Stemming: true, Language: "fr"}
	tests := []normalizeCase{
		{fr, "l'homme", "homm", true},
		{fr, "L’Homme", "homm", true},
		{fr, "l'Europe", "europ", true},
		{fr, "qu'il", "", false},   // "il" is a stop-word
		{fr, "c’est", "", false},   // "est" is a stop-word
		{fr, "jusqu'à", "", false}, // "à" is a stop-word
		{fr, "aujourd'hui", "aujourd'hui", true},
		{Options{Language: "fr"}, "L’Europe", "Europe", true}, // elision needs no other option
		{Options{IgnoreCase: true, Language: "fr-BE"}, "D'Europe", "europe", true},
		{Options{Stemming: true, Language: "it"}, "dell'acqua", "acqua", true},
		{Options{Stemming: true, Language: "it"}, "all’Italia", "ital", true},
		{Options{Stemming: true, Language: "it"}, "un'amica", "amic", true},
		{Options{IgnoreCase: true, Language: "ca"}, "l'aigua", "aigua", true},
		{Options{IgnoreCase: true, Language: "ga"}, "b'fhéidir", "fhéidir", true},
		// English has no elided articles.
		{Options{IgnoreCase: true}, "l'homme", "l'homme", true},
		{all, "o'clock", "o'clock", true},
	}
	checkNormalize(t, tests)
}

// TestKeywordMatchesElidedDocument checks that a keyword finds a word written
// with an elided article in the document, and the other way round, with
// either apostrophe and whether or not the phrase options stem.
func TestKeywordMatchesElidedDocument(t *testing.T) {
	t.Parallel()
	checkKeywordMatches(t, []matchCase{
		{"fr", "homme", "Les droits de l'homme"},
		{"fr", "Europe", "au cœur de l’Europe"},
		{"fr", "l'Europe", "l'Europe et la France"},
		{"fr", "l’eau", "de l'eau potable"},
		{"fr", "ici", "jusqu'ici tout va bien"},
		{"it", "acqua", "Il livello dell'acqua sale"},
		{"it", "Italia", "benvenuti all’Italia"},
		{"ca", "aigua", "el nivell de l'aigua"},
	}, func(lang string) []Options {
		return []Options{
			{IgnoreCase: true, Language: lang},
			{IgnoreCase: true, Stopwords: true, Stemming: true, Language: lang},
		}
	})
}

func TestTermsElisionKeepsTokenOffsets(t *testing.T) {
	t.Parallel()
	text := "L’homme et l'Europe"
	got := NewNormalizer(Options{IgnoreCase: true, Stopwords: true, Language: "fr"}).Terms(text)
	want := []Term{
		{Token{Text: "L’homme", Start: 0, End: 9, Pos: 0}, "homme"},
		{Token{Text: "l'Europe", Start: 13, End: 21, Pos: 2}, "europe"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Terms(%q) = %+v, want %+v", text, got, want)
	}
}

func TestNormalizeTurkishCase(t *testing.T) {
	t.Parallel()
	tests := []normalizeCase{
		{Options{IgnoreCase: true, Language: "tr"}, "IŞIK", "ışık", true},
		{Options{IgnoreCase: true, Language: "tr"}, "İSTANBUL", "istanbul", true},
		{Options{Stemming: true, Language: "tr"}, "IŞIKLARI", "ışık", true},
		{Options{Stopwords: true, Language: "tr"}, "İÇİN", "", false},  // "için"
		{Options{Stopwords: true, Language: "tr"}, "BIR", "BIR", true}, // "bır", not "bir"
		{Options{IgnoreCase: true, Language: "az"}, "İLDIRIM", "ildırım", true},
		{Options{IgnoreCase: true, Language: "en"}, "IŞIK", "işik", true},
	}
	checkNormalize(t, tests)
}
