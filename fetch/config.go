package fetch

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// Defaults applied by [New] to zero fields of [Config].
const (
	// DefaultTimeout bounds one whole request, body included.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxBytes is the largest body accepted (10 MiB, after decompression).
	DefaultMaxBytes = 10 << 20
	// DefaultMaxRedirects is the longest redirect chain followed.
	DefaultMaxRedirects = 10
	// DefaultPerHostConcurrency is the number of requests in flight per host.
	DefaultPerHostConcurrency = 2
	// DefaultUserAgent is sent when Config.UserAgent is empty.
	DefaultUserAgent = "vokter/1 (+https://github.com/vokter-go/vokter)"
	// DefaultMaxRetryAfter caps how long a host's Retry-After is honoured.
	DefaultMaxRetryAfter = time.Hour
)

// maxURLLength bounds the URLs accepted by [ParseURL]; far above what
// servers accept (commonly 8 KiB) so that no real URL is refused.
const maxURLLength = 16 << 10

// Clock tells the time. [Config.Clock] lets tests move time for Retry-After
// windows without sleeping.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Config configures a [Fetcher]. The zero value is usable: every zero field
// takes the default its comment names.
type Config struct {
	// Client is the base client; its Transport (and Jar) are used. It is
	// copied, never modified: the copy gets its own CheckRedirect, and its
	// Timeout is cleared because Timeout below bounds each request. With
	// BlockPrivate its Transport must be an *http.Transport (it is cloned).
	// Defaults to a client with a Transport tuned for many hosts.
	Client *http.Client

	// Timeout bounds one request, from sending it to the end of the body,
	// so a server that trickles its body cannot hold a Get. Waiting for a
	// per-host slot is bounded by the caller's context instead.
	// Defaults to DefaultTimeout.
	Timeout time.Duration

	// MaxBytes is the largest body accepted, counted after transparent gzip
	// decompression; a larger one fails with ErrTooLarge.
	// Defaults to DefaultMaxBytes.
	MaxBytes int64

	// MaxRedirects is the longest redirect chain followed; a longer one (or a
	// loop) fails with ErrTooManyRedirects. A negative value follows none:
	// any redirect fails with ErrTooManyRedirects and FetchError.StatusCode
	// set to its 3xx. Defaults to DefaultMaxRedirects.
	MaxRedirects int

	// UserAgent is sent with every request. Defaults to DefaultUserAgent.
	UserAgent string

	// PerHostConcurrency is the number of requests in flight to one host
	// (host name, and port when not the scheme's default). Redirect hops
	// count against the host they go to. Defaults to
	// DefaultPerHostConcurrency.
	PerHostConcurrency int

	// PerHostInterval is the minimum time between the starts of two requests
	// to one host. Defaults to 0 (no spacing).
	PerHostInterval time.Duration

	// MaxRetryAfter caps the window a Retry-After header can close a host
	// for. Defaults to DefaultMaxRetryAfter.
	MaxRetryAfter time.Duration

	// BlockPrivate refuses connections to loopback, private, link-local,
	// unspecified, shared (100.64/10) and multicast addresses with
	// ErrBlocked. The check runs at dial time on the resolved address, so DNS
	// rebinding cannot bypass it, and proxies are disabled (a proxy would
	// resolve names out of sight).
	BlockPrivate bool

	// Clock tells the time for Retry-After windows and Response.FetchedAt.
	// Defaults to the system clock.
	Clock Clock

	// Logger receives debug records of each fetch. nil discards them.
	Logger *slog.Logger
}

// withDefaults returns a copy of c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxBytes == 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.PerHostConcurrency == 0 {
		c.PerHostConcurrency = DefaultPerHostConcurrency
	}
	if c.MaxRetryAfter == 0 {
		c.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if c.Clock == nil {
		c.Clock = systemClock{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// validate reports the first field of c that cannot be used.
func (c Config) validate() error {
	negative := []struct {
		name string
		bad  bool
	}{
		{"Timeout", c.Timeout < 0},
		{"MaxBytes", c.MaxBytes < 0},
		{"PerHostConcurrency", c.PerHostConcurrency < 0},
		{"PerHostInterval", c.PerHostInterval < 0},
		{"MaxRetryAfter", c.MaxRetryAfter < 0},
	}
	for _, f := range negative {
		if f.bad {
			return fmt.Errorf("%w: %s must not be negative", ErrInvalidConfig, f.name)
		}
	}
	if strings.ContainsAny(c.UserAgent, "\r\n\x00") {
		return fmt.Errorf("%w: UserAgent contains a control character", ErrInvalidConfig)
	}
	return nil
}
