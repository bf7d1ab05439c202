package web

import (
	"net/http"
	"strings"
)

// contentSecurityPolicy allows nothing inline and nothing from elsewhere,
// except images: data: URIs, which Pico's form controls use for their
// icons, and applications' logos, which the registry names by https
// address at the applications' own sites.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data: https:; base-uri 'none'; frame-ancestors 'none'"

// securityHeaders sets the headers of every answer. Pages are personal or
// carry an invitation secret in their address, so none may be stored;
// the embedded static files may be cached.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if strings.HasPrefix(r.URL.Path, "/static/") {
			h.Set("Cache-Control", "public, max-age=3600")
		} else {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
