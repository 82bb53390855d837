package index

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func texts(toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

func TestTokenize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", []string{}},
		{"separators only", " \t\n.,;!? — «»", []string{}},
		{"english", "The river rose; 12 houses flooded.", []string{"The", "river", "rose", "12", "houses", "flooded"}},
		{"apostrophes inside words", "Don't stop, o'clock: rock'n'roll", []string{"Don't", "stop", "o'clock", "rock'n'roll"}},
		{"apostrophes at edges", "'quoted' 'tis the dogs' bones", []string{"quoted", "tis", "the", "dogs", "bones"}},
		{"typographic apostrophe", "don’t l’eau", []string{"don’t", "l’eau"}},
		{"hyphens split", "state-of-the-art well‐known", []string{"state", "of", "the", "art", "well", "known"}},
		{"numbers", "3.14 1,000 2024-05-01", []string{"3", "14", "1", "000", "2024", "05", "01"}},
		{"accented precomposed", "café naïve Ærø", []string{"café", "naïve", "Ærø"}},
		{"combining accent stays", "cafe\u0301 ok", []string{"cafe\u0301", "ok"}},
		{"leading combining mark is no word", "\u0301abc", []string{"abc"}},
		{"greek", "Η Αθήνα είναι η πρωτεύουσα.", []string{"Η", "Αθήνα", "είναι", "η", "πρωτεύουσα"}},
		{"russian", "Ночью река вышла из берегов.", []string{"Ночью", "река", "вышла", "из", "берегов"}},
		{"japanese one per character", "東京は雨。", []string{"東", "京", "は", "雨"}},
		{"katakana with long mark", "ボランティア・ルール", []string{"ボ", "ラ", "ン", "テ", "ィ", "ア", "ル", "ー", "ル"}},
		{"kana with combining dakuten", "か\u3099き", []string{"か\u3099", "き"}},
		{"cjk next to latin", "Go言語2", []string{"Go", "言", "語", "2"}},
		{"korean words", "자원봉사자들은 오래된 다리", []string{"자원봉사자들은", "오래된", "다리"}},
		{"devanagari marks", "नदी का जलस्तर", []string{"नदी", "का", "जलस्तर"}},
		{"thai run is one token", "น้ำท่วม เมือง", []string{"น้ำท่วม", "เมือง"}},
		{"persian zwnj", "می\u200cخواهم", []string{"می\u200cخواهم"}},
		{"trailing zwnj", "ab\u200c cd", []string{"ab", "cd"}},
		{"invalid utf-8 separates", "ab\xffcd\xc3", []string{"ab", "cd"}},
		{"replacement char separates", "ab\uFFFDcd", []string{"ab", "cd"}},
		{"apostrophe before cjk", "a'東", []string{"a", "東"}},
		{"arabic digits", "عام ٢٠٢٤", []string{"عام", "٢٠٢٤"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			toks := Tokenize(tt.text)
			checkTokens(t, tt.text, toks)
			if got := texts(toks); !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestTokenizeOffsetsMultibyte(t *testing.T) {
	t.Parallel()
	text := "Ωμέγα: 日本 — naïve"
	toks := Tokenize(text)
	want := []Token{
		{Text: "Ωμέγα", Start: 0, End: 10, Pos: 0},
		{Text: "日", Start: 12, End: 15, Pos: 1},
		{Text: "本", Start: 15, End: 18, Pos: 2},
		{Text: "naïve", Start: 23, End: 29, Pos: 3},
	}
	if !slices.Equal(toks, want) {
		t.Errorf("Tokenize(%q) = %+v, want %+v", text, toks, want)
	}
}

func TestTokenizeSamples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "lang", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("samples: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			text := readFile(t, filepath.Join("lang", name))
			toks := Tokenize(text)
			if len(toks) < 3 { // Thai, written without spaces, has one token per phrase
				t.Errorf("only %d tokens", len(toks))
			}
			checkTokens(t, text, toks)
		})
	}
}

func TestTokenizeProperties(t *testing.T) {
	t.Parallel()
	// Splice samples of every script, with and without invalid bytes, and
	// check the invariants on every prefix: cutting a text anywhere must not
	// break them.
	var b strings.Builder
	for _, code := range []string{"en", "el", "ru", "ja", "hi", "th", "ar", "ko"} {
		b.WriteString(readFile(t, filepath.Join("lang", code+".txt"))[:60])
		b.WriteString("\xff'’-\u200d")
	}
	text := b.String()
	for n := 0; n <= len(text); n++ {
		checkTokens(t, text[:n], Tokenize(text[:n]))
	}
}

func TestAppendTokensReusesBuffer(t *testing.T) {
	t.Parallel()
	buf := make([]Token, 0, 16)
	buf = AppendTokens(buf, "one two")
	buf = AppendTokens(buf[:0], "three four five")
	if got := texts(buf); !slices.Equal(got, []string{"three", "four", "five"}) || buf[0].Pos != 0 {
		t.Errorf("AppendTokens = %+v", buf)
	}
	prefix := []Token{{Text: "x"}}
	if got := AppendTokens(prefix, "y"); len(got) != 2 || got[0].Text != "x" || got[1].Pos != 0 {
		t.Errorf("AppendTokens kept no prefix: %+v", got)
	}
}

func TestTokensIteratorStops(t *testing.T) {
	t.Parallel()
	var got []string
	for tok := range Tokens("a b c d") {
		got = append(got, tok.Text)
		if len(got) == 2 {
			break
		}
	}
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("got %q", got)
	}
}
