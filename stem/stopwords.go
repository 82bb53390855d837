package stem

import (
	"embed"
	"slices"
	"strings"
	"sync"
)

// lists holds one stop-word file per language, named by ISO 639-1 code.
//
//go:embed stopwords/*.txt
var lists embed.FS

// StopList is an immutable set of stop-words of one language, all lower
// case. A nil *StopList is an empty list: its methods are safe to call.
type StopList struct {
	words map[string]struct{}
}

// stopFiles maps each language code to the lazily parsed list of its file.
// Norwegian's three codes share one list, parsed once.
var stopFiles = func() map[string]func() *StopList {
	no := sync.OnceValue(func() *StopList { return parseStopFile("no") })
	m := map[string]func() *StopList{"nb": no, "nn": no, "no": no}
	for code := range algorithms {
		if _, ok := m[code]; !ok {
			m[code] = sync.OnceValue(func() *StopList { return parseStopFile(code) })
		}
	}
	return m
}()

// Stopwords returns the stop-word list of the language with ISO 639-1 code
// lang (matched like For: case-insensitive, region ignored), or nil for a
// language without one. Every language of Languages has a list. The list is
// parsed on first use and shared: it is immutable.
func Stopwords(lang string) *StopList {
	load, ok := stopFiles[baseLang(lang)]
	if !ok {
		return nil
	}
	return load()
}

// Contains reports whether word, already lower-cased, is a stop-word.
// Contractions are listed with the ASCII apostrophe U+0027 ("don't").
func (s *StopList) Contains(word string) bool {
	if s == nil {
		return false
	}
	_, ok := s.words[word]
	return ok
}

// Len returns the number of distinct stop-words in the list.
func (s *StopList) Len() int {
	if s == nil {
		return 0
	}
	return len(s.words)
}

// Words returns the stop-words, sorted. The slice is a copy.
func (s *StopList) Words() []string {
	if s == nil {
		return nil
	}
	words := make([]string, 0, len(s.words))
	for w := range s.words {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
}

// parseStopFile reads stopwords/<code>.txt in the Snowball format: one word
// at the start of each line, '|' starting a comment. The files are part of
// the binary and checked by the tests, so a missing one is a build defect.
func parseStopFile(code string) *StopList {
	data, err := lists.ReadFile("stopwords/" + code + ".txt")
	if err != nil {
		panic("stem: embedded stop-word list missing: " + err.Error())
	}
	s := parseStopList(string(data))
	if code == "ro" {
		// Snowball's Romanian list spells ş and ţ with a cedilla; modern
		// text uses the comma-below letters ș and ț. Accept both.
		comma := strings.NewReplacer("ş", "ș", "ţ", "ț")
		for _, w := range s.Words() {
			s.words[comma.Replace(w)] = struct{}{}
		}
	}
	return s
}

func parseStopList(data string) *StopList {
	s := &StopList{words: make(map[string]struct{}, strings.Count(data, "\n"))}
	for line := range strings.Lines(data) {
		if i := strings.IndexByte(line, '|'); i >= 0 {
			line = line[:i]
		}
		if f := strings.Fields(line); len(f) > 0 {
			s.words[strings.ToLower(f[0])] = struct{}{}
		}
	}
	return s
}
