package diff

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// region is one change between two equal runs: old[a0:a1] was replaced by
// new[b0:b1] (either may be empty). Depending on the stage, the fields are
// token indices or byte offsets.
type region struct{ a0, a1, b0, b1 int }

// maxSymbols is the number of distinct tokens one alignment can tell apart:
// go-diff aligns rune slices, and every code point but the surrogates can
// stand for a token.
const maxSymbols = utf8.MaxRune + 1 - 0x800

// symbol returns the rune that stands for the i-th distinct token.
func symbol(i int) rune {
	if i >= 0xD800 {
		i += 0x800 // skip the surrogates, which go-diff would turn into U+FFFD
	}
	return rune(i)
}

// smallTokens is the size (in tokens of both sides) up to which a changed
// block always gets a word pass. Larger blocks get one only when their
// words are mostly the same (see similar): aligning the words of two
// unrelated texts costs time quadratic in their size and only yields noise:
// the common words they happen to share.
const smallTokens = 4096

// computer holds the state of one Compute call.
type computer struct {
	old, new   string
	alignBy    time.Time // past it, no more alignment with go-diff
	linesOnly  bool
	maxSymbols int // maxSymbols, lowered by tests
	dmp        *diffmatchpatch.DiffMatchPatch
	words      map[string]rune // word-pass alphabet, shared by all blocks
	tally      []tally         // scratch of common and anchor, indexed by symbol
	fa, fb     []rune          // scratch of common
	ia, ib     []int           // scratch of common
	degraded   bool            // the deadline or the alphabet made the result coarser
}

// alignShare is the part of Options.Timeout that go-diff may use: past it,
// what is left is done in linear time (anchors on unique lines, whole
// changed blocks), so that Compute as a whole stays within the timeout.
const alignShare = 2

func newComputer(old, new string, o Options) *computer {
	return &computer{
		old:        old,
		new:        new,
		alignBy:    time.Now().Add(o.Timeout / alignShare),
		linesOnly:  o.LinesOnly,
		maxSymbols: maxSymbols,
		dmp:        diffmatchpatch.New(),
	}
}

// run returns the changes as byte regions, in order, separated by non-empty
// equal runs.
func (c *computer) run() []region {
	lo, hiA, hiB := trimLines(c.old, c.new)
	whole := region{lo, hiA, lo, hiB}
	if lo == hiA || lo == hiB {
		return []region{whole} // whole lines inserted or deleted
	}
	la, lb := lineBounds(nil, c.old, lo, hiA), lineBounds(nil, c.new, lo, hiB)
	regs, ok := c.pass(la, lb, true)
	if !ok {
		return []region{whole}
	}
	var out []region
	for _, r := range regs {
		if r.a0 == r.a1 || r.b0 == r.b1 || c.linesOnly || c.late() {
			out = append(out, r)
			continue
		}
		out = append(out, c.refine(r)...)
	}
	return out
}

// pass aligns the tokens of old and new given by their bounds, each
// distinct token standing for one symbol, and returns the changes as byte
// regions. anchored says whether the alignment starts from the tokens
// found once on each side (lines, segments). It reports false when the
// tokens do not fit in the alphabet.
func (c *computer) pass(ba, bb []int, anchored bool) ([]region, bool) {
	alphabet := make(map[string]rune, len(ba)+len(bb))
	a, okA := c.side(alphabet, c.old, ba)
	b, okB := c.side(alphabet, c.new, bb)
	if !okA || !okB {
		c.degraded = true
		return nil, false
	}
	regs := c.align(a, b, anchored)
	for i, r := range regs {
		regs[i] = region{a.bounds[r.a0], a.bounds[r.a1], b.bounds[r.b0], b.bounds[r.b1]}
	}
	return regs, true
}

// refine splits the changed block r (byte offsets, both sides non-empty)
// into segments when it is long, then compares the changed segments word
// by word.
func (c *computer) refine(r region) []region {
	if max(r.a1-r.a0, r.b1-r.b0) <= segmentMinBytes {
		return c.wordPass(r)
	}
	regs, ok := c.pass(segmentBounds(c.old, r.a0, r.a1), segmentBounds(c.new, r.b0, r.b1), true)
	if !ok {
		return []region{r}
	}
	// Unrelated texts share a few segments by chance ("Read more."), and
	// aligning the words between them only finds noise (see smallTokens);
	// when few segments match, similar tells.
	changed := 0
	for _, t := range regs {
		changed += t.a1 - t.a0
	}
	if 4*changed > 3*(r.a1-r.a0) && !similar(c.old[r.a0:r.a1], c.new[r.b0:r.b1]) {
		return []region{r}
	}
	out := regs[:0:0]
	for _, t := range regs {
		if t.a0 == t.a1 || t.b0 == t.b1 || c.late() {
			out = append(out, t)
			continue
		}
		out = append(out, c.wordPass(t)...)
	}
	return out
}

