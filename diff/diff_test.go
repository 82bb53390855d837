package diff

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vokter-go/vokter/internal/textseg"
)

// check asserts every invariant of diffs = Compute(old, new, ...): Apply
// rebuilds new; offsets are in range and give Text in the right snapshot;
// fragments are non-empty, in document order, start and end at word
// boundaries, and no two of the same event touch.
func check(t testing.TB, old, new string, diffs []Diff) {
	t.Helper()
	got, err := Apply(old, diffs)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got != new {
		t.Fatalf("Apply(old, diffs) = %q, want %q", got, new)
	}
	last := map[Event]int{Removed: -1, Added: -1}
	for i, d := range diffs {
		src := new
		if d.Event == Removed {
			src = old
		}
		if d.Text == "" || d.End != d.Start+len(d.Text) || d.Start < 0 || d.End > len(src) {
			t.Fatalf("diff %d %+v: bad offsets for a %d-byte snapshot", i, d, len(src))
		}
		if src[d.Start:d.End] != d.Text {
			t.Fatalf("diff %d: snapshot[%d:%d] = %q, Text = %q", i, d.Start, d.End, src[d.Start:d.End], d.Text)
		}
		if d.Start <= last[d.Event] {
			t.Fatalf("diff %d %+v: touches or precedes the previous %s diff ending at %d", i, d, d.Event, last[d.Event])
		}
		last[d.Event] = d.End
		for _, p := range []int{d.Start, d.End} {
			if inWord(src, p) || textseg.Inside(src, p) {
				t.Fatalf("diff %d %+v: offset %d cuts a word: %q|%q", i, d, p, src[max(0, p-10):p], src[p:min(len(src), p+10)])
			}
			if p > 0 && p < len(src) && isASCIIAlnum(src[p-1]) && isASCIIAlnum(src[p]) {
				t.Fatalf("diff %d %+v: offset %d splits %q", i, d, p, src[p-1:p+1])
			}
		}
		if utf8.ValidString(old) && utf8.ValidString(new) && !utf8.ValidString(d.Text) {
			t.Fatalf("diff %d: invalid UTF-8 %q", i, d.Text)
		}
	}
}

func isASCIIAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// frag is an expected diff, without offsets (check verifies them).
type frag struct {
	ev   Event
	text string
}

func frags(diffs []Diff) []frag {
	var out []frag
	for _, d := range diffs {
		out = append(out, frag{d.Event, d.Text})
	}
	return out
}

