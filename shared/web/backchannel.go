package web

import (
	"net/http"
)

// backchannelLogout is OpenID Connect Back-Channel Logout 1.0: the provider
// posts a signed logout token when the person signs out there (or their
// account is blocked), and every session of that person here ends. The
// token is the request's only credential; no cookie is read, so the
// cross-origin check does not apply (Handler lets it through).
func (p *Pages) backchannelLogout(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if p.cfg.SignIn == nil {
		writeAPIJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "browser sign-in is not configured"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil || r.PostForm.Get("logout_token") == "" {
		p.cfg.Logger.WarnContext(r.Context(), "back-channel logout refused", "reason", "no logout_token")
		writeAPIJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "logout_token is required"})
		return
	}
	sub, err := p.cfg.SignIn.VerifyLogoutToken(r.Context(), r.PostForm.Get("logout_token"))
	if err != nil {
		p.cfg.Logger.WarnContext(r.Context(), "back-channel logout refused", "reason", err.Error())
		writeAPIJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "the logout token is not valid"})
		return
	}
	ended, err := p.cfg.Sessions.EndSessionsOfPerson(r.Context(), sub)
	if err != nil {
		p.cfg.Logger.ErrorContext(r.Context(), "back-channel logout failed", "error", err)
		writeAPIJSON(w, http.StatusInternalServerError, map[string]string{"error": "server_error"})
		return
	}
	p.cfg.Logger.InfoContext(r.Context(), "back-channel logout", "sessions", ended)
	w.WriteHeader(http.StatusOK)
}
