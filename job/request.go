package job

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vokter-go/vokter/fetch"
)

// Limits on requests, so one client cannot bloat the store.
const (
	MaxURLLength     = 4096
	MaxSessionLength = 1024
	MaxKeywords      = 100
	MaxKeywordLength = 512
)

// Request subscribes a session to a document's changes.
type Request struct {
	// DocumentURL is the absolute http or https URL to watch.
	DocumentURL string `json:"documentUrl"`
	// Session identifies the client.
	Session Session `json:"session"`
	// Keywords are single words, several words that must all occur in one
	// fragment in any order, or phrases in double quotes ("zeus
	// larissaios") that must occur exactly, word after word.
	Keywords []string `json:"keywords"`

	// Stemming matches words by their stem ("flood" matches "flooding").
	// Stemming folds case.
	Stemming bool `json:"stemming,omitempty"`
	// Stopwords ignores the document language's stop-words ("House of the
	// Gods" matches "gods house").
	Stopwords bool `json:"stopwords,omitempty"`
	// IgnoreCase folds case on both sides.
	IgnoreCase bool `json:"ignoreCase,omitempty"`
	// IgnoreAdded does not report keywords found in added text.
	IgnoreAdded bool `json:"ignoreAdded,omitempty"`
	// IgnoreRemoved does not report keywords found in removed text.
	IgnoreRemoved bool `json:"ignoreRemoved,omitempty"`

	// Interval between checks. Zero means Config.DefaultInterval; below
	// Config.MinInterval is an error. A document watched by several
	// sessions is checked at the shortest of their intervals.
	Interval time.Duration `json:"interval,omitempty"`
}

// keyword is a parsed request keyword.
type keyword struct {
	text   string // without the quotes of a phrase
	phrase bool
}

// checkURL validates a document URL: what fetch can get, within
// MaxURLLength, without surrounding spaces.
func checkURL(raw string) error {
	if len(raw) > MaxURLLength || strings.TrimSpace(raw) != raw {
		return fmt.Errorf("%w: %q", ErrInvalidDocumentURL, truncate(raw))
	}
	if _, err := fetch.ParseURL(raw); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidDocumentURL, err)
	}
	return nil
}

// normalizeURL validates a document URL and returns the form the manager
// keys it by: scheme and host in lower case, without a fragment (never sent
// to the server), so "HTTP://Example.com/#top" and "http://example.com/"
// share one cluster. The path and query are kept as given.
func normalizeURL(raw string) (string, error) {
	if err := checkURL(raw); err != nil {
		return "", err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidDocumentURL, err)
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

func checkSession(s Session) error {
	switch {
	case strings.TrimSpace(s.ID) == "":
		return fmt.Errorf("%w: empty session ID", ErrInvalidSession)
	case len(s.ID) > MaxSessionLength:
		return fmt.Errorf("%w: session ID longer than %d bytes", ErrInvalidSession, MaxSessionLength)
	case strings.IndexByte(s.ID, 0) >= 0 || !utf8.ValidString(s.ID):
		return fmt.Errorf("%w: session ID must be valid UTF-8 without NUL bytes", ErrInvalidSession)
	}
	return nil
}

// parseKeywords validates and parses a request's keywords.
func parseKeywords(raw []string) ([]keyword, error) {
	if len(raw) == 0 {
		return nil, ErrNoKeywords
	}
	if len(raw) > MaxKeywords {
		return nil, fmt.Errorf("%w: more than %d keywords", ErrNoKeywords, MaxKeywords)
	}
	kws := make([]keyword, 0, len(raw))
	for i, r := range raw {
		kw, err := parseKeyword(r)
		if err != nil {
			return nil, fmt.Errorf("%w: keyword %d: %v", ErrNoKeywords, i, err)
		}
		kws = append(kws, kw)
	}
	return kws, nil
}

func parseKeyword(raw string) (keyword, error) {
	if len(raw) > MaxKeywordLength {
		return keyword{}, fmt.Errorf("longer than %d bytes", MaxKeywordLength)
	}
	if !utf8.ValidString(raw) {
		return keyword{}, fmt.Errorf("invalid UTF-8")
	}
	text := strings.TrimSpace(raw)
	phrase := len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"'
	if phrase {
		text = strings.TrimSpace(text[1 : len(text)-1])
	}
	if strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return keyword{}, fmt.Errorf("%q has no word", raw)
	}
	return keyword{text: text, phrase: phrase}, nil
}

// validate checks r against cfg and returns it with its interval defaulted.
func (r Request) validate(cfg *Config) (Request, error) {
	var err error
	if r.DocumentURL, err = normalizeURL(r.DocumentURL); err != nil {
		return r, err
	}
	if err := checkSession(r.Session); err != nil {
		return r, err
	}
	if _, err := parseKeywords(r.Keywords); err != nil {
		return r, err
	}
	if r.IgnoreAdded && r.IgnoreRemoved {
		return r, ErrNoEvents
	}
	switch {
	case r.Interval == 0:
		r.Interval = cfg.DefaultInterval
	case r.Interval < 0 || r.Interval < cfg.MinInterval:
		return r, fmt.Errorf("%w: %v is below the minimum %v", ErrInvalidInterval, r.Interval, cfg.MinInterval)
	}
	r.Keywords = append([]string(nil), r.Keywords...)
	return r, nil
}

func truncate(s string) string {
	const n = 80
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
