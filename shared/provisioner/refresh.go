package provisioner

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/edu-invite/invite/shared/config"
)

// After a credential is rotated, another function may deliver with the
// old one until its cached connection ages out (a few seconds) and get a
// 401. So a 401 or 403 from an SP makes the client read the connection and
// its secret once more past the caches and, when that gives a different
// Authorization header, send the request once more with it. Only a refusal
// of the fresh credential is then treated as permanent.

// freshTargets is a registry that can read a connection past its cache
// (*config.Live).
type freshTargets interface {
	TargetFresh(ctx context.Context, id string) (config.Target, bool, error)
}

// freshSecrets is a resolver that can read a secret past its cache
// (*secrets.Resolver).
type freshSecrets interface {
	ResolveFresh(ctx context.Context, connectionID, ref string) (string, error)
}

// refreshingAuth is the transport of one SP client: at most once per
// client, a request refused with 401/403 is retried with the freshly read
// credential, which the client's later requests then use too.
type refreshingAuth struct {
	next  http.RoundTripper
	fresh func(ctx context.Context) (string, error) // the Authorization header, read past the caches

	mu     sync.Mutex
	tried  bool
	header string // the fresh header, once one was read
}

func (a *refreshingAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	a.mu.Lock()
	h := a.header
	a.mu.Unlock()
	if h != "" && req.Header.Get("Authorization") != h {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", h)
	}
	resp, err := a.next.RoundTrip(req)
	if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
		return resp, err
	}
	a.mu.Lock()
	tried := a.tried
	a.tried = true
	a.mu.Unlock()
	if tried || (req.Body != nil && req.Body != http.NoBody && req.GetBody == nil) {
		return resp, nil
	}
	fresh, ferr := a.fresh(req.Context())
	if ferr != nil || fresh == "" || fresh == req.Header.Get("Authorization") {
		return resp, nil // the same credential: the refusal stands
	}
	retry := req.Clone(req.Context())
	retry.Header.Set("Authorization", fresh)
	if req.GetBody != nil {
		if retry.Body, err = req.GetBody(); err != nil {
			return resp, nil
		}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	a.mu.Lock()
	a.header = fresh
	a.mu.Unlock()
	return a.next.RoundTrip(retry)
}

var errNoConnection = errors.New("connection no longer configured")

// freshAuthorization reads the SP's connection and secret past the caches
// (where the registry and resolver can) and returns the Authorization
// header they give, if the connection still sends its credential where
// sent (the client's) does: a credential goes only where it was entered
// for.
func (t *Targets) freshAuthorization(ctx context.Context, sent config.Target, hc *http.Client) (string, error) {
	spID := sent.SP.ID
	var target config.Target
	found := false
	if ft, ok := t.Registry.(freshTargets); ok {
		var err error
		if target, found, err = ft.TargetFresh(ctx, spID); err != nil {
			return "", err
		}
	} else {
		target, found = t.Registry.Target(spID)
	}
	if !found || !sameDestination(sent, target) {
		return "", errNoConnection
	}
	resolve := func(ctx context.Context, ref string) (string, error) { return t.Secrets.Resolve(ctx, spID, ref) }
	if fs, ok := t.Secrets.(freshSecrets); ok {
		resolve = func(ctx context.Context, ref string) (string, error) { return fs.ResolveFresh(ctx, spID, ref) }
	}
	switch target.Auth.Method {
	case "basic":
		pw, err := resolve(ctx, target.Auth.Password)
		if err != nil {
			return "", err
		}
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(target.Auth.Username+":"+pw)), nil
	case "bearer":
		tok, err := resolve(ctx, target.Auth.Token)
		return "Bearer " + tok, err
	case "oauth2":
		secret, err := resolve(ctx, target.Auth.ClientSecret)
		if err != nil {
			return "", err
		}
		// A new access token, outside the token cache: the refused one
		// may have been revoked with the rotation.
		cfg := clientcredentials.Config{ClientID: target.Auth.ClientID, ClientSecret: secret, TokenURL: target.Auth.TokenURL, Scopes: target.Auth.Scopes}
		tok, err := cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, hc))
		if err != nil {
			return "", err
		}
		return "Bearer " + tok.AccessToken, nil
	}
	return "", errNoConnection
}

// sameDestination reports whether two versions of a connection send its
// credential to the same place, as the same client.
func sameDestination(a, b config.Target) bool {
	return a.BaseURL == b.BaseURL && a.Version == b.Version && a.Auth.Method == b.Auth.Method && a.Auth.Username == b.Auth.Username &&
		a.Auth.TokenURL == b.Auth.TokenURL && a.Auth.ClientID == b.Auth.ClientID
}
