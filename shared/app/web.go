package app

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/oidc"
	"github.com/edu-invite/invite/shared/web"
)

// webSettings are the pages' environment:
//
//	OIDC_CLIENT_ID            the pages' client at the issuer (OIDC_ISSUER); unset: no browser sign-in
//	OIDC_CLIENT_SECRET        its secret's reference: "env:VAR" or "secretsmanager:name[#key]"
//	                          (default secretsmanager:<OIDC_CLIENT_SECRET_ARN>)
//	SESSION_IDLE_TIMEOUT      how long an unused session lives (Go duration, default 8h)
//	SESSION_MAX_LIFETIME      how long a session lives after its sign-in, used or not (default 12h)
//	DISCLAIMER                the text GET /api/v1/disclaimer answers (default none)
type webSettings struct {
	ClientID, ClientSecretRef string
	IdleTimeout, MaxLifetime  time.Duration
	Disclaimer                string
}

func webSettingsFromEnv() (webSettings, error) {
	s := webSettings{ClientID: os.Getenv("OIDC_CLIENT_ID"), ClientSecretRef: os.Getenv("OIDC_CLIENT_SECRET"),
		Disclaimer: strings.TrimSpace(os.Getenv("DISCLAIMER"))}
	if len(s.Disclaimer) > 4000 {
		return s, fmt.Errorf("DISCLAIMER must be at most 4000 bytes")
	}
	if s.ClientSecretRef == "" && os.Getenv("OIDC_CLIENT_SECRET_ARN") != "" {
		s.ClientSecretRef = "secretsmanager:" + os.Getenv("OIDC_CLIENT_SECRET_ARN")
	}
	if v := os.Getenv("SESSION_IDLE_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			return s, fmt.Errorf("SESSION_IDLE_TIMEOUT must be a duration of at least 1m (like 8h), not %q", v)
		}
		s.IdleTimeout = d
	}
	if v := os.Getenv("SESSION_MAX_LIFETIME"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute {
			return s, fmt.Errorf("SESSION_MAX_LIFETIME must be a duration of at least 1m (like 12h), not %q", v)
		}
		s.MaxLifetime = d
	}
	return s, nil
}

// newPages wires the pages on the app's service and authenticator: the
// same principal and rules as the API.
func (a *App) newPages(ctx context.Context, resolver secretResolver) (*web.Pages, error) {
	ws, err := webSettingsFromEnv()
	if err != nil {
		return nil, err
	}
	cfg := web.Config{Service: a.Service, Authenticator: a.API.Authenticator, Sessions: a.Store, BaseURL: a.Settings.PublicBaseURL,
		IdleTimeout: ws.IdleTimeout, MaxLifetime: ws.MaxLifetime, Disclaimer: ws.Disclaimer, Clock: a.Service.Clock, Logger: a.Logger, Origin: a.API.Origin}
	if ws.ClientID != "" && a.Settings.OIDCIssuer != "" {
		if ws.ClientSecretRef == "" {
			return nil, fmt.Errorf("OIDC_CLIENT_ID is set but OIDC_CLIENT_SECRET (a secret reference) is not")
		}
		ref := ws.ClientSecretRef
		callback := strings.TrimRight(a.Settings.PublicBaseURL, "/") + "/login/callback"
		identity, err := identitySettingsFromEnv()
		if err != nil {
			return nil, err
		}
		if ws.ClientID == a.Settings.OIDCAudience {
			a.Logger.Warn("OIDC_AUDIENCE equals OIDC_CLIENT_ID: give the API an audience of its own, so that only access tokens meant for it are accepted")
		}
		rp, err := oidc.NewRelyingPartyWithOptions(ctx, a.Settings.OIDCIssuer, ws.ClientID, callback,
			func(ctx context.Context) (string, error) { return resolver.Resolve(ctx, ref) },
			oidc.RelyingPartyOptions{Scopes: identity.Scopes, Claims: identity.Claims})
		if err != nil {
			return nil, err
		}
		cfg.SignIn = signIn{rp: rp, logger: a.Logger}
		checkProvider(a.Logger, "browser sign-in", rp.Check)
	} else {
		a.Logger.Warn("browser sign-in is off: OIDC_CLIENT_ID or OIDC_ISSUER is not set")
	}
	return web.New(cfg)
}