// late reports whether go-diff's share of the time is used up, and records
// that the result is then coarser than it could be.
func (c *computer) late() bool {
	late := time.Now().After(c.alignBy)
	c.degraded = c.degraded || late
	return late
}

// wordPass refines the changed block r (byte offsets, both sides non-empty)
// word by word.
func (c *computer) wordPass(r region) []region {
	ba := wordBounds(nil, c.old, r.a0, r.a1)
	bb := wordBounds(nil, c.new, r.b0, r.b1)
	if c.words == nil {
		c.words = make(map[string]rune, min(len(ba)+len(bb), 1<<12))
	}
	if len(c.words)+len(ba)+len(bb) > c.maxSymbols {
		clear(c.words) // symbols only need to be consistent within one block
	}
	a, okA := c.side(c.words, c.old, ba)
	b, okB := c.side(c.words, c.new, bb)
	if !okA || !okB {
		c.degraded = true
		return []region{r}
	}
	if len(a.syms)+len(b.syms) > smallTokens && !similar(c.old[r.a0:r.a1], c.new[r.b0:r.b1]) {
		return []region{r}
	}
	regs := c.align(a, b, false)
	for i, t := range regs {
		regs[i] = region{a.bounds[t.a0], a.bounds[t.a1], b.bounds[t.b0], b.bounds[t.b1]}
	}
	return regs
}

// side is one text cut into tokens for an alignment.
type side struct {
	text   string // the whole snapshot
	bounds []int  // token k is text[bounds[k]:bounds[k+1]]
	syms   []rune // the symbol of each token
	weight []int  // weight[k]: how many of the first k tokens are not blank
}

// side encodes the tokens of s given by bounds with the alphabet, adding
// the tokens it has not seen. It reports false when the alphabet is full.
func (c *computer) side(alphabet map[string]rune, s string, bounds []int) (side, bool) {
	n := len(bounds) - 1
	sd := side{text: s, bounds: bounds, syms: make([]rune, n), weight: make([]int, n+1)}
	for k := range n {
		tok := s[bounds[k]:bounds[k+1]]
		r, ok := alphabet[tok]
		if !ok {
			if len(alphabet) >= c.maxSymbols {
				return sd, false
			}
			r = symbol(len(alphabet))
			alphabet[tok] = r
		}
		sd.syms[k] = r
		sd.weight[k+1] = sd.weight[k]
		if !isBlank(tok) {
			sd.weight[k+1]++
		}
	}
	return sd, true
}

// blank reports whether token k of sd is blank.
func (sd *side) blank(k int) bool { return sd.weight[k+1] == sd.weight[k] }

// align returns the changes between the token sequences a and b, as token
// index regions: the raw alignment (see anchor and myers), then the
// semantic clean-up, the factoring of common tokens and the sliding of pure
// insertions and deletions (see the package documentation).
func (c *computer) align(a, b side, anchored bool) []region {
	var regs []region
	if anchored {
		budget := anchorBudget * (len(a.syms) + len(b.syms))
		regs = c.anchor(nil, a.syms, b.syms, region{0, len(a.syms), 0, len(b.syms)}, &budget)
	} else {
		regs = c.myers(nil, a.syms, b.syms, region{0, len(a.syms), 0, len(b.syms)})
	}
	regs = cleanup(regs, a, b)
	regs = factor(regs, a, b)
	slide(regs, a, b)
	return merge(regs)
}

// anchorBudget bounds the work of anchor, in passes over its input: the
// recursion of patience diff is quadratic on adversarial inputs.
const anchorBudget = 8

