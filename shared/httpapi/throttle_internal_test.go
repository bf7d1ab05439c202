package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestSourceAddress: behind the origin check the viewer's address
// CloudFront reports counts (the CloudFront function's header first);
// without it only the connection's address does, whatever headers say.
func TestSourceAddress(t *testing.T) {
	for _, c := range []struct {
		name, remote, viewerIP, viewer string
		trusted                        bool
		want                           string
	}{
		{"direct IPv4", "192.0.2.7:5123", "", "", false, "192.0.2.7"},
		{"direct IPv6", "[2001:db8::7]:5123", "", "", false, "2001:db8::7"},
		{"address without port", "192.0.2.8", "", "", false, "192.0.2.8"},
		{"forged headers, no origin check", "192.0.2.7:5123", "203.0.113.10", "203.0.113.9:50123", false, "192.0.2.7"},
		{"behind CloudFront, IPv4 viewer", "198.51.100.1:443", "", "203.0.113.9:50123", true, "203.0.113.9"},
		{"behind CloudFront, IPv6 viewer", "198.51.100.1:443", "", "2001:db8::9:50123", true, "2001:db8::9"},
		{"function's IPv4", "198.51.100.1:443", "203.0.113.10", "203.0.113.9:50123", true, "203.0.113.10"},
		{"function's IPv6", "198.51.100.1:443", "2001:db8::10", "", true, "2001:db8::10"},
		{"not an address", "198.51.100.1:443", "somewhere", "", true, "198.51.100.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
			r.RemoteAddr = c.remote
			if c.viewerIP != "" {
				r.Header.Set(viewerIPHeader, c.viewerIP)
			}
			if c.viewer != "" {
				r.Header.Set(viewerAddressHeader, c.viewer)
			}
			if got := sourceAddress(r, c.trusted); got != c.want {
				t.Fatalf("sourceAddress = %q, want %q", got, c.want)
			}
		})
	}
}
