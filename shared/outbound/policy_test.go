package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeResolver answers from a table; it never asks a DNS server.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr // successive answers per host; the last repeats
	calls   map[string]int
}

func (f *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	seq, ok := f.answers[host]
	if !ok {
		if a, err := netip.ParseAddr(host); err == nil {
			return []netip.Addr{a}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	i := min(f.calls[host], len(seq)-1)
	f.calls[host]++
	return seq[i], nil
}

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

func TestCheckURL(t *testing.T) {
	res := &fakeResolver{answers: map[string][][]netip.Addr{
		"sp.example.org":       {addrs("93.184.215.14")},
		"intranet.example.org": {addrs("10.1.2.3")},
		"mixed.example.org":    {addrs("93.184.215.14", "169.254.169.254")},
		"metadata.example.org": {addrs("::ffff:169.254.169.254")},
		"scim.campus.example":  {addrs("10.20.1.5")},
	}}
	allow, err := ParseAllowlist("127.0.0.1, 10.20.0.0/16 scim.campus.example")
	if err != nil {
		t.Fatal(err)
	}
	closed := Policy{Resolver: res}
	open := Policy{Resolver: res, Allowed: allow, AllowHTTP: true}
	tests := []struct {
		name   string
		policy Policy
		url    string
		want   string // part of the refusal; "" means allowed
	}{
		{"public name", closed, "https://sp.example.org/scim", ""},
		{"public address", closed, "https://93.184.215.14/scim", ""},
		{"unresolvable name (checked when dialled)", closed, "https://nowhere.example.org", ""},
		{"plain http", closed, "http://sp.example.org/scim", "https"},
		{"other scheme", closed, "ftp://sp.example.org", "https URL"},
		{"relative", closed, "/scim", "https URL"},
		{"loopback", closed, "https://127.0.0.1/scim", "internal"},
		{"loopback other", closed, "https://127.9.9.9:8443/scim", "internal"},
		{"metadata", closed, "https://169.254.169.254/latest/meta-data", "internal"},
		{"private 10", closed, "https://10.0.0.1", "internal"},
		{"private 172", closed, "https://172.16.5.4", "internal"},
		{"private 192", closed, "https://192.168.1.1", "internal"},
		{"cgnat", closed, "https://100.64.0.1", "internal"},
		{"multicast", closed, "https://224.0.0.1", "internal"},
		{"unspecified", closed, "https://0.0.0.0", "internal"},
		{"this network", closed, "https://0.1.2.3", "internal"},
		{"broadcast", closed, "https://255.255.255.255", "internal"},
		{"ipv6 loopback", closed, "https://[::1]/scim", "internal"},
		{"ipv6 unspecified", closed, "https://[::]/scim", "internal"},
		{"ipv4-mapped loopback", closed, "https://[::ffff:127.0.0.1]/scim", "internal"},
		{"ipv4-mapped metadata", closed, "https://[::ffff:a9fe:a9fe]/scim", "internal"},
		{"ipv4-compatible", closed, "https://[::10.0.0.1]/scim", "internal"},
		{"nat64 metadata", closed, "https://[64:ff9b::a9fe:a9fe]/scim", "internal"},
		{"6to4", closed, "https://[2002:a00:1::1]/scim", "internal"},
		{"ipv6 link-local", closed, "https://[fe80::1]/scim", "internal"},
		{"ipv6 zone", closed, "https://[fe80::1%25eth0]/scim", "interface"},
		{"ipv6 unique local", closed, "https://[fd00::1]/scim", "internal"},
		{"ipv6 multicast", closed, "https://[ff02::1]/scim", "internal"},
		{"decimal", closed, "https://2130706433/scim", "dotted"},
		{"hexadecimal", closed, "https://0x7f000001/scim", "dotted"},
		{"octal", closed, "https://0177.0.0.1/scim", "dotted"},
		{"short form", closed, "https://127.1/scim", "dotted"},
		{"localhost", closed, "https://localhost:8443/scim", "localhost"},
		{"localhost subdomain", closed, "https://sp.localhost/scim", "localhost"},
		{"localhost trailing dot", closed, "https://LOCALHOST./scim", "localhost"},
		{"name of a private address", closed, "https://intranet.example.org/scim", "resolves to an internal"},
		{"name with one internal address", closed, "https://mixed.example.org/scim", "resolves to an internal"},
		{"name of a mapped metadata address", closed, "https://metadata.example.org/scim", "resolves to an internal"},
		{"allowed address", open, "http://127.0.0.1:9000/scim", ""},
		{"allowed range", open, "https://10.20.9.9/scim", ""},
		{"outside the allowed range", open, "https://10.21.0.1/scim", "internal"},
		{"allowed host", open, "https://scim.campus.example/scim", ""},
		{"allowed address, mapped form", open, "https://[::ffff:127.0.0.1]/scim", ""},
		{"other loopback not allowed", open, "https://127.0.0.2/scim", "internal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.policy.CheckURL(context.Background(), tc.url)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !IsRefused(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a refusal about %q", err, tc.want)
			}
		})
	}
}

