package job

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/index"
)

// FuzzMatch matches a fuzzed keyword against the diff of two fuzzed texts:
// no panic, every hit inside its fragment, and a quoted phrase found only
// where its words occur in order.
func FuzzMatch(f *testing.F) {
	f.Add("flood", "The river is calm.", "Flooding expected near the bridge.", true, true, true)
	f.Add(`"zeus larissaios"`, "Temple.", "The temple of Zeus Larissaios.", false, false, true)
	f.Add("House of the Gods", "", "A god house was found.", true, true, true)
	f.Add("the", "and the rest", "the rest", false, true, false)
	f.Add("πλημμύρα", "Λάρισα", "Μεγάλη πλημμύρα στη Λάρισα.", true, false, true)
	f.Add("наводнение", "", "Сильные наводнения в городе.", true, true, false)
	f.Add(`""`, "a", "b", false, false, false)
	f.Fuzz(func(t *testing.T, kw, old, new string, stemming, stopwords, ignoreCase bool) {
		if len(kw) > MaxKeywordLength || len(old)+len(new) > 4096 {
			return
		}
		k, err := parseKeyword(kw)
		if err != nil {
			return
		}
		sub := &subscription{Request: Request{Keywords: []string{kw}, Stemming: stemming, Stopwords: stopwords, IgnoreCase: ignoreCase}}
		mt := newMatcher([]*subscription{sub}, "en")
		diffs := diff.Compute(old, new, nil)
		hits := mt.match(diffs)
		for _, h := range hits {
			d := diffs[h.diff]
			if h.start < d.Start || h.end > d.End || h.start >= h.end {
				t.Fatalf("hit %+v outside fragment %d-%d", h, d.Start, d.End)
			}
		}
		for _, ms := range mt.notifications(hits, diffs, old, new, DefaultSnippetChars) {
			for _, m := range ms {
				if m.Text == "" || !utf8.ValidString(m.Snippet) && utf8.ValidString(old+new) {
					t.Fatalf("bad match %+v", m)
				}
				if k.phrase && utf8.ValidString(m.Text) {
					n := index.NewNormalizer(index.Options{IgnoreCase: ignoreCase, Language: "en"})
					if got, want := strings.Join(termStrings(n.Terms(m.Text)), " "), strings.Join(termStrings(n.Terms(k.text)), " "); got != want {
						t.Fatalf("phrase %q matched %q", want, got)
					}
				}
			}
		}
	})
}
