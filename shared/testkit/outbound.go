package testkit

import (
	"context"
	"net"
	"net/netip"

	"github.com/edu-invite/invite/shared/outbound"
)

// LoopbackPolicy is the address policy of tests whose SPs listen on
// 127.0.0.1 over http, as the local stack's allow-list is. Its resolver
// asks no DNS server: an IP address is itself, every name is unknown (the
// tests' example.org hosts are never called).
func LoopbackPolicy() outbound.Policy {
	return outbound.Policy{AllowHTTP: true, Resolver: OfflineResolver{},
		Allowed: outbound.Allowlist{Prefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}}
}

// OfflineResolver resolves IP addresses only.
type OfflineResolver struct{}

// LookupNetIP implements outbound.Resolver.
func (OfflineResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	return nil, &net.DNSError{Err: "no such host (offline test resolver)", Name: host, IsNotFound: true}
}
