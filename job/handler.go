package job

import (
	"context"
	"time"
)

// Event says whether a match was found in added or in removed text.
type Event string

// The two events of a match.
const (
	Added   Event = "added"
	Removed Event = "removed"
)

// Session identifies the client that owns a subscription.
type Session struct {
	// ID identifies the client; unique per document URL.
	ID string `json:"id"`
	// Token is opaque data handed back with every notification, for
	// example a secret the client checks.
	Token string `json:"token,omitempty"`
}

// Match is one keyword found in one added or removed fragment.
type Match struct {
	// Event is Added or Removed.
	Event Event `json:"event"`
	// Keyword is the keyword exactly as given in the request.
	Keyword string `json:"keyword"`
	// Text is the exact text that matched, from the first to the last
	// matching word of the fragment.
	Text string `json:"text"`
	// Snippet is Text in context: about Config.SnippetChars characters each
	// side, cut at word boundaries, from the new document (Added) or the
	// previous one (Removed).
	Snippet string `json:"snippet"`
}

// Notification tells a client that its keywords were found in a change.
type Notification struct {
	DocumentURL string    `json:"documentUrl"`
	ContentType string    `json:"contentType"`
	Session     Session   `json:"session"`
	Matches     []Match   `json:"matches"`
	CheckedAt   time.Time `json:"checkedAt"`
}

// Timeout tells a client that its document failed to load
// Config.MaxFailures times in a row, so its subscription was removed.
type Timeout struct {
	DocumentURL string  `json:"documentUrl"`
	ContentType string  `json:"contentType"`
	Session     Session `json:"session"`
	// Failures is the number of consecutive failed checks.
	Failures int `json:"failures"`
	// LastError describes the last failure.
	LastError string `json:"lastError,omitempty"`
}

// Handler receives the results of the manager's jobs.
//
// Calls come from the manager's delivery pool (Config.DeliveryWorkers
// goroutines), never from the goroutine that fetched the document, and
// never while the manager holds a lock. Calls for different subscriptions
// may overlap; so may calls for one subscription when a failed delivery is
// being retried, so a handler must be safe for concurrent use.
//
// Each call gets a context that ends after Config.DeliveryTimeout. A
// returned error, or a panic (which is recovered), makes the manager retry
// the call with exponential backoff; after Config.MaxDeliveryFailures
// consecutive failures for one subscription, the subscription is cancelled.
type Handler interface {
	// OnNotification is called once per subscription per check that
	// found at least one of its keywords.
	OnNotification(ctx context.Context, n Notification) error
	// OnTimeout is called for every subscription of a document that
	// failed to load Config.MaxFailures times in a row, after which the
	// document's cluster and subscriptions are deleted.
	OnTimeout(ctx context.Context, t Timeout) error
}

// HandlerFuncs adapts ordinary functions to a [Handler]. A nil field
// ignores that kind of call.
type HandlerFuncs struct {
	Notification func(ctx context.Context, n Notification) error
	Timeout      func(ctx context.Context, t Timeout) error
}

// OnNotification calls h.Notification when it is set.
func (h HandlerFuncs) OnNotification(ctx context.Context, n Notification) error {
	if h.Notification == nil {
		return nil
	}
	return h.Notification(ctx, n)
}

// OnTimeout calls h.Timeout when it is set.
func (h HandlerFuncs) OnTimeout(ctx context.Context, t Timeout) error {
	if h.Timeout == nil {
		return nil
	}
	return h.Timeout(ctx, t)
}
