package diff

import (
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
// unrelated texts costs time quadratic in their size and only yields noise
// that the clean-up would merge back into one block.
const smallTokens = 4096

// computer holds the state of one Compute call.
type computer struct {
	old, new   string
	deadline   time.Time
	linesOnly  bool
	maxSymbols int // maxSymbols, lowered by tests
	dmp        *diffmatchpatch.DiffMatchPatch
	words      map[string]rune // word-pass alphabet, shared by all blocks
	seen       []uint8         // scratch of common, indexed by symbol
	degraded   bool            // the deadline or the alphabet made the result coarser
}

func newComputer(old, new string, o Options) *computer {
	return &computer{
		old:        old,
		new:        new,
		deadline:   time.Now().Add(o.Timeout),
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
	lines := make(map[string]rune, len(la)+len(lb))
	a, okA := c.side(lines, c.old, la)
	b, okB := c.side(lines, c.new, lb)
	if !okA || !okB {
		c.degraded = true
		return []region{whole}
	}
	var out []region
	for _, r := range c.align(a, b) {
		r = region{a.bounds[r.a0], a.bounds[r.a1], b.bounds[r.b0], b.bounds[r.b1]}
		if r.a0 == r.a1 || r.b0 == r.b1 || c.linesOnly || c.late() {
			out = append(out, r)
			continue
		}
		out = append(out, c.wordPass(r)...)
	}
	return out
}

// late reports whether the deadline has passed, and records that the
// result is then coarser than it could be.
func (c *computer) late() bool {
	late := time.Now().After(c.deadline)
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
	if len(a.syms)+len(b.syms) > smallTokens && !similar(a, b) {
		return []region{r}
	}
	regs := c.align(a, b)
	for i, t := range regs {
		regs[i] = region{a.bounds[t.a0], a.bounds[t.a1], b.bounds[t.b0], b.bounds[t.b1]}
	}
	return regs
}

// side is one text cut into tokens for an alignment.
type side struct {
	bounds []int  // token k is s[bounds[k]:bounds[k+1]]
	syms   []rune // the symbol of each token
	weight []int  // weight[k]: how many of the first k tokens are not blank
}

// side encodes the tokens of s given by bounds with the alphabet, adding
// the tokens it has not seen. It reports false when the alphabet is full.
func (c *computer) side(alphabet map[string]rune, s string, bounds []int) (side, bool) {
	n := len(bounds) - 1
	sd := side{bounds: bounds, syms: make([]rune, n), weight: make([]int, n+1)}
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
// index regions: go-diff's alignment of the tokens that occur on both
// sides, then the semantic clean-up, the factoring of common tokens and the
// sliding of pure insertions and deletions (see the package documentation).
func (c *computer) align(a, b side) []region {
	if c.late() {
		return []region{{0, len(a.syms), 0, len(b.syms)}}
	}
	// A token found on one side only is an insertion or a deletion whatever
	// the alignment, so Myers' algorithm, whose cost grows with the square
	// of the number of differences, is run without them: the longest common
	// subsequence is the same. Unrelated texts then cost almost nothing.
	fa, ia, fb, ib := c.common(a.syms, b.syms)
	// At least 1ns: go-diff takes a timeout <= 0 to mean none.
	c.dmp.DiffTimeout = max(time.Until(c.deadline), time.Nanosecond)
	ops := c.dmp.DiffMainRunes(fa, fb, false)
	if c.late() {
		// go-diff gives up at the deadline by declaring what is left one big
		// replacement, without saying so; the result is exact but coarse.
		return []region{{0, len(a.syms), 0, len(b.syms)}}
	}
	regs := cleanup(toRegions(ops, ia, ib, len(a.syms), len(b.syms)), a, b)
	regs = factor(regs, a, b)
	slide(regs, a, b)
	return merge(regs)
}

// common returns the symbols of a and b that occur in both, with their
// indices in a and b.
func (c *computer) common(a, b []rune) (fa []rune, ia []int, fb []rune, ib []int) {
	const inA, inB = 1, 2
	var top rune
	for _, r := range a {
		top = max(top, r)
	}
	for _, r := range b {
		top = max(top, r)
	}
	if int(top) >= len(c.seen) {
		c.seen = make([]uint8, top+1)
	}
	for _, r := range a {
		c.seen[r] |= inA
	}
	for _, r := range b {
		c.seen[r] |= inB
	}
	keep := func(syms []rune) ([]rune, []int) {
		f, idx := make([]rune, 0, len(syms)), make([]int, 0, len(syms))
		for i, r := range syms {
			if c.seen[r] == inA|inB {
				f, idx = append(f, r), append(idx, i)
			}
		}
		return f, idx
	}
	fa, ia = keep(a)
	fb, ib = keep(b)
	for _, r := range a {
		c.seen[r] = 0 // c.seen is all zeros between calls
	}
	for _, r := range b {
		c.seen[r] = 0
	}
	return fa, ia, fb, ib
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

// cleanup merges changes separated by an equal run that is smaller (in
// non-blank tokens) than the changes on both its sides, so that a rewritten
// sentence is reported as one removal and one addition rather than as
// pieces around the words it happens to share with the old one ("the",
// blank lines). It is the equality elimination of go-diff's
// DiffCleanupSemantic, done with a stack in linear time; the equal runs
// at the ends of the text are never merged.
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
// consecutive non-blank tokens: a cheap, order-aware estimate of whether
// a word-by-word alignment will find much in common.
func similar(a, b side) bool {
	counts := make(map[uint64]int32)
	na := pairs(a, func(p uint64) { counts[p]++ })
	shared := 0
	nb := pairs(b, func(p uint64) {
		if counts[p] > 0 {
			counts[p]--
			shared++
		}
	})
	return 2*shared >= max(na, nb)
}

// pairs calls f with each pair of consecutive non-blank tokens of sd and
// returns how many there were.
func pairs(sd side, f func(uint64)) int {
	n := 0
	prev := rune(-1)
	for k, r := range sd.syms {
		if sd.blank(k) {
			continue
		}
		if prev >= 0 {
			f(uint64(prev)<<32 | uint64(r))
			n++
		}
		prev = r
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
