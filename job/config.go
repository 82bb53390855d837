package job

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/vokter-go/vokter/fetch"
	"github.com/vokter-go/vokter/reader"
	"github.com/vokter-go/vokter/store"
)

// Defaults of Config.
const (
	DefaultMaxFailures         = 10
	DefaultMaxDeliveryFailures = 10
	DefaultInterval            = 10 * time.Minute
	DefaultMinInterval         = time.Minute
	DefaultSnippetChars        = 50
	DefaultCheckWorkers        = 16
	DefaultDeliveryWorkers     = 8
	DefaultDeliveryTimeout     = 30 * time.Second
	DefaultDeliveryBackoff     = 100 * time.Millisecond
	DefaultMaxDeliveryBackoff  = time.Minute
	DefaultStartJitter         = time.Minute
	DefaultLanguage            = "en"
)

// Clock tells the time. Tests inject their own.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Config configures a Manager. Only Store is required.
type Config struct {
	// Store holds subscriptions, clusters, snapshots and diffs. Required.
	// The manager does not close it.
	Store store.Store

	// Fetch configures the fetcher used for detection. Its zero value
	// gives fetch's defaults (10 MiB limit, 10 redirects, 30 s timeout...).
	Fetch fetch.Config
	// HTTPClient, when set, replaces Fetch.Client.
	HTTPClient *http.Client
	// Readers turns documents into text. Defaults to reader.NewRegistry().
	Readers *reader.Registry

	// Logger receives the manager's logs. Defaults to discarding them.
	Logger *slog.Logger
	// Clock stamps records and notifications. Defaults to the system
	// clock. The scheduler itself always runs on the system clock.
	Clock Clock

	// MaxFailures is the number of consecutive failed checks after which
	// a cluster expires and its subscribers get OnTimeout. Defaults to
	// DefaultMaxFailures.
	MaxFailures int
	// MaxDeliveryFailures is the number of consecutive failed handler calls
	// after which a subscription is cancelled. Defaults to
	// DefaultMaxDeliveryFailures.
	MaxDeliveryFailures int

	// DefaultInterval is used for requests without an Interval. Defaults
	// to DefaultInterval.
	DefaultInterval time.Duration
	// MinInterval is the smallest interval a request may ask for.
	// Defaults to DefaultMinInterval; tests set it low.
	MinInterval time.Duration

	// SnippetChars is the context, in characters each side, of a match's
	// snippet. Defaults to DefaultSnippetChars.
	SnippetChars int
	// Language is used for stemming and stop-words when a document's
	// language cannot be detected reliably. Defaults to DefaultLanguage.
	Language string

	// CheckWorkers bounds the checks that run at once. Defaults to
	// DefaultCheckWorkers.
	CheckWorkers int
	// DeliveryWorkers bounds the handler calls that run at once. Defaults
	// to DefaultDeliveryWorkers.
	DeliveryWorkers int
	// DeliveryTimeout bounds each handler call. Defaults to
	// DefaultDeliveryTimeout.
	DeliveryTimeout time.Duration
	// DeliveryBackoff is the wait before the first retry of a failed
	// handler call; it doubles with each retry up to MaxDeliveryBackoff.
	// Defaults to DefaultDeliveryBackoff.
	DeliveryBackoff time.Duration
	// MaxDeliveryBackoff caps the wait between retries. Defaults to
	// DefaultMaxDeliveryBackoff.
	MaxDeliveryBackoff time.Duration

	// StartJitter spreads the first checks of overdue clusters after Start
	// over up to this long (and never more than a cluster's interval), so
	// a restart does not fire every check at once. Defaults to
	// DefaultStartJitter; a negative value runs them all at once.
	StartJitter time.Duration
}

// withDefaults returns a copy of c with zero fields set to their defaults.
func (c Config) withDefaults() Config {
	if c.HTTPClient != nil {
		c.Fetch.Client = c.HTTPClient
	}
	if c.Readers == nil {
		c.Readers = reader.NewRegistry()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = systemClock{}
	}
	setDefault(&c.MaxFailures, DefaultMaxFailures)
	setDefault(&c.MaxDeliveryFailures, DefaultMaxDeliveryFailures)
	setDefault(&c.DefaultInterval, DefaultInterval)
	setDefault(&c.MinInterval, DefaultMinInterval)
	setDefault(&c.SnippetChars, DefaultSnippetChars)
	setDefault(&c.Language, DefaultLanguage)
	setDefault(&c.CheckWorkers, DefaultCheckWorkers)
	setDefault(&c.DeliveryWorkers, DefaultDeliveryWorkers)
	setDefault(&c.DeliveryTimeout, DefaultDeliveryTimeout)
	setDefault(&c.DeliveryBackoff, DefaultDeliveryBackoff)
	setDefault(&c.MaxDeliveryBackoff, DefaultMaxDeliveryBackoff)
	setDefault(&c.StartJitter, DefaultStartJitter)
	return c
}

func setDefault[T comparable](field *T, def T) {
	var zero T
	if *field == zero {
		*field = def
	}
}

// validate names every bad field of a defaulted Config.
func (c Config) validate() error {
	var errs []error
	if c.Store == nil {
		errs = append(errs, errors.New("the Store field is required"))
	}
	positive := []struct {
		name string
		bad  bool
	}{
		{"MaxFailures", c.MaxFailures < 0},
		{"MaxDeliveryFailures", c.MaxDeliveryFailures < 0},
		{"DefaultInterval", c.DefaultInterval < 0},
		{"MinInterval", c.MinInterval < 0},
		{"SnippetChars", c.SnippetChars < 0},
		{"CheckWorkers", c.CheckWorkers < 0},
		{"DeliveryWorkers", c.DeliveryWorkers < 0},
		{"DeliveryTimeout", c.DeliveryTimeout < 0},
		{"DeliveryBackoff", c.DeliveryBackoff < 0},
		{"MaxDeliveryBackoff", c.MaxDeliveryBackoff < 0},
	}
	for _, p := range positive {
		if p.bad {
			errs = append(errs, fmt.Errorf("the %s field must not be negative", p.name))
		}
	}
	if c.DefaultInterval < c.MinInterval {
		errs = append(errs, fmt.Errorf("the DefaultInterval field (%v) is below MinInterval (%v)", c.DefaultInterval, c.MinInterval))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("job: invalid config: %w", err)
	}
	return nil
}