// anchor appends to dst the changes between a[r.a0:r.a1] and b[r.b0:r.b1]
// found as patience diff does: the longest run, in the same order on both
// sides, of symbols found exactly once on each side are matched, and the
// gaps between them are compared the same way; a gap without such symbols
// goes to myers. Its cost is O(n log n) for a budget of *budget symbols
// visited; past the budget, gaps go to myers directly.
func (c *computer) anchor(dst []region, a, b []rune, r region, budget *int) []region {
	for r.a0 < r.a1 && r.b0 < r.b1 && a[r.a0] == b[r.b0] {
		r.a0++
		r.b0++
	}
	for r.a0 < r.a1 && r.b0 < r.b1 && a[r.a1-1] == b[r.b1-1] {
		r.a1--
		r.b1--
	}
	if r.a0 == r.a1 || r.b0 == r.b1 {
		if r.a0 < r.a1 || r.b0 < r.b1 {
			dst = append(dst, r)
		}
		return dst
	}
	n := r.a1 - r.a0 + r.b1 - r.b0
	if *budget < n {
		return c.myers(dst, a, b, r)
	}
	*budget -= n
	matches := c.uniqueMatches(a[r.a0:r.a1], b[r.b0:r.b1])
	if len(matches) == 0 {
		return c.myers(dst, a, b, r)
	}
	next := region{a0: r.a0, b0: r.b0}
	for _, m := range matches {
		next.a1, next.b1 = r.a0+m.a, r.b0+m.b
		dst = c.anchor(dst, a, b, next, budget)
		next.a0, next.b0 = next.a1+1, next.b1+1
	}
	next.a1, next.b1 = r.a1, r.b1
	return c.anchor(dst, a, b, next, budget)
}

// tally counts the occurrences of one symbol in two sequences.
type tally struct {
	na, nb int32 // occurrences in a and in b
	pa     int32 // index in a of the last occurrence
}

// match pairs index a of one sequence with index b of the other.
type match struct{ a, b int }

// uniqueMatches returns the longest sequence of matches, increasing on
// both sides, between the symbols found exactly once in a and once in b.
func (c *computer) uniqueMatches(a, b []rune) []match {
	c.count(a, b)
	var cands []match // in the order of b
	for j, r := range b {
		if t := c.tally[r]; t.na == 1 && t.nb == 1 {
			cands = append(cands, match{int(t.pa), j})
		}
	}
	c.uncount(a, b)
	return increasing(cands)
}

// increasing returns the longest subsequence of ms whose a fields
// increase (patience sorting, O(n log n)); ms is sorted by b.
func increasing(ms []match) []match {
	if len(ms) == 0 {
		return nil
	}
	tails := make([]int, 0, 16) // tails[k]: index in ms of the smallest end of a run of length k+1
	prev := make([]int, len(ms))
	for i, m := range ms {
		k, _ := slices.BinarySearchFunc(tails, m.a, func(t, a int) int { return cmp.Compare(ms[t].a, a) })
		prev[i] = -1
		if k > 0 {
			prev[i] = tails[k-1]
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]match, len(tails))
	for i, k := tails[len(tails)-1], len(tails)-1; k >= 0; i, k = prev[i], k-1 {
		out[k] = ms[i]
	}
	return out
}

// maxRune returns the largest symbol of s, or 0.
func maxRune(s []rune) rune {
	var top rune
	for _, r := range s {
		top = max(top, r)
	}
	return top
}

// myers appends to dst the changes between a[r.a0:r.a1] and b[r.b0:r.b1]
// found by go-diff's alignment of the symbols that occur on both sides,
// or r itself once go-diff's share of the time is used up.
func (c *computer) myers(dst []region, a, b []rune, r region) []region {
	if c.late() {
		return append(dst, r)
	}
	// A symbol found on one side only is an insertion or a deletion whatever
	// the alignment, so Myers' algorithm, whose cost grows with the square
	// of the number of differences, is run without them: the longest common
	// subsequence is the same. Unrelated texts then cost almost nothing.
	fa, ia, fb, ib := c.common(a[r.a0:r.a1], b[r.b0:r.b1])
	if len(fa) == 0 {
		return append(dst, r) // nothing in common: one replacement
	}
	// At least 1ns: go-diff takes a timeout <= 0 to mean none.
	c.dmp.DiffTimeout = max(time.Until(c.alignBy), time.Nanosecond)
	ops := c.dmp.DiffMainRunes(fa, fb, false)
	if c.late() {
		// go-diff gives up at the deadline by declaring what is left one big
		// replacement, without saying so; the result is exact but coarse.
		return append(dst, r)
	}
	for _, t := range toRegions(ops, ia, ib, r.a1-r.a0, r.b1-r.b0) {
		dst = append(dst, region{r.a0 + t.a0, r.a0 + t.a1, r.b0 + t.b0, r.b0 + t.b1})
	}
	return dst
}

