package provisioner

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/edu-invite/invite/shared/config"
)

// oauthTokens caches one OAuth 2.0 client-credentials token source per SP
// and credential, so that deliveries reuse a token until it expires and a
// rotated client secret (a new reference) gets a new source.
type oauthTokens struct {
	mu      sync.Mutex
	sources map[string]oauth2.TokenSource
}

// token returns a valid access token for the SP's client credentials.
func (o *oauthTokens) token(ctx context.Context, spID string, auth config.AuthDoc, secret string, hc *http.Client) (string, error) {
	key := spID + "\x00" + auth.TokenURL + "\x00" + auth.ClientID + "\x00" + auth.ClientSecret
	o.mu.Lock()
	if o.sources == nil || len(o.sources) > 1024 {
		o.sources = map[string]oauth2.TokenSource{}
	}
	src, ok := o.sources[key]
	if !ok {
		cfg := clientcredentials.Config{ClientID: auth.ClientID, ClientSecret: secret, TokenURL: auth.TokenURL, Scopes: auth.Scopes}
		// The source outlives this delivery's context; the client bounds each token call.
		src = cfg.TokenSource(context.WithValue(context.Background(), oauth2.HTTPClient, hc))
		o.sources[key] = src
	}
	o.mu.Unlock()
	tok, err := src.Token()
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}
