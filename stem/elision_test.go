package stem

import (
	"slices"
	"testing"
)

func TestElisionsStrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, word, want string
	}{
		{"fr", "l'homme", "homme"},
		{"fr", "L’Europe", "Europe"},
		{"fr", "L'EUROPE", "EUROPE"},
		{"fr", "d'abord", "abord"},
		{"fr", "qu'il", "il"},
		{"fr", "jusqu'ici", "ici"},
		{"fr", "Lorsqu’elle", "elle"},
		{"fr", "puisqu'on", "on"},
		{"fr", "quoiqu'il", "il"},
		{"fr", "c'est", "est"},
		{"fr", "l'aujourd'hui", "aujourd'hui"}, // one prefix only
		{"fr", "aujourd'hui", "aujourd'hui"},   // not an elided article
		{"fr", "prud'homme", "prud'homme"},
		{"fr", "l'", "l'"}, // nothing after the apostrophe
		{"fr", "'homme", "'homme"},
		{"fr", "homme", "homme"},
		{"fr", "dell'acqua", "dell'acqua"}, // Italian article, not French
		{"fr", "é'tait", "é'tait"},
		{"fr", "quoiquu'il", "quoiquu'il"}, // longer than any prefix
		{"FR-ca", "l'hiver", "hiver"},
		{"it", "dell'acqua", "acqua"},
		{"it", "all’Italia", "Italia"},
		{"it", "un'amica", "amica"},
		{"it", "sull'isola", "isola"},
		{"it", "degl'Innocenti", "Innocenti"},
		{"it", "po'", "po'"},
		{"it", "qu'il", "qu'il"},
		{"ca", "l'aigua", "aigua"},
		{"ca", "d'Europa", "Europa"},
		{"ga", "d'fhág", "fhág"},
		{"ga", "b'fhéidir", "fhéidir"},
		{"en", "don't", "don't"},
		{"en", "l'homme", "l'homme"},
		{"xx", "l'homme", "l'homme"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.word, func(t *testing.T) {
			t.Parallel()
			if got := Elisions(tt.lang).Strip(tt.word); got != tt.want {
				t.Errorf("Elisions(%q).Strip(%q) = %q, want %q", tt.lang, tt.word, got, tt.want)
			}
		})
	}
}

func TestElisionsLanguages(t *testing.T) {
	t.Parallel()
	var got []string
	for _, lang := range append(Languages(), "ca", "el", "ja", "") {
		if Elisions(lang).Len() > 0 {
			got = append(got, lang)
		}
	}
	slices.Sort(got)
	if want := []string{"ca", "fr", "ga", "it"}; !slices.Equal(got, want) {
		t.Errorf("languages with elisions = %v, want %v", got, want)
	}
	for code, e := range elisions {
		for p := range e.prefixes {
			if len(p) > maxElisionBytes {
				t.Errorf("%s: prefix %q is longer than maxElisionBytes", code, p)
			}
		}
	}
}
