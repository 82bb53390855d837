// Package fetch performs one HTTP GET done right: timeouts, a size limit, a
// redirect limit, conditional requests, per-host concurrency and spacing,
// Retry-After, and a typed [*FetchError].
package fetch
