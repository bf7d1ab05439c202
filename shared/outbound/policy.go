// Package outbound decides which addresses the service may call on behalf
// of the people who configure SCIM connections. Institution admins choose
// a connection's base URL and token URL; without a check they could make
// the service call its own network (the cloud metadata endpoint, a VPC
// database, the loopback interface) and read the answer. So every address
// is checked twice: when a connection is configured (a clear refusal) and
// again when a connection is opened, against the address the name resolved
// to then (so that a name that resolves to a public address at
// configuration and to an internal one later still cannot pass).
package outbound

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// Policy says which addresses may be called. The zero value refuses every
// internal address and plain http, and checks host names at connect time
// only.
type Policy struct {
	// Allowed opens internal addresses an operator trusts (an SP inside
	// the institution's network, the local stack's sample SP).
	Allowed Allowlist
	// AllowHTTP is the development switch: plain http outside it is
	// refused, since credentials and personal data would cross the
	// network unencrypted.
	AllowHTTP bool
	// Resolver looks host names up, when a connection is configured (so
	// that a name of an internal address is refused at once) and when one
	// is opened. nil: names are looked up by the system's resolver when a
	// connection is opened, and not when one is configured.
	Resolver Resolver
}

// Resolver is the part of *net.Resolver the policy uses.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// RefusedError is an address the policy does not let the service call. Its
// message says why in plain words and never what answers there.
type RefusedError struct {
	Reason string
}

func (e *RefusedError) Error() string { return e.Reason }

// IsRefused reports whether err (or one it wraps) is the policy's refusal.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// allowHint names the operator's way out in every refusal of an internal address.
const allowHint = "; an operator can allow an internal SP (" + EnvAllowedAddresses + ")"

// CheckURL checks a connection's address when it is configured: an
// absolute http(s) URL (https unless AllowHTTP), whose host is a name or
// an IP address in its usual form, not an internal address unless allowed.
func (p Policy) CheckURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return &RefusedError{"must be an absolute https URL"}
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !p.AllowHTTP {
			return &RefusedError{"must use https: credentials and personal data are never sent unencrypted"}
		}
	default:
		return &RefusedError{"must be an absolute https URL"}
	}
	host := canonicalHost(u.Hostname())
	if host == "" {
		return &RefusedError{"must name a host"}
	}
	if p.Allowed.host(host) {
		return nil
	}
	if strings.Contains(host, "%") {
		return &RefusedError{"must not name a network interface (a zone such as %eth0)"}
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		return p.checkAddr(addr)
	}
	if looksNumeric(host) {
		// 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 all mean 127.0.0.1
		// to some resolvers; only the usual dotted form is read as an address.
		return &RefusedError{"must write an IP address in its usual dotted form (such as 192.0.2.10)"}
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return &RefusedError{"points at this machine (localhost)" + allowHint}
	}
	if p.Resolver == nil {
		return nil
	}
	addrs, err := p.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		// Not resolving now is no danger: the connect-time check sees the
		// address the name has when the service calls it.
		return nil
	}
	for _, a := range addrs {
		if err := p.checkAddr(a); err != nil {
			return &RefusedError{"resolves to an internal address the service does not call" + allowHint}
		}
	}
	return nil
}

// CheckAddr checks one address the service is about to connect to.
func (p Policy) CheckAddr(addr netip.Addr) error { return p.checkAddr(addr) }

func (p Policy) checkAddr(addr netip.Addr) error {
	addr = addr.Unmap().WithZone("")
	if p.Allowed.addr(addr) {
		return nil
	}
	if internal(addr) {
		return &RefusedError{"points at an internal address the service does not call (loopback, private, link-local, shared or reserved)" + allowHint}
	}
	return nil
}

// canonicalHost is the host as compared and looked up: lower case, without
// a trailing dot or IPv6 brackets.
func canonicalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
}

// looksNumeric reports whether a host that is no IP address in its usual
// form would still be read as one by some resolver: its last label, which
// in a name is never numeric, is digits or hexadecimal with 0x.
func looksNumeric(host string) bool {
	last := host[strings.LastIndex(host, ".")+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		return true
	}
	return strings.Trim(last, "0123456789") == ""
}

// internalPrefixes are the ranges netip's predicates do not name: shared
// address space (CGNAT), "this network", protocol assignments, benchmarks,
// reserved and broadcast, and IPv6 forms that carry an IPv4 address
// inside (IPv4-compatible, NAT64, 6to4, Teredo) or are deprecated
// site-local, documentation or discard-only.
var internalPrefixes = mustPrefixes(
	"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15", "198.51.100.0/24",
	"203.0.113.0/24", "240.0.0.0/4", "255.255.255.255/32",
	"::/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2002::/16", "fec0::/10",
)

func mustPrefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}

// internal reports whether addr is one the service never calls unless an
// operator allows it.
func internal(addr netip.Addr) bool {
	if !addr.IsValid() || addr.IsLoopback() || addr.IsPrivate() || addr.IsUnspecified() || addr.IsMulticast() ||
		addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() || addr.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range internalPrefixes {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// hostPort splits a dial address; a bare host gets no port.
func hostPort(address string) (string, string) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return address, ""
	}
	return host, port
}

// errorf is a refusal with a formatted reason.
func errorf(format string, args ...any) error { return &RefusedError{fmt.Sprintf(format, args...)} }
