package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/middleware"
)

// The reference's session routes: its browser client calls them under
// /api/v1, but they need the browser session, so the pages serve them
// (routes.go; API Gateway sends exactly these paths to the web function).

// apiLogin is GET /api/v1/users/login?force=true&redirect_url=…: it starts
// the browser sign-in (a fresh one with force=true), or goes straight to
// the return address for a person already signed in. The return address is
// a path of this site, or an absolute address on the service's own origin;
// anything else returns home (no open redirect).
func (p *Pages) apiLogin(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	next := p.sameOriginPath(q.Get("redirect_url"))
	force := q.Get("force") == "true"
	if pr := visitOf(r).principal; pr != nil && pr.Person != nil && !force {
		http.Redirect(w, r, next, http.StatusFound)
		return
	}
	to := signInURL(next, "")
	if force {
		to += "&switch=1"
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// sameOriginPath is raw as a local path when it is one, or when it is an
// absolute address on BaseURL's origin; else "/".
func (p *Pages) sameOriginPath(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.IsAbs() {
		base, err := url.Parse(p.cfg.BaseURL)
		if err != nil || base.Host == "" || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) || u.User != nil {
			return "/"
		}
		u.Scheme, u.Host = "", ""
		return localPath(u.RequestURI())
	}
	return localPath(raw)
}

// apiLogout is GET /api/v1/users/logout: it ends the session as the page's
// logout does and answers JSON, with the issuer's logout address when it
// has one (a script client goes there next). A GET that changes state must
// not be triggerable by another site: a request the browser marks as
// coming from elsewhere is refused.
func (p *Pages) apiLogout(w http.ResponseWriter, r *http.Request) {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		writeAPIError(w, r, http.StatusForbidden, "UserRestrictionException", "logout from another site is refused")
		return
	}
	var idToken string
	if s := visitOf(r).session; s != nil {
		idToken = s.IDToken
	}
	p.endSession(w, r)
	body := map[string]string{"status": "ok"}
	if p.cfg.SignIn != nil {
		if to := p.cfg.SignIn.EndSessionURL(r.Context(), idToken, strings.TrimRight(p.cfg.BaseURL, "/")+"/"); to != "" {
			body["logoutUrl"] = to
		}
	}
	writeAPIJSON(w, http.StatusOK, body)
}

// csrfToken is the fixed token of GET /api/v1/csrf. The reference hands
// its client a per-session token to echo in a header; this service
// refuses state-changing requests from other origins instead (Go's
// CrossOriginProtection), so the token is not checked and not secret: a
// client that sends it does no harm, one that does not loses nothing.
const csrfToken = "not-needed-cross-origin-protection"

func (p *Pages) apiCSRF(w http.ResponseWriter, r *http.Request) {
	writeAPIJSON(w, http.StatusOK, map[string]string{"headerName": "X-CSRF-TOKEN", "parameterName": "_csrf", "token": csrfToken})
}

// errorReport bounds what a client's error report may be: its size, and
// which words of it reach the log.
const maxErrorReport = 16 << 10

var errorName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.]{0,59}$`)

// apiError is POST /api/v1/users/error: the reference's client reports
// its own failures here. A signed-in person's report is accepted (201)
// and logged without personal data: only the error's name when it is a
// plain identifier, the client page's path (no query: it may carry a
// link's secret) and the report's size, never the message or the person.
func (p *Pages) apiError(w http.ResponseWriter, r *http.Request) {
	if pr := visitOf(r).principal; pr == nil || pr.Person == nil {
		writeAPIError(w, r, http.StatusUnauthorized, "UserRestrictionException", "sign in first")
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxErrorReport+1))
	if err != nil || len(raw) > maxErrorReport {
		writeAPIError(w, r, http.StatusBadRequest, "InvalidInputException", "the error report must be JSON of at most 16 KiB")
		return
	}
	var report struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	}
	if len(raw) > 0 && (middleware.CheckJSONText(raw) != nil || json.Unmarshal(raw, &report) != nil) {
		writeAPIError(w, r, http.StatusBadRequest, "InvalidInputException", "the error report must be a JSON object")
		return
	}
	name := "other"
	if errorName.MatchString(report.Name) {
		name = report.Name
	}
	page := ""
	if u, err := url.Parse(report.URL); err == nil {
		page = localPath(u.EscapedPath())
	}
	p.cfg.Logger.WarnContext(r.Context(), "client error reported", "name", name, "page", page, "bytes", len(raw))
	writeAPIJSON(w, http.StatusCreated, map[string]string{"status": "ok"})
}

// apiDisclaimer is GET /api/v1/disclaimer: the configured disclaimer text
// (DISCLAIMER), "" when none is, for anybody.
func (p *Pages) apiDisclaimer(w http.ResponseWriter, r *http.Request) {
	writeAPIJSON(w, http.StatusOK, map[string]string{"disclaimer": p.cfg.Disclaimer})
}

func writeAPIJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeAPIError answers with the API's error body (the same fields as
// shared/httpapi's, which the pages do not import).
func writeAPIError(w http.ResponseWriter, r *http.Request, status int, exception, message string) {
	writeAPIJSON(w, status, map[string]any{"timestamp": time.Now().UnixMilli(), "status": status, "error": http.StatusText(status),
		"exception": exception, "message": message, "path": r.URL.Path})
}
