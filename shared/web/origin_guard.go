package web

import (
	"net/http"
	"strings"
)

// originGuard refuses, before the session is read, a request that reached
// API Gateway's execute-api address directly instead of through CloudFront
// and its WAF, when the origin secret is configured. The answer is a plain
// page pointing to the service's public address: no template, no session.
func (p *Pages) originGuard(next http.Handler) http.Handler {
	if p.cfg.Origin == nil {
		return next
	}
	return p.cfg.Origin.Guard(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusForbidden)
		msg := "Forbidden: this is not the service's public address."
		if base := strings.TrimRight(p.cfg.BaseURL, "/"); base != "" {
			msg += " Open " + base + "/ instead."
		}
		_, _ = w.Write([]byte(msg + "\n"))
	})(next)
}