// common returns the symbols of a and b that occur in both, with their
// indices in a and b. The slices are scratch, valid until the next call.
func (c *computer) common(a, b []rune) (fa []rune, ia []int, fb []rune, ib []int) {
	c.count(a, b)
	keep := func(f []rune, idx []int, syms []rune) ([]rune, []int) {
		f, idx = f[:0], idx[:0]
		for i, r := range syms {
			if t := c.tally[r]; t.na > 0 && t.nb > 0 {
				f, idx = append(f, r), append(idx, i)
			}
		}
		return f, idx
	}
	c.fa, c.ia = keep(c.fa, c.ia, a)
	c.fb, c.ib = keep(c.fb, c.ib, b)
	c.uncount(a, b)
	return c.fa, c.ia, c.fb, c.ib
}

// count fills c.tally with the occurrences of the symbols of a and b.
func (c *computer) count(a, b []rune) {
	top := max(maxRune(a), maxRune(b))
	if int(top) >= len(c.tally) {
		c.tally = make([]tally, top+1)
	}
	for i, r := range a {
		c.tally[r].na++
		c.tally[r].pa = int32(i)
	}
	for _, r := range b {
		c.tally[r].nb++
	}
}

// uncount resets the entries of c.tally that count filled: c.tally is all
// zeros between calls.
func (c *computer) uncount(a, b []rune) {
	for _, r := range a {
		c.tally[r] = tally{}
	}
	for _, r := range b {
		c.tally[r] = tally{}
	}
}

// toRegions turns go-diff's operations over the common symbols (whose
// indices in the full sequences of lengths na and nb are ia and ib) into
// the regions between matched tokens.
func toRegions(ops []diffmatchpatch.Diff, ia, ib []int, na, nb int) []region {
	var regs []region
	var i, j int         // common symbols consumed on each side
	var nextA, nextB int // first token after the last match
	for _, op := range ops {
		n := utf8.RuneCountInString(op.Text)
		switch op.Type {
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		default:
			for k := range n {
				ma, mb := ia[i+k], ib[j+k]
				if ma > nextA || mb > nextB {
					regs = append(regs, region{nextA, ma, nextB, mb})
				}
				nextA, nextB = ma+1, mb+1
			}
			i, j = i+n, j+n
		}
	}
	if nextA < na || nextB < nb {
		regs = append(regs, region{nextA, na, nextB, nb})
	}
	return regs
}

// weight returns the size of r for the clean-up: the larger of its two
// sides, counted in non-blank tokens.
func weight(r region, a, b side) int {
	return max(a.weight[r.a1]-a.weight[r.a0], b.weight[r.b1]-b.weight[r.b0])
}

// mergeWords is the largest number of words an equal run may hold for the
// clean-up to report it as changed, inside a merged change.
const mergeWords = 2

// cleanup merges changes separated by an equal run that is smaller (in
// non-blank tokens) than the changes on both its sides, so that a rewritten
// sentence is reported as one removal and one addition rather than as
// pieces around the words it happens to share with the old one ("the",
// blank lines). It is the equality elimination of go-diff's
// DiffCleanupSemantic, done with a stack in linear time; the equal runs
// at the ends of the text are never merged.
//
// An equal run is merged only when it is blank, or when it holds at most
// mergeWords words and no line break: merging reports the run as removed
// and added again, which must never make an unchanged line, or a phrase
// a keyword could match, look changed.
func cleanup(regs []region, a, b side) []region {
	out := regs[:0]
	for _, r := range regs {
		out = append(out, r)
		for len(out) >= 2 {
			c1, c2 := out[len(out)-2], out[len(out)-1]
			eq := a.weight[c2.a0] - a.weight[c1.a1]
			if eq >= weight(c1, a, b) || eq >= weight(c2, a, b) {
				break
			}
			if eq > 0 && (eq > mergeWords || strings.IndexByte(a.text[a.bounds[c1.a1]:a.bounds[c2.a0]], '\n') >= 0) {
				break
			}
			out = append(out[:len(out)-2], region{c1.a0, c2.a1, c1.b0, c2.b1})
		}
	}
	return out
}

// factor moves the tokens that both sides of a change start or end with
// out of the change, and drops changes that become empty.
func factor(regs []region, a, b side) []region {
	out := regs[:0]
	for _, r := range regs {
		for r.a0 < r.a1 && r.b0 < r.b1 && a.syms[r.a0] == b.syms[r.b0] {
			r.a0++
			r.b0++
		}
		for r.a0 < r.a1 && r.b0 < r.b1 && a.syms[r.a1-1] == b.syms[r.b1-1] {
			r.a1--
			r.b1--
		}
		if r.a0 < r.a1 || r.b0 < r.b1 {
			out = append(out, r)
		}
	}
	return out
}

