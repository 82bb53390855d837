// Package fetch performs one HTTP GET done right: timeouts, a size limit, a
// redirect limit, conditional requests, per-host concurrency and spacing,
// Retry-After, and a typed [*FetchError].
//
// A [Fetcher] is built once from a [Config] whose zero fields take the
// Default constants, and shared by every caller in the process, since the
// per-host limits live in it:
//
//	f, err := fetch.New(fetch.Config{PerHostInterval: time.Second, BlockPrivate: true})
//	...
//	resp, err := f.Get(ctx, "https://example.com/", prev)
//	switch {
//	case err != nil:
//		// *fetch.FetchError; errors.Is(err, fetch.ErrHTTPStatus), ...
//	case resp.NotModified:
//		// nothing changed since prev
//	default:
//		prev = resp.Validators // send them next time
//	}
//
// # What a Get does
//
//   - The URL must be absolute http or https with a host ([ParseURL]);
//     otherwise [ErrInvalidURL]. Redirect targets are held to the same rule,
//     and at most Config.MaxRedirects are followed ([ErrTooManyRedirects]);
//     a negative MaxRedirects follows none.
//   - The caller waits, bounded by its context, for one of the
//     Config.PerHostConcurrency slots of the host and for
//     Config.PerHostInterval since the previous start to that host. Each
//     redirect hop does the same for the host it goes to, after the previous
//     hop's slot was given back, bounded by Config.Timeout.
//   - Config.Timeout then bounds the request from sending to the last body
//     byte, so a server that trickles its body cannot hold a caller.
//   - The body is read whole, up to Config.MaxBytes after transparent gzip
//     decompression; more fails with [ErrTooLarge], never a truncated body. An
//     announced Content-Length over the limit fails before reading.
//   - A non-2xx status fails with [ErrHTTPStatus] and FetchError.StatusCode;
//     a 304 answering validators passed to Get is a Response with NotModified.
//   - A 429 or 503 with Retry-After (seconds or HTTP-date, capped at
//     Config.MaxRetryAfter) closes the host: until then Gets to it fail at
//     once with [ErrRetryLater] and FetchError.RetryAfter set to the time left,
//     without contacting the server. A redirect to a closed host fails the
//     same way.
//
// # Caveats
//
//   - Hosts are told apart by host name (case and a trailing dot ignored)
//     and port, a scheme's default port counting as none: http://h/ and
//     https://h/ share one host, while two names of one server, or one name
//     on two non-default ports, count as two hosts.
//   - A redirect hop waits for its host's slot and spacing under
//     Config.Timeout, so a busy redirect target can make a Get time out.
//   - Per-host state is kept only while a host is busy, spaced or closed by
//     Retry-After, so its memory follows the active hosts, not the history.
//   - Config.Client is copied: its CheckRedirect is replaced and its Timeout
//     ignored (Config.Timeout governs). With BlockPrivate its Transport is
//     cloned with proxies disabled, because a proxy would resolve names out of
//     the check's sight; a custom DialContext is checked after it connects.
//   - A 304 to a request without validators is not expected and fails with
//     [ErrHTTPStatus].
//   - Config.Clock drives Retry-After windows and FetchedAt only; spacing
//     waits on real timers.
package fetch
