package outbound

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// DialContext connects to address after checking the address its host
// name resolves to, in the dialer's Control (the last step before the
// connection is made): a name that resolved to a public address when the
// connection was configured and resolves to an internal one now is refused
// all the same. Host names on the allow-list are dialled unchecked.
func (p Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	host, port := hostPort(address)
	if p.Allowed.host(host) {
		return d.DialContext(ctx, network, address)
	}
	d.Control = p.control
	if p.Resolver == nil {
		return d.DialContext(ctx, network, address)
	}
	addrs, err := p.Resolver.LookupNetIP(ctx, ipNetwork(network), host)
	if err != nil {
		return nil, err
	}
	err = &net.AddrError{Err: "no address", Addr: host}
	for _, a := range addrs {
		var c net.Conn
		if c, err = d.DialContext(ctx, network, net.JoinHostPort(a.String(), port)); err == nil {
			return c, nil
		}
	}
	return nil, err
}

func ipNetwork(network string) string {
	switch network {
	case "tcp4", "udp4":
		return "ip4"
	case "tcp6", "udp6":
		return "ip6"
	}
	return "ip"
}

// control is the net.Dialer Control check of one resolved address.
func (p Policy) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errorf("the service does not call this address")
	}
	return p.checkAddr(ap.Addr())
}

// Transport is an HTTP transport that connects through DialContext only:
// no proxy from the environment (it would be the address checked instead
// of the SP's).
func (p Policy) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = p.DialContext
	return t
}

// Client is an HTTP client over Transport that follows no redirect: a
// redirect would carry a request, and on 307/308 its body (a client
// secret), to an address nobody configured.
func (p Policy) Client(timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: p.Transport(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