// recorder is a loopback HTTP server that counts what reaches it.
func recorder(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte("internal answer"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestDialChecksTheResolvedAddress(t *testing.T) {
	srv, hits := recorder(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	loopback, _ := ParseAllowlist("127.0.0.1")
	tests := []struct {
		name     string
		policy   Policy
		url      string
		wantHits int32
	}{
		{"loopback refused", Policy{AllowHTTP: true}, srv.URL, 0},
		{"loopback allowed", Policy{AllowHTTP: true, Allowed: loopback}, srv.URL, 1},
		{"mapped loopback refused", Policy{AllowHTTP: true, Resolver: &fakeResolver{answers: map[string][][]netip.Addr{
			"sp.example.org": {addrs("::ffff:127.0.0.1")}}}}, "http://sp.example.org:" + port, 0},
		{"allowed host name trusted whatever it resolves to", Policy{AllowHTTP: true, Allowed: Allowlist{Hosts: []string{"localhost"}}},
			"http://localhost:" + port, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			resp, err := tc.policy.Client(2 * time.Second).Get(tc.url)
			if resp != nil {
				resp.Body.Close()
			}
			if tc.wantHits == 0 && (err == nil || !IsRefused(err)) {
				t.Fatalf("err = %v, want the policy's refusal", err)
			}
			if tc.wantHits > 0 && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if got := hits.Load(); got != tc.wantHits {
				t.Fatalf("the listener received %d requests, want %d", got, tc.wantHits)
			}
		})
	}
}

// TestRebindingIsRefusedAtConnectTime: a name that resolves to a public
// address when the connection is configured and to loopback when it is
// called passes the first check and not the second.
func TestRebindingIsRefusedAtConnectTime(t *testing.T) {
	srv, hits := recorder(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	res := &fakeResolver{answers: map[string][][]netip.Addr{"sp.rebind.example": {addrs("93.184.215.14"), addrs("127.0.0.1")}}}
	p := Policy{AllowHTTP: true, Resolver: res}
	target := "http://sp.rebind.example:" + port + "/scim"
	if err := p.CheckURL(context.Background(), target); err != nil {
		t.Fatalf("at configuration the name was public: %v", err)
	}
	resp, err := p.Client(2 * time.Second).Get(target + "/Users")
	if resp != nil {
		resp.Body.Close()
	}
	if !IsRefused(err) {
		t.Fatalf("err = %v, want the connect-time refusal", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		t.Fatalf("err = %v, want a dial error", err)
	}
	if hits.Load() != 0 {
		t.Fatalf("the rebound listener received %d requests", hits.Load())
	}
}

func TestClientFollowsNoRedirect(t *testing.T) {
	srv, hits := recorder(t)
	redirect := httptest.NewServer(http.RedirectHandler(srv.URL+"/elsewhere", http.StatusTemporaryRedirect))
	defer redirect.Close()
	allow, _ := ParseAllowlist("127.0.0.1")
	resp, err := Policy{AllowHTTP: true, Allowed: allow}.Client(2*time.Second).Post(redirect.URL, "text/plain", strings.NewReader("client-secret"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || hits.Load() != 0 {
		t.Fatalf("status %d, %d requests at the redirect's target; want 307 and none", resp.StatusCode, hits.Load())
	}
}

func TestParseAllowlist(t *testing.T) {
	a, err := ParseAllowlist(" 127.0.0.1,::1 10.0.0.0/8\n192.168.5.7/16, SCIM.Campus.Example. ")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"127.0.0.1", "::1", "10.255.0.1", "192.168.200.1"} {
		if !a.addr(netip.MustParseAddr(in)) {
			t.Errorf("%s not allowed", in)
		}
	}
	if a.addr(netip.MustParseAddr("127.0.0.2")) || !a.host("scim.campus.example") {
		t.Errorf("allow-list %+v", a)
	}
	for _, bad := range []string{"2130706433", "10.0.0.0/33", "*.example.org", "http://x"} {
		if _, err := ParseAllowlist(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
