package job

import (
	"sort"
	"strings"

	"github.com/vokter-go/vokter/diff"
	"github.com/vokter-go/vokter/index"
)

// bloomFPRate is the false-positive rate of a fragment's Bloom filter: the
// exact check after it makes false positives cost time, never accuracy.
const bloomFPRate = 0.01

// groupKey is how a keyword is compared: the normalisation applied to both
// the keyword and the fragments, and whether it is a phrase.
type groupKey struct {
	opts   index.Options
	phrase bool
}

// compiled is one keyword of one subscription, normalised.
type compiled struct {
	sub   int      // index into matcher.subs
	kw    int      // index into the subscription's keywords
	terms []string // normalised terms (all must occur) or phrase words (in order)
}

// group holds the keywords that share one normalisation, indexed by their
// first term, so a fragment only meets the keywords one of its terms can
// start: the cost of matching grows with the diff, not with the number of
// subscriptions.
type group struct {
	key      groupKey
	keywords []compiled
	byAnchor map[string][]int32 // first term -> indexes into keywords
}

// matcher matches the subscriptions of one document against its diffs. It
// is immutable once built and safe for concurrent use.
type matcher struct {
	lang   string
	subs   []*subscription
	groups []*group
	// wants tells whether any subscription listens to an event, so
	// fragments nobody listens to are skipped.
	wants map[diff.Event]bool
}

// newMatcher normalises every keyword of subs for a document in language
// lang.
func newMatcher(subs []*subscription, lang string) *matcher {
	m := &matcher{lang: lang, subs: subs, wants: make(map[diff.Event]bool, 2)}
	groups := make(map[groupKey]*group)
	norms := make(map[index.Options]*index.Normalizer)
	normalizer := func(o index.Options) *index.Normalizer {
		n, ok := norms[o]
		if !ok {
			n = index.NewNormalizer(o)
			norms[o] = n
		}
		return n
	}
	for si, s := range subs {
		m.wants[diff.Added] = m.wants[diff.Added] || !s.IgnoreAdded
		m.wants[diff.Removed] = m.wants[diff.Removed] || !s.IgnoreRemoved
		kws, err := parseKeywords(s.Keywords)
		if err != nil {
			continue // validated when added; a record from a later version may differ
		}
		for ki, kw := range kws {
			key, terms := compileKeyword(kw, s.Request, lang, normalizer)
			if len(terms) == 0 {
				continue
			}
			g, ok := groups[key]
			if !ok {
				g = &group{key: key, byAnchor: make(map[string][]int32)}
				groups[key] = g
				m.groups = append(m.groups, g)
			}
			g.byAnchor[terms[0]] = append(g.byAnchor[terms[0]], int32(len(g.keywords)))
			g.keywords = append(g.keywords, compiled{sub: si, kw: ki, terms: terms})
		}
	}
	return m
}

// compileKeyword chooses a keyword's group and normalises it. A phrase is
// compared word by word with case folding only; other keywords with the
// subscription's options. A keyword made only of stop-words is compared
// without stop-word removal, or it could never match.
func compileKeyword(kw keyword, r Request, lang string, normalizer func(index.Options) *index.Normalizer) (groupKey, []string) {
	if kw.phrase {
		key := groupKey{opts: index.Options{IgnoreCase: r.IgnoreCase, Language: lang}, phrase: true}
		return key, termStrings(normalizer(key.opts).Terms(kw.text))
	}
	key := groupKey{opts: index.Options{IgnoreCase: r.IgnoreCase, Stopwords: r.Stopwords, Stemming: r.Stemming, Language: lang}}
	terms := dedupe(termStrings(normalizer(key.opts).Terms(kw.text)))
	if len(terms) == 0 && key.opts.Stopwords {
		key.opts.Stopwords = false
		terms = dedupe(termStrings(normalizer(key.opts).Terms(kw.text)))
	}
	return key, terms
}

func termStrings(terms []index.Term) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.Term
	}
	return out
}

