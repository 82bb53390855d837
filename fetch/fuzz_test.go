package fetch_test

import (
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

// maxFuzzInput bounds fuzz inputs; real URLs and header values are far
// shorter, and ParseURL refuses anything past 16 KiB anyway.
const maxFuzzInput = 32 << 10

func FuzzParseURL(f *testing.F) {
	// Seed with the links of real feeds and with known bad shapes.
	links := regexp.MustCompile(`https?://[^"<>\s]+`)
	for _, name := range []string{"us_nws_weather.atom", "v1dot2_appendix_adot1.xml"} {
		for _, m := range links.FindAll(readTestdata(f, name), -1) {
			f.Add(string(m))
		}
	}
	for _, s := range []string{"", "/rel", "ftp://x/", "http://", "http://:80", "http:opaque", "http://[::1]:8080/a#b", "HTTP://A.B/%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > maxFuzzInput {
			t.Skip()
		}
		u, err := fetch.ParseURL(raw)
		if err != nil {
			if !errors.Is(err, fetch.ErrInvalidURL) || u != nil {
				t.Fatalf("ParseURL(%q) = %v, %v; want nil and ErrInvalidURL", raw, u, err)
			}
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Fragment != "" {
			t.Fatalf("ParseURL(%q) accepted %#v", raw, u)
		}
		// What it accepts, it accepts again unchanged.
		again, err := fetch.ParseURL(u.String())
		if err != nil {
			t.Fatalf("ParseURL(%q) accepted, but not its String %q: %v", raw, u, err)
		}
		if again.String() != u.String() {
			t.Fatalf("round trip of %q: %q then %q", raw, u, again)
		}
	})
}

func FuzzParseRetryAfter(f *testing.F) {
	now := time.Date(2025, time.March, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"120", "0", " 7 ", "99999999999999999999", "-1", "1.5", "soon", "",
		now.Add(time.Minute).Format(http.TimeFormat), now.Add(-time.Hour).Format(time.RFC850), now.Format(time.ANSIC)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		if len(value) > maxFuzzInput {
			t.Skip()
		}
		d, ok := fetch.ParseRetryAfter(value, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v", value, d, ok)
		}
		// A short run of digits is that many seconds exactly.
		if n, err := strconv.ParseUint(value, 10, 32); err == nil && len(value) < 10 {
			if !ok || d != time.Duration(n)*time.Second {
				t.Fatalf("ParseRetryAfter(%q) = %v, %v; want %ds", value, d, ok, n)
			}
		}
		// An HTTP-date gives the time until it.
		if when, err := http.ParseTime(value); err == nil {
			if want := max(when.Sub(now), 0); !ok || d != want {
				t.Fatalf("ParseRetryAfter(%q) = %v, %v; want %v", value, d, ok, want)
			}
		}
	})
}
