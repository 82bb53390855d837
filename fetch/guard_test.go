package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"testing"
)

func TestBlockedAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr    string
		blocked bool
	}{
		{"127.0.0.1", true},
		{"127.8.9.10", true},
		{"10.1.2.3", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.168.1.1", true},
		{"169.254.169.254", true}, // cloud metadata
		{"0.0.0.0", true},
		{"0.1.2.3", true},
		{"100.64.0.1", true},
		{"100.127.255.255", true},
		{"192.0.0.8", true},
		{"198.18.0.1", true},
		{"224.0.0.1", true},
		{"255.255.255.255", true},
		{"::1", true},
		{"::", true},
		{"fe80::1", true},
		{"fd12:3456::1", true},
		{"ff02::1", true},
		{"::ffff:127.0.0.1", true},
		{"::ffff:10.0.0.1", true},
		{"64:ff9b::a00:1", true}, // NAT64 of 10.0.0.1
		{"8.8.8.8", false},
		{"93.184.216.34", false},
		{"100.128.0.1", false},
		{"172.32.0.1", false},
		{"198.20.0.1", false},
		{"2606:4700:4700::1111", false},
		{"64:ff9b::808:808", false}, // NAT64 of 8.8.8.8
		{"::ffff:8.8.8.8", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			t.Parallel()
			if got := blockedAddr(netip.MustParseAddr(tt.addr)); got != tt.blocked {
				t.Errorf("blockedAddr(%s) = %v, want %v", tt.addr, got, tt.blocked)
			}
		})
	}
}

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		hostport string
		blocked  bool
	}{
		{"8.8.8.8:443", false},
		{"[2606:4700:4700::1111]:80", false},
		{"127.0.0.1:80", true},
		{"[fe80::1%eth0]:80", true},
		{"example.com:80", true}, // not an address: fail closed
		{"", true},
	}
	for _, tt := range tests {
		t.Run(tt.hostport, func(t *testing.T) {
			t.Parallel()
			err := checkAddr(tt.hostport)
			if got := errors.Is(err, ErrBlocked); got != tt.blocked {
				t.Errorf("checkAddr(%q) = %v, want blocked %v", tt.hostport, err, tt.blocked)
			}
		})
	}
}

func TestGuardTransport(t *testing.T) {
	t.Parallel()
	t.Run("deprecated dial refused", func(t *testing.T) {
		t.Parallel()
		tr := &http.Transport{}
		//lint:ignore SA1019 the test checks that the deprecated hook is refused
		tr.Dial = net.Dial
		if _, err := guardTransport(tr); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("err = %v, want ErrInvalidConfig", err)
		}
	})
	t.Run("original untouched", func(t *testing.T) {
		t.Parallel()
		dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}
		tr := &http.Transport{Proxy: http.ProxyFromEnvironment, DialContext: dial, DialTLSContext: dial}
		g, err := guardTransport(tr)
		if err != nil {
			t.Fatal(err)
		}
		if g == tr || g.Proxy != nil || tr.Proxy == nil {
			t.Error("guardTransport must return a proxy-free clone and leave the original alone")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		if _, err := g.DialTLSContext(context.Background(), "tcp", ln.Addr().String()); !errors.Is(err, ErrBlocked) {
			t.Errorf("guarded DialTLSContext to loopback: err = %v, want ErrBlocked", err)
		}
	})
}
