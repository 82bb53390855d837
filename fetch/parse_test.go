package fetch_test

import (
	"errors"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/vokter-go/vokter/fetch"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, time.March, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"120", 2 * time.Minute, true},
		{"0", 0, true},
		{" 7 ", 7 * time.Second, true},
		{"00030", 30 * time.Second, true},
		{"99999999999999999999999", time.Duration(math.MaxInt64), true},
		{"Sat, 01 Mar 2025 12:01:30 GMT", 90 * time.Second, true},
		{"Saturday, 01-Mar-25 13:00:00 GMT", time.Hour, true},
		{"Sat Mar  1 12:00:10 2025", 10 * time.Second, true},
		{"Sat, 01 Mar 2025 11:00:00 GMT", 0, true},
		{"", 0, false},
		{"   ", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"+3", 0, false},
		{"soon", 0, false},
		{"2025-03-01T12:01:00Z", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			t.Parallel()
			got, ok := fetch.ParseRetryAfter(tt.value, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
	if got, _ := fetch.ParseRetryAfter(now.Add(time.Minute).Format(http.TimeFormat), now); got != time.Minute {
		t.Errorf("http.TimeFormat date a minute ahead = %v, want 1m", got)
	}
}

func TestParseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string // want "" means ErrInvalidURL
	}{
		{"http://example.com", "http://example.com"},
		{"HTTPS://Example.com/a?b=c#frag", "https://Example.com/a?b=c"},
		{"http://user:pw@example.com:8080/p", "http://user:pw@example.com:8080/p"},
		{"http://[2001:db8::1]/", "http://[2001:db8::1]/"},
		{"https://alerts.weather.gov/cap/us.php?x=0", "https://alerts.weather.gov/cap/us.php?x=0"},
		{"", ""},
		{"/relative", ""},
		{"ftp://example.com/", ""},
		{"http://", ""},
		{"http:///p", ""},
		{"http://:80", ""},
		{"http:opaque", ""},
		{"%", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			u, err := fetch.ParseURL(tt.in)
			if tt.want == "" {
				if !errors.Is(err, fetch.ErrInvalidURL) {
					t.Errorf("ParseURL(%q) = %v, %v; want ErrInvalidURL", tt.in, u, err)
				}
				return
			}
			if err != nil || u.String() != tt.want {
				t.Errorf("ParseURL(%q) = %v, %v; want %s", tt.in, u, err, tt.want)
			}
		})
	}
}
