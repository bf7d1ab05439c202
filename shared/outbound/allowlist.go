package outbound

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
)

// Environment variables of the policy (read by shared/app).
const (
	// EnvAllowedAddresses lists what an operator opens: CIDRs
	// (10.20.0.0/16), single addresses (10.20.1.5) and host names
	// (scim.intranet.example.edu), separated by commas or spaces.
	EnvAllowedAddresses = "SCIM_ALLOWED_ADDRESSES"
	// EnvAllowHTTP set to "true" is the development switch for plain http.
	EnvAllowHTTP = "SCIM_ALLOW_HTTP"
)

// Allowlist is what an operator opened. A host name in it is trusted with
// whatever it resolves to: it is the operator's name, not an admin's.
type Allowlist struct {
	Prefixes []netip.Prefix
	Hosts    []string
}

// ParseAllowlist reads EnvAllowedAddresses' value.
func ParseAllowlist(s string) (Allowlist, error) {
	var a Allowlist
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if p, err := netip.ParsePrefix(item); err == nil {
			a.Prefixes = append(a.Prefixes, p.Masked())
			continue
		}
		if addr, err := netip.ParseAddr(item); err == nil && addr.Zone() == "" {
			addr = addr.Unmap()
			a.Prefixes = append(a.Prefixes, netip.PrefixFrom(addr, addr.BitLen()))
			continue
		}
		host := canonicalHost(item)
		if host == "" || strings.ContainsAny(host, "/:%@*") || looksNumeric(host) {
			return Allowlist{}, fmt.Errorf("%s: %q is not a CIDR, IP address or host name", EnvAllowedAddresses, item)
		}
		a.Hosts = append(a.Hosts, host)
	}
	return a, nil
}

func (a Allowlist) addr(addr netip.Addr) bool {
	for _, p := range a.Prefixes {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

func (a Allowlist) host(host string) bool { return slices.Contains(a.Hosts, canonicalHost(host)) }
