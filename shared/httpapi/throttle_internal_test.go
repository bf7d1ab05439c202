package httpapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestSourceAddressPrefersCloudFrontsViewer(t *testing.T) {
	cases := []struct {
		name, remote, viewer, want string
	}{
		{"direct IPv4", "192.0.2.7:5123", "", "192.0.2.7"},
		{"direct IPv6", "[2001:db8::7]:5123", "", "2001:db8::7"},
		{"behind CloudFront, IPv4 viewer", "198.51.100.1:443", "203.0.113.9:50123", "203.0.113.9"},
		{"behind CloudFront, IPv6 viewer", "198.51.100.1:443", "2001:db8::9:50123", "2001:db8::9"},
		{"address without port", "192.0.2.8", "", "192.0.2.8"},
	}
	// The address infra's CloudFront function writes wins over both.
	for _, c := range []struct{ name, remote, viewerIP, viewer, want string }{
		{"function's IPv4", "198.51.100.1:443", "203.0.113.10", "203.0.113.9:50123", "203.0.113.10"},
		{"function's IPv6", "198.51.100.1:443", "2001:db8::10", "", "2001:db8::10"},
		{"not an address", "198.51.100.1:443", "somewhere", "", "198.51.100.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
			r.RemoteAddr = c.remote
			r.Header.Set(viewerIPHeader, c.viewerIP)
			if c.viewer != "" {
				r.Header.Set(viewerAddressHeader, c.viewer)
			}
			if got := sourceAddress(r); got != c.want {
				t.Fatalf("sourceAddress = %q, want %q", got, c.want)
			}
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/me", nil)
			r.RemoteAddr = c.remote
			if c.viewer != "" {
				r.Header.Set(viewerAddressHeader, c.viewer)
			}
			if got := sourceAddress(r); got != c.want {
				t.Fatalf("sourceAddress = %q, want %q", got, c.want)
			}
		})
	}
}