// slide shifts each pure insertion or deletion that starts with a blank
// token to the right while the equal run after it starts with the same
// token, so that " big" becomes "big " and "\nline\n" becomes "line\n\n":
// fragments then start with a word, as a reader would cut them.
func slide(regs []region, a, b side) {
	for i := range regs {
		r := &regs[i]
		limA, limB := len(a.syms), len(b.syms)
		if i+1 < len(regs) {
			limA, limB = regs[i+1].a0, regs[i+1].b0
		}
		switch {
		case r.b0 == r.b1: // deletion
			for r.a1 < limA && a.blank(r.a0) && a.weight[r.a1] > a.weight[r.a0] && a.syms[r.a1] == a.syms[r.a0] {
				r.a0, r.a1, r.b0, r.b1 = r.a0+1, r.a1+1, r.b0+1, r.b1+1
			}
		case r.a0 == r.a1: // insertion
			for r.b1 < limB && b.blank(r.b0) && b.weight[r.b1] > b.weight[r.b0] && b.syms[r.b1] == b.syms[r.b0] {
				r.a0, r.a1, r.b0, r.b1 = r.a0+1, r.a1+1, r.b0+1, r.b1+1
			}
		}
	}
}

// merge joins changes that touch (no equal run between them).
func merge(regs []region) []region {
	out := regs[:0]
	for _, r := range regs {
		if n := len(out); n > 0 && out[n-1].a1 == r.a0 && out[n-1].b1 == r.b0 {
			out[n-1].a1, out[n-1].b1 = r.a1, r.b1
			continue
		}
		out = append(out, r)
	}
	return out
}

// similar reports whether a and b share at least half of their pairs of
// consecutive words: a cheap, order-aware estimate of whether aligning
// them will find much in common. It is only asked about large blocks, so
// it looks at a sample of the pairs (those whose hash is a multiple of
// pairSample, the same ones in both texts).
func similar(a, b string) bool {
	counts := make(map[uint64]int32, len(a)/(8*pairSample))
	na := wordPairs(a, func(p uint64) { counts[p]++ })
	shared := 0
	nb := wordPairs(b, func(p uint64) {
		if counts[p] > 0 {
			counts[p]--
			shared++
		}
	})
	return 2*shared >= max(na, nb)
}

// pairSample is the sampling rate of similar.
const pairSample = 4

// wordPairs calls f with the sampled pairs of consecutive words of s (see
// similar) and returns how many there were.
func wordPairs(s string, f func(uint64)) int {
	n := 0
	var prev uint32
	for i, first := 0, true; i < len(s); {
		j, kind := tokenEnd(s, i)
		if kind == tokenWord {
			h := hash(s[i:j])
			if p := uint64(prev)<<32 | uint64(h); !first && (prev^h)%pairSample == 0 {
				f(p)
				n++
			}
			prev, first = h, false
		}
		i = j
	}
	return n
}

// trimLines returns the common prefix and suffix of old and new, cut to
// whole lines: the changed parts are old[lo:hiA] and new[lo:hiB].
func trimLines(old, new string) (lo, hiA, hiB int) {
	n := min(len(old), len(new))
	p := 0
	for p < n && old[p] == new[p] {
		p++
	}
	lo = strings.LastIndexByte(old[:p], '\n') + 1
	s := 0
	for s < n-lo && old[len(old)-1-s] == new[len(new)-1-s] {
		s++
	}
	// The suffix must start a line in both texts: if it does not, it starts
	// after its first '\n'.
	if s > 0 && !(lineStart(old, len(old)-s) && lineStart(new, len(new)-s)) {
		if i := strings.IndexByte(old[len(old)-s:], '\n'); i >= 0 {
			s -= i + 1
		} else {
			s = 0
		}
	}
	return lo, len(old) - s, len(new) - s
}

// lineStart reports whether byte offset p of s starts a line.
func lineStart(s string, p int) bool { return p == 0 || s[p-1] == '\n' }

// diffs turns byte regions into Diffs.
func (c *computer) diffs(regs []region, snippetChars int) []Diff {
	if len(regs) == 0 {
		return nil
	}
	out := make([]Diff, 0, 2*len(regs))
	for _, r := range regs {
		if r.a0 < r.a1 {
			out = append(out, Diff{Event: Removed, Text: c.old[r.a0:r.a1], Start: r.a0, End: r.a1, src: c.old, snippetChars: snippetChars})
		}
		if r.b0 < r.b1 {
			out = append(out, Diff{Event: Added, Text: c.new[r.b0:r.b1], Start: r.b0, End: r.b1, src: c.new, snippetChars: snippetChars})
		}
	}
	return out
}