func TestCompute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		old, new string
		want     []frag
	}{
		{"identical", "same text\n", "same text\n", nil},
		{"both empty", "", "", nil},
		{"baseline (empty old)", "", "first line\nsecond line\n", []frag{{Added, "first line\nsecond line\n"}}},
		{"everything removed", "first line\nsecond line\n", "", []frag{{Removed, "first line\nsecond line\n"}}},
		{"word replaced", "the big dog barks", "the small dog barks", []frag{{Removed, "big"}, {Added, "small"}}},
		{"word removed", "the big dog barks", "the dog barks", []frag{{Removed, "big "}}},
		{"word added", "the dog barks", "the big dog barks", []frag{{Added, "big "}}},
		{"word removed at end", "the dog barks", "the dog", []frag{{Removed, " barks"}}},
		{"change at start", "Alpha beta gamma\nline two\n", "Omega beta gamma\nline two\n", []frag{{Removed, "Alpha"}, {Added, "Omega"}}},
		{"change at end without newline", "line one\nalpha beta", "line one\nalpha gamma", []frag{{Removed, "beta"}, {Added, "gamma"}}},
		{"word grows (never cut inside)", "flood warning", "flooding warning", []frag{{Removed, "flood"}, {Added, "flooding"}}},
		{"number changes", "crest of 19.1 feet", "crest of 19.7 feet", []frag{{Removed, "19.1"}, {Added, "19.7"}}},
		{"two separate words removed", "X foo Z bar Y", "X Z Y", []frag{{Removed, "foo "}, {Removed, "bar "}}},
		{
			"line inserted", "one\ntwo\nthree\n", "one\ntwo\nnew line here\nthree\n",
			[]frag{{Added, "new line here\n"}},
		},
		{
			"line deleted", "one\ntwo\nthree\n", "one\nthree\n",
			[]frag{{Removed, "two\n"}},
		},
		{
			"blank line and line inserted slide to start with a word", "one\n\ntwo\n", "one\n\nnew\n\ntwo\n",
			[]frag{{Added, "new\n\n"}},
		},
		{
			"line moved", "alpha line\nbeta line\ngamma line\ndelta line\n", "beta line\ngamma line\ndelta line\nalpha line\n",
			[]frag{{Removed, "alpha line\n"}, {Added, "alpha line\n"}},
		},
		{
			"sentence rewritten", "The cat sat on the mat.\n", "A dog lay on the rug.\n",
			[]frag{{Removed, "The cat sat"}, {Added, "A dog lay"}, {Removed, "mat"}, {Added, "rug"}},
		},
		{"whitespace only: double space", "a  b", "a b", []frag{{Removed, "  "}, {Added, " "}}},
		{"whitespace only: reflow", "alpha beta gamma\n", "alpha beta\ngamma\n", []frag{{Removed, " "}, {Added, "\n"}}},
		{
			"CRLF to LF", "hello world\r\nfoo bar\r\n", "hello world\nfoo bar\n",
			[]frag{{Removed, "\r\n"}, {Added, "\n"}, {Removed, "\r\n"}, {Added, "\n"}},
		},
		{"CRLF word change", "a b\r\nc d\r\n", "a b\r\nc e\r\n", []frag{{Removed, "d"}, {Added, "e"}}},
		{"line without newline extended", "a\nb", "a\nb\nc", []frag{{Added, "\nc"}}},
		{"apostrophe word", "don't stop", "won't stop", []frag{{Removed, "don't"}, {Added, "won't"}}},
		{"punctuation", "Stay safe.", "Stay safe!", []frag{{Removed, "."}, {Added, "!"}}},
		{"Greek", "Το γρήγορο καφέ αλεπού\n", "Το αργό καφέ αλεπού\n", []frag{{Removed, "γρήγορο"}, {Added, "αργό"}}},
		{"Russian", "Сильный ветер ожидается завтра.\n", "Сильный дождь ожидается завтра.\n", []frag{{Removed, "ветер"}, {Added, "дождь"}}},
		{"Japanese (ideographs are words)", "東京は晴れです。", "東京は雨です。", []frag{{Removed, "晴れ"}, {Added, "雨"}}},
		{"Katakana: one word per character, as in the index", "テレビを見る", "テレホンを見る", []frag{{Removed, "ビ"}, {Added, "ホン"}}},
		{"apostrophe after digits joins as in the index", "the 70's hits", "the 80's hits", []frag{{Removed, "70's"}, {Added, "80's"}}},
		{"Persian ZWNJ stays inside the word", "می\u200cخواهم بروم", "می\u200cروم بروم", []frag{{Removed, "می\u200cخواهم"}, {Added, "می\u200cروم"}}},
		{"apostrophes between letters join", "rock'n'roll live", "rock'n'soul live", []frag{{Removed, "rock'n'roll"}, {Added, "rock'n'soul"}}},
		{"underscore separates words, as in the index", "max_speed 30", "max_height 30", []frag{{Removed, "speed"}, {Added, "height"}}},
		{"combining marks stay with their letter", "cafe\u0301 noir", "cafe noir", []frag{{Removed, "cafe\u0301"}, {Added, "cafe"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			diffs := Compute(tt.old, tt.new, nil)
			check(t, tt.old, tt.new, diffs)
			if got := frags(diffs); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Compute = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

func TestComputeOffsets(t *testing.T) {
	t.Parallel()
	old := "Ελληνικά: καλημέρα κόσμε\nРусский: привет мир\n日本語: こんにちは世界\nEnglish: hello world\n"
	new := "Ελληνικά: καλησπέρα κόσμε\nРусский: пока мир\n日本語: こんばんは世界\nEnglish: hello there world\n"
	diffs := Compute(old, new, nil)
	check(t, old, new, diffs)
	want := []struct {
		ev    Event
		text  string
		start int
	}{
		{Removed, "καλημέρα", strings.Index(old, "καλημέρα")},
		{Added, "καλησπέρα", strings.Index(new, "καλησπέρα")},
		{Removed, "привет", strings.Index(old, "привет")},
		{Added, "пока", strings.Index(new, "пока")},
		{Removed, "にち", strings.Index(old, "にち")},
		{Added, "ばん", strings.Index(new, "ばん")},
		{Added, "there ", strings.Index(new, "there ")},
	}
	if len(diffs) != len(want) {
		t.Fatalf("got %d diffs %q, want %d", len(diffs), frags(diffs), len(want))
	}
	for i, w := range want {
		d := diffs[i]
		if d.Event != w.ev || d.Text != w.text || d.Start != w.start || d.End != w.start+len(w.text) {
			t.Errorf("diff %d = %s %q [%d:%d], want %s %q [%d:%d]", i, d.Event, d.Text, d.Start, d.End, w.ev, w.text, w.start, w.start+len(w.text))
		}
	}
}

func TestComputeRealText(t *testing.T) {
	t.Parallel()
	alerts := readAlerts(t)
	edits := []struct {
		name string
		edit func(string) string
	}{
		{"1% of words", func(s string) string { return mutate(s, 1, 0.01) }},
		{"20% of words", func(s string) string { return mutate(s, 2, 0.2) }},
		{"paragraphs swapped", func(s string) string {
			p := strings.Split(s, "\n\n")
			p[3], p[40] = p[40], p[3]
			return strings.Join(p, "\n\n")
		}},
		{"uppercased half", func(s string) string { return strings.ToUpper(s[:len(s)/2]) + s[len(s)/2:] }},
		{"CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }},
		{"truncated", func(s string) string { return s[:strings.LastIndexByte(s[:len(s)/3], '\n')] }},
		{"unrelated page", func(string) string { return page(t, 9, 40000) }},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			new := e.edit(alerts)
			check(t, alerts, new, Compute(alerts, new, nil))
			check(t, new, alerts, Compute(new, alerts, nil))
		})
	}
}

func TestComputeFewWordsFew(t *testing.T) {
	t.Parallel()
	// 1% of words changed on a big page: the diffs are those words (the
	// line and word passes find them all) and no more.
	old := page(t, 3, 100_000)
	checkWordChanges(t, old, mutate(old, 4, 0.01))
}

// checkWordChanges diffs two texts of the same words, some replaced, and
// checks the diffs hold about the replaced words: each is reported removed
// and added, and a few neighbours may be swept in where changes are close.
func checkWordChanges(t *testing.T, old, new string) {
	t.Helper()
	diffs := Compute(old, new, nil)
	check(t, old, new, diffs)
	changed := 0
	ow, nw := strings.Fields(old), strings.Fields(new)
	for i := range ow {
		if ow[i] != nw[i] {
			changed++
		}
	}
	words := 0
	for _, d := range diffs {
		words += len(strings.Fields(d.Text))
	}
	if words < 2*changed || words > 3*changed {
		t.Errorf("%d words in diffs for %d changed words", words, changed)
	}
}

func TestComputeUnrelated(t *testing.T) {
	t.Parallel()
	// Two unrelated pages: one removal and one addition, not a confetti of
	// coincidental common words.
	old, new := page(t, 5, 60_000), page(t, 6, 60_000)
	c := newComputer(old, new, (*Options)(nil).withDefaults())
	diffs := c.diffs(c.run(), DefaultSnippetChars)
	check(t, old, new, diffs)
	if len(diffs) > 4 {
		t.Errorf("got %d diffs, want the page removed and added", len(diffs))
	}
	if c.degraded {
		t.Error("degraded")
	}
}

func TestComputeLinesOnly(t *testing.T) {
	t.Parallel()
	old, new := "one two\nthree four\n", "one two\nthree five\n"
	diffs := Compute(old, new, &Options{LinesOnly: true})
	check(t, old, new, diffs)
	want := []frag{{Removed, "three four\n"}, {Added, "three five\n"}}
	if got := frags(diffs); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestComputeTimeout(t *testing.T) {
	t.Parallel()
	old := page(t, 7, 50_000)
	new := mutate(old, 8, 0.05)
	var logs bytes.Buffer
	o := (&Options{Timeout: time.Nanosecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))}).withDefaults()
	c := newComputer(old, new, o)
	regs := c.run()
	if !c.degraded {
		t.Fatal("not degraded after the deadline")
	}
	check(t, old, new, c.diffs(regs, o.SnippetChars))

	diffs := Compute(old, new, &o)
	check(t, old, new, diffs)
	if !strings.Contains(logs.String(), "timeout") {
		t.Errorf("no warning logged: %q", logs.String())
	}
}

func TestComputeAlphabetFull(t *testing.T) {
	t.Parallel()
	words := func(prefix string, n int, change int) string {
		var b strings.Builder
		for i := range n {
			if i == change {
				b.WriteString("changed ")
				continue
			}
			fmt.Fprintf(&b, "%s%d ", prefix, i)
		}
		return b.String() + "\n"
	}
	same := "same\nsame\nsame\n"
	tests := []struct {
		name     string
		old, new string
		symbols  int
		degraded bool
		last     string // the last Removed text
	}{
		{"lines do not fit", "a\nb\nc\nd\n", "a\nc\nd\ne\n", 3, true, "b\nc\nd\n"},
		{
			"words of one block do not fit, the next block is still refined",
			words("w", 400, -1) + same + "one small line here\n",
			words("w", 400, 7) + same + "one small line there\n",
			300, true, "here",
		},
		{
			"words fit block by block",
			words("a", 200, -1) + same + words("b", 200, -1),
			words("a", 200, 3) + same + words("b", 200, 5),
			300, false, "b5",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newComputer(tt.old, tt.new, (*Options)(nil).withDefaults())
			c.maxSymbols = tt.symbols
			diffs := c.diffs(c.run(), DefaultSnippetChars)
			check(t, tt.old, tt.new, diffs)
			if c.degraded != tt.degraded {
				t.Errorf("degraded = %v, want %v", c.degraded, tt.degraded)
			}
			if n := len(diffs); n < 2 || diffs[n-2].Text != tt.last {
				t.Errorf("got %q, want the last removal %q", frags(diffs), tt.last)
			}
		})
	}
}

func TestTrimLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		old, new     string
		lo, hiA, hiB int
	}{
		{"a\nb\nc\n", "a\nX\nc\n", 2, 4, 4},
		{"a\nbc\n", "a\nc\n", 2, 5, 4},
		{"abc", "abcdef", 0, 3, 6},
		{"x\nab", "x\nb", 2, 4, 3},
		{"q\n", "p\nq\n", 0, 0, 2},
		{"p\nq\n", "q\n", 0, 2, 0},
		{"\n\n", "\n\n\n", 2, 2, 3},
	}
	for _, tt := range tests {
		lo, hiA, hiB := trimLines(tt.old, tt.new)
		if lo != tt.lo || hiA != tt.hiA || hiB != tt.hiB {
			t.Errorf("trimLines(%q, %q) = %d, %d, %d, want %d, %d, %d", tt.old, tt.new, lo, hiA, hiB, tt.lo, tt.hiA, tt.hiB)
		}
	}
}

