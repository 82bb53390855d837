package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// newTransport returns the Transport used when Config.Client is nil: many
// hosts, few connections each, bounded headers. With blockPrivate its dialer
// checks every resolved address before connecting.
func newTransport(cfg Config) *http.Transport {
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	proxy := http.ProxyFromEnvironment
	if cfg.BlockPrivate {
		d.Control = controlBlocked
		proxy = nil
	}
	return &http.Transport{
		Proxy:                  proxy,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           512,
		MaxIdleConnsPerHost:    cfg.PerHostConcurrency,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: 1 << 20,
	}
}

// guardTransport returns a clone of t whose connections are checked by
// [blockedAddr]. A plain dialer checks the address before connecting; a
// custom DialContext or DialTLSContext is wrapped and its connection checked
// right after it is made. Proxies are dropped: they would resolve names
// where the check cannot see.
func guardTransport(t *http.Transport) (*http.Transport, error) {
	//lint:ignore SA1019 the deprecated hooks would bypass the check, so they are refused
	if t.Dial != nil || t.DialTLS != nil {
		return nil, fmt.Errorf("%w: BlockPrivate needs Transport.DialContext instead of the deprecated Dial or DialTLS", ErrInvalidConfig)
	}
	t = t.Clone()
	t.Proxy = nil
	t.OnProxyConnectResponse = nil
	if t.DialContext == nil {
		d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: controlBlocked}
		t.DialContext = d.DialContext
	} else {
		t.DialContext = checkConn(t.DialContext)
	}
	if t.DialTLSContext != nil {
		t.DialTLSContext = checkConn(t.DialTLSContext)
	}
	return t, nil
}

type dialFunc = func(ctx context.Context, network, addr string) (net.Conn, error)

// checkConn wraps dial so that connections to blocked addresses are closed
// and refused.
func checkConn(dial dialFunc) dialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if err := checkAddr(conn.RemoteAddr().String()); err != nil {
			conn.Close()
			return nil, &net.OpError{Op: "dial", Net: network, Addr: conn.RemoteAddr(), Err: err}
		}
		return conn, nil
	}
}

// controlBlocked is a [net.Dialer] Control hook: it runs after name
// resolution, on the very address about to be connected.
func controlBlocked(_, address string, _ syscall.RawConn) error {
	return checkAddr(address)
}

// checkAddr refuses a "host:port" whose host is not a public IP address.
// Anything unparsable is refused too: the check fails closed.
func checkAddr(hostport string) error {
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBlocked, err)
	}
	if blockedAddr(ap.Addr()) {
		return fmt.Errorf("%w: %s is not a public address", ErrBlocked, ap.Addr())
	}
	return nil
}

// blockedAddr reports whether a is an address a crawler of the public web
// has no business reaching: loopback, private (RFC 1918, fc00::/7),
// link-local, unspecified, multicast, shared (RFC 6598), reserved ranges, and
// IPv4 addresses hidden in IPv4-mapped or NAT64 (64:ff9b::/96) IPv6.
func blockedAddr(a netip.Addr) bool {
	a = a.Unmap()
	if a.Is6() {
		if b := a.As16(); [12]byte(b[:12]) == [12]byte{0x00, 0x64, 0xff, 0x9b} {
			a = netip.AddrFrom4([4]byte(b[12:]))
		}
	}
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() ||
		a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() {
		return true
	}
	if a.Is4() {
		b := a.As4()
		switch {
		case b[0] == 0: // "this network", 0.0.0.0/8
			return true
		case b[0] == 100 && b[1]&0xc0 == 64: // shared address space, 100.64.0.0/10
			return true
		case b[0] == 192 && b[1] == 0 && b[2] == 0: // IETF protocol assignments, 192.0.0.0/24
			return true
		case b[0] == 198 && b[1]&0xfe == 18: // benchmarking, 198.18.0.0/15
			return true
		case b[0] >= 240: // reserved and broadcast, 240.0.0.0/4
			return true
		}
	}
	return false
}
