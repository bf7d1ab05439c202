// Package web is the pages people use in a browser: the sign-in, the guest's
// acceptance page and "my access". It is a sibling of shared/httpapi: both
// call shared/service with the same principal (auth.Authenticator's
// PersonPrincipal) and neither imports the other. Pages are rendered on the
// server from templates parsed once at start-up; they work without
// JavaScript. All routes are in routes.go.
package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/middleware"
	"github.com/edu-invite/invite/shared/service"
)

// Sessions stores browser sessions (shared/dynamo implements it). Each
// method's errors: GetSession answers a domain not-found error for an
// unknown id; all return storage errors as they come.
type Sessions interface {
	PutSession(ctx context.Context, s domain.Session) error
	GetSession(ctx context.Context, idDigest string) (domain.Session, error)
	DeleteSession(ctx context.Context, idDigest string) error
	// EndSessionsOfPerson deletes every signed-in session of a subject.
	EndSessionsOfPerson(ctx context.Context, sub string) (int, error)
}

// SignIn is the OpenID Connect relying party (shared/oidc.RelyingParty,
// adapted in shared/app). Exchange answers ErrSignInRefused-like errors for
// anything that must not sign in, and a domain unavailable error when the
// IdP cannot be reached.
type SignIn interface {
	AuthCodeURL(ctx context.Context, state, nonce, verifier, acr string, freshLogin bool) (string, error)
	Exchange(ctx context.Context, code, verifier, nonce string) (person auth.Person, idToken string, err error)
	EndSessionURL(ctx context.Context, idTokenHint, postLogoutRedirect string) string
	// VerifyLogoutToken checks a back-channel logout token and returns the
	// subject it signs out.
	VerifyLogoutToken(ctx context.Context, raw string) (sub string, err error)
}

// Config is what the pages need.
type Config struct {
	Service       *service.Service
	Authenticator *auth.Authenticator
	Sessions      Sessions
	// SignIn is nil when no OIDC client is configured: pages that need a
	// person then say that signing in is not available.
	SignIn SignIn
	// BaseURL is the public origin of the service (PUBLIC_BASE_URL): the
	// sign-in callback and the return address after logout are under it.
	BaseURL string
	// Disclaimer is the text GET /api/v1/disclaimer answers (DISCLAIMER).
	Disclaimer string
	// IdleTimeout ends a session not used for this long; default 8 hours.
	IdleTimeout time.Duration
	// MaxLifetime ends a session this long after its sign-in, however much
	// it is used; default 12 hours.
	MaxLifetime time.Duration
	Clock       domain.Clock
	Logger      *slog.Logger
	// Origin refuses requests that did not come through CloudFront (the
	// origin secret); nil when none is configured.
	Origin *middleware.OriginCheck
}

// Pages serves the pages.
type Pages struct {
	cfg       Config
	templates templates
}

// Defaults of the session's idle timeout and absolute lifetime.
const (
	DefaultIdleTimeout = 8 * time.Hour
	DefaultMaxLifetime = 12 * time.Hour
)

// New parses the templates; a broken template fails here, at start-up.
func New(cfg Config) (*Pages, error) {
	if cfg.Service == nil || cfg.Authenticator == nil || cfg.Sessions == nil {
		return nil, fmt.Errorf("web: service, authenticator and sessions are required")
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxLifetime <= 0 {
		cfg.MaxLifetime = DefaultMaxLifetime
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	return &Pages{cfg: cfg, templates: t}, nil
}

// Handler is every page behind the shared middleware (correlation id,
// panic recovery), the security headers, the cross-origin protection of
// state-changing requests, and the session.
func (p *Pages) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range p.routes() {
		mux.Handle(rt.pattern, rt.handler)
	}
	mux.HandleFunc("/", p.notFound)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(p.crossOrigin))
	// The provider's server posts back-channel logouts; the signed token is
	// their credential, no cookie is used.
	cop.AddInsecureBypassPattern("POST /login/backchannel-logout")
	if origin := publicOrigin(p.cfg.BaseURL); origin != "" {
		// Behind CloudFront the Host a function sees is API Gateway's, not
		// the public name: a browser that sends no Sec-Fetch-Site is then
		// judged by its Origin, which must be the service's own.
		if err := cop.AddTrustedOrigin(origin); err != nil {
			p.cfg.Logger.Warn("public base URL is not a trusted origin", "error", err)
		}
	}
	return middleware.Wrap(p.internalError, securityHeaders(p.originGuard(cop.Handler(answerOptions(mux, p.withVisit(mux))))))
}

// Mounts are the path patterns the pages answer, for a server that mounts
// them next to the API (the local stack); API Gateway routes the same
// paths to the web function (infra).
var Mounts = []string{"/{$}", "/invitation/", "/login", "/login/", "/logout", "/my/", "/static/", "/console", "/console/",
	"/api/v1/users/login", "/api/v1/users/logout", "/api/v1/csrf", "/api/v1/users/error", "/api/v1/disclaimer"}

func (p *Pages) now() time.Time { return p.cfg.Clock() }

// publicOrigin is the scheme://host[:port] of the service's public base
// URL, "" when it has none.
func publicOrigin(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