func dedupe(terms []string) []string {
	out := terms[:0]
	seen := make(map[string]bool, len(terms))
	for _, t := range terms {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// hit is a keyword found in a fragment: the byte span of the matching words
// in the fragment's snapshot.
type hit struct {
	sub, kw    int
	diff       int
	start, end int
}

// match returns the hits of every diff, in diff order. Each keyword is
// reported at most once per diff.
func (m *matcher) match(diffs []diff.Diff) []hit {
	var hits []hit
	norms := make(map[index.Options]*index.Normalizer, len(m.groups))
	var terms []index.Term
	for di, d := range diffs {
		if !m.wants[d.Event] {
			continue
		}
		for _, g := range m.groups {
			n, ok := norms[g.key.opts]
			if !ok {
				n = index.NewNormalizer(g.key.opts)
				norms[g.key.opts] = n
			}
			// A phrase group's normaliser keeps stop-words and does not
			// stem, so its terms are the fragment's words, case-folded
			// as the subscription asked.
			terms = n.AppendTerms(terms[:0], d.Text)
			if g.key.phrase {
				hits = g.matchPhrases(hits, terms, di, d)
			} else {
				hits = g.matchTerms(hits, terms, di, d)
			}
		}
	}
	hits = m.filterEvents(hits, diffs)
	// Terms are visited in map order: sort for stable notifications.
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.diff != b.diff {
			return a.diff < b.diff
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.kw < b.kw
	})
	return hits
}

func (m *matcher) filterEvents(hits []hit, diffs []diff.Diff) []hit {
	out := hits[:0]
	for _, h := range hits {
		s := m.subs[h.sub]
		if e := diffs[h.diff].Event; (e == diff.Added && s.IgnoreAdded) || (e == diff.Removed && s.IgnoreRemoved) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// matchTerms finds the keywords whose terms all occur in the fragment, in
// any order. Candidates come from the fragment's own terms (a keyword is
// indexed by its first term); for a keyword of several terms the fragment's
// Bloom filter answers first, and the exact search for the smallest span
// holding them all runs only when it says yes.
func (g *group) matchTerms(hits []hit, terms []index.Term, di int, d diff.Diff) []hit {
	seen := make(map[string]bool, len(terms))
	var bloom *index.Filter // built on first need
	for _, t := range terms {
		if seen[t.Term] {
			continue
		}
		seen[t.Term] = true
		for _, ki := range g.byAnchor[t.Term] {
			kw := &g.keywords[ki]
			if len(kw.terms) > 1 {
				if bloom == nil {
					bloom = index.FilterOf(terms, bloomFPRate)
				}
				if !allIn(kw.terms[1:], bloom) {
					continue
				}
			}
			if start, end, ok := smallestSpan(terms, kw.terms); ok {
				hits = append(hits, hit{sub: kw.sub, kw: kw.kw, diff: di, start: d.Start + start, end: d.Start + end})
			}
		}
	}
	return hits
}

func allIn(terms []string, f *index.Filter) bool {
	for _, t := range terms {
		if !f.Test(t) {
			return false
		}
	}
	return true
}

// smallestSpan returns the shortest byte span of terms that holds every
// term of want (distinct), in any order; ok=false if one is missing. It
// slides a window over terms once.
func smallestSpan(terms []index.Term, want []string) (start, end int, ok bool) {
	count := make(map[string]int, len(want))
	for _, w := range want {
		count[w] = 0
	}
	missing, left := len(count), 0
	for right, t := range terms {
		c, needed := count[t.Term]
		if !needed {
			continue
		}
		if c == 0 {
			missing--
		}
		count[t.Term] = c + 1
		for missing == 0 {
			if s, e := terms[left].Start, terms[right].End; !ok || e-s < end-start {
				start, end, ok = s, e, true
			}
			if c, needed := count[terms[left].Term]; needed {
				if count[terms[left].Term] = c - 1; c == 1 {
					missing++
				}
			}
			left++
		}
	}
	return start, end, ok
}

// matchPhrases finds the phrases that occur word after word in the
// fragment.
func (g *group) matchPhrases(hits []hit, words []index.Term, di int, d diff.Diff) []hit {
	var seen map[int32]bool
	for i, w := range words {
		for _, ki := range g.byAnchor[w.Term] {
			kw := &g.keywords[ki]
			if seen[ki] || !phraseAt(words[i:], kw.terms) {
				continue
			}
			if seen == nil {
				seen = make(map[int32]bool)
			}
			seen[ki] = true
			last := words[i+len(kw.terms)-1]
			hits = append(hits, hit{sub: kw.sub, kw: kw.kw, diff: di, start: d.Start + w.Start, end: d.Start + last.End})
		}
	}
	return hits
}

func phraseAt(words []index.Term, phrase []string) bool {
	if len(words) < len(phrase) {
		return false
	}
	for j, p := range phrase {
		if words[j].Term != p {
			return false
		}
	}
	return true
}

// maxMatchText bounds the Text of a match. The words of a keyword found
// far apart in a large fragment are reported as "first … last", with the
// snippet around the first.
const maxMatchText = 512

// notifications turns hits into one notification per subscription, with
// snippets cut from the snapshot each diff refers to.
func (m *matcher) notifications(hits []hit, diffs []diff.Diff, oldText, newText string, snippetChars int) map[int][]Match {
	out := make(map[int][]Match)
	for _, h := range hits {
		text := newText
		if diffs[h.diff].Event == diff.Removed {
			text = oldText
		}
		s := m.subs[h.sub]
		match, start, end := text[h.start:h.end], h.start, h.end
		if len(match) > maxMatchText {
			first, last := index.Tokenize(match[:maxMatchText/2]), index.Tokenize(match[len(match)-maxMatchText/2:])
			if len(first) > 0 && len(last) > 0 {
				end = start + first[0].End
				match = first[0].Text + " … " + last[len(last)-1].Text
			}
		}
		out[h.sub] = append(out[h.sub], Match{
			Event:   Event(diffs[h.diff].Event),
			Keyword: s.Keywords[h.kw],
			Text:    strings.TrimSpace(match),
			Snippet: diff.Snippet(text, start, end, snippetChars),
		})
	}
	return out
}
