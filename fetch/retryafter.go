package fetch

import (
	"math"
	"net/http"
	"strings"
	"time"
)

// ParseRetryAfter parses the value of a Retry-After header (RFC 9110,
// section 10.2.3): either a number of seconds or an HTTP-date, read relative
// to now. It reports false when the value is neither. The delay is never
// negative: a date in the past gives 0. Huge second counts saturate instead
// of overflowing; callers cap the result to what they are willing to wait.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if isDigits(value) {
		return secondsToDuration(value), true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// secondsToDuration converts a string of ASCII digits to a duration of that
// many seconds, saturating at the largest duration.
func secondsToDuration(digits string) time.Duration {
	const maxSeconds = int64(math.MaxInt64 / time.Second)
	var n int64
	for i := range len(digits) {
		n = n*10 + int64(digits[i]-'0')
		if n > maxSeconds {
			return time.Duration(math.MaxInt64)
		}
	}
	return time.Duration(n) * time.Second
}