func TestBlank(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{" ": true, "\r\n\t\u00a0": true, " a ": false, ".": false} {
		if got := (Diff{Text: text}).Blank(); got != want {
			t.Errorf("Blank(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestComputeKeepsUnchangedText(t *testing.T) {
	t.Parallel()
	// The clean-up must never report an unchanged line, or a phrase of more
	// than two words, as removed and added again: a keyword in it would
	// fire although nothing about it changed.
	tests := []struct {
		name, old, new, unchanged string
	}{
		{
			"line between two rewritten lines",
			"The mayor announced a new budget for schools today.\nThe council will vote on the plan next week.\nWeather: sunny in Lisbon\nSports results were delayed because of heavy rain.\nTickets remain available online for the final.\n",
			"Police closed the bridge after an accident this morning.\nTraffic is expected to remain heavy until noon.\nWeather: sunny in Lisbon\nThe museum opens a new exhibition on Greek gods.\nEntry is free for students every Sunday.\n",
			"Weather: sunny in Lisbon",
		},
		{
			"short line between rewritten lines",
			"alpha beta gamma delta\nLisbon\nepsilon zeta eta theta\n",
			"one two three four\nLisbon\nfive six seven eight\n",
			"Lisbon",
		},
		{
			"sentence between rewritten sentences",
			"Stocks fell sharply on Monday amid fears. Zeus larissaios temple reopened. Oil prices rose to record highs overnight.",
			"Bonds rallied strongly on Tuesday after data. Zeus larissaios temple reopened. Gold prices dropped to yearly lows yesterday.",
			"Zeus larissaios temple",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			diffs := Compute(tt.old, tt.new, nil)
			check(t, tt.old, tt.new, diffs)
			for _, d := range diffs {
				if strings.Contains(d.Text, tt.unchanged) {
					t.Errorf("%s %q reports the unchanged %q", d.Event, d.Text, tt.unchanged)
				}
			}
		})
	}
}

func TestComputeReorderedPage(t *testing.T) {
	t.Parallel()
	// Reversing the paragraphs of a big page costs Myers' algorithm time
	// quadratic in the page; anchoring on unique lines finds the alignment
	// in linear time, well before the deadline.
	old := page(t, 1, 200_000)
	new := reverseParagraphs(old)
	c := newComputer(old, new, (*Options)(nil).withDefaults())
	diffs := c.diffs(c.run(), DefaultSnippetChars)
	check(t, old, new, diffs)
	if c.degraded {
		t.Error("degraded: the alignment ran out of time")
	}
}

func TestComputeLateKeepsUnchangedLines(t *testing.T) {
	t.Parallel()
	// Past the deadline the result is coarser, but lines found once on each
	// side still anchor it: unchanged lines are not reported.
	old := page(t, 7, 50_000)
	new := mutate(old, 8, 0.01)
	o := (&Options{Timeout: time.Nanosecond}).withDefaults()
	c := newComputer(old, new, o)
	diffs := c.diffs(c.run(), o.SnippetChars)
	check(t, old, new, diffs)
	if !c.degraded {
		t.Fatal("not degraded after the deadline")
	}
	removed := 0
	for _, d := range diffs {
		if d.Event == Removed {
			removed += len(d.Text)
		}
	}
	if removed > len(old)/3 {
		t.Errorf("%d of %d bytes reported removed for 1%% of words changed", removed, len(old))
	}
}

func TestComputeOneLine(t *testing.T) {
	t.Parallel()
	// A page without line breaks goes through the segment pass: the diffs
	// are still the changed words, and the round trip holds.
	flat := strings.ReplaceAll(page(t, 3, 100_000), "\n", " ")
	for _, frac := range []float64{0.01, 0.1} {
		t.Run(fmt.Sprint(frac), func(t *testing.T) {
			t.Parallel()
			checkWordChanges(t, flat, mutate(flat, 4, frac))
		})
	}
}

func TestSegmentBounds(t *testing.T) {
	t.Parallel()
	text := strings.ReplaceAll(page(t, 2, 20_000), "\n", " ")
	bounds := segmentBounds(text, 0, len(text))
	if len(bounds) < len(text)/2000 {
		t.Fatalf("%d segments in %d bytes", len(bounds)-1, len(text))
	}
	for k, b := range bounds {
		if inWord(text, b) {
			t.Fatalf("bound %d at %d cuts a word", k, b)
		}
		if k > 0 && len(strings.Fields(text[bounds[k-1]:b])) > segmentMaxWords {
			t.Fatalf("segment %d has more than %d words", k, segmentMaxWords)
		}
	}
	// The cuts depend on the text around them only: after a word inserted
	// at the start, all but the first few cuts are the same.
	const ins = "inserted "
	moved := segmentBounds(ins+text, 0, len(ins)+len(text))
	same := make(map[int]bool, len(bounds))
	for _, b := range bounds {
		same[b+len(ins)] = true
	}
	kept := 0
	for _, b := range moved {
		if same[b] {
			kept++
		}
	}
	if kept < len(bounds)-4 {
		t.Errorf("%d of %d cuts kept after an insertion", kept, len(bounds))
	}
}
