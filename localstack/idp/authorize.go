package idp

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// codeTTL is how long an authorization code may be redeemed.
const codeTTL = time.Minute

// Client is a relying party allowed to use the authorization code flow.
type Client struct {
	Secret       string
	RedirectURIs []string
}

// browserFlow holds the clients and the codes issued but not yet redeemed.
type browserFlow struct {
	mu      sync.Mutex
	clients map[string]Client
	codes   map[string]issuedCode
}

type issuedCode struct {
	clientID, redirectURI, challenge string
	claims                           map[string]any
	expires                          time.Time
}

// RegisterClient allows clientID, authenticating with secret, to sign people
// in and be sent back to one of redirectURIs (compared exactly).
func (p *IdP) RegisterClient(clientID string, c Client) {
	p.flow.mu.Lock()
	defer p.flow.mu.Unlock()
	if p.flow.clients == nil {
		p.flow.clients = map[string]Client{}
	}
	p.flow.clients[clientID] = c
}

func (p *IdP) client(clientID, redirectURI string) (Client, bool) {
	p.flow.mu.Lock()
	defer p.flow.mu.Unlock()
	c, ok := p.flow.clients[clientID]
	if !ok {
		return Client{}, false
	}
	for _, u := range c.RedirectURIs {
		if u == redirectURI {
			return c, true
		}
	}
	return Client{}, false
}

// loginForm is the development sign-in page: a developer types or picks a
// test person. It is plain HTML; this IdP is never deployed.
var loginForm = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in</title></head>
<body><main>
<h1>Development sign-in</h1>
<p>This identity provider exists only on the local stack. Type the person to sign in as.</p>
<form method="post" action="authorize">
{{range $k, $v := .Params}}<input type="hidden" name="{{$k}}" value="{{$v}}">
{{end}}<p><label for="name">Name</label><br><input id="name" name="name" value="Alice Guest" autocomplete="off"></p>
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" value="alice@example.org" autocomplete="off"></p>
<p><label for="eppn">eduPersonPrincipalName</label><br><input id="eppn" name="eppn" value="" aria-describedby="eppn-hint" autocomplete="off"><br><small id="eppn-hint">Left empty: the e-mail address. A super user of the local stack is an eppn in SUPER_USERS.</small></p>
<p><label for="sho">Home organization</label><br><input id="sho" name="sho" value="example.org" autocomplete="off"></p>
<p><input id="fedid" name="fedid" type="checkbox" value="on" checked> <label for="fedid">Federated account (eduID)</label></p>
<p><label for="acr">Authentication context (acr)</label><br><input id="acr" name="acr" value="{{.ACR}}" autocomplete="off"></p>
<p><button id="signin" name="action" value="signin" type="submit">Sign in</button>
<button id="cancel" name="action" value="cancel" type="submit">Cancel</button></p>
</form></main></body></html>
`))

// authorizeParams are the request parameters carried through the form.
var authorizeParams = []string{"client_id", "redirect_uri", "state", "nonce", "code_challenge", "code_challenge_method", "acr_values", "response_type", "scope"}

func (p *IdP) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if _, ok := p.client(q.Get("client_id"), q.Get("redirect_uri")); !ok {
		http.Error(w, "unknown client_id or redirect_uri", http.StatusBadRequest)
		return
	}
	if q.Get("response_type") != "code" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		redirectError(w, r, q.Get("redirect_uri"), q.Get("state"), "invalid_request")
		return
	}
	params := map[string]string{}
	for _, k := range authorizeParams {
		if v := q.Get(k); v != "" {
			params[k] = v
		}
	}
	acr, _, _ := strings.Cut(q.Get("acr_values"), " ")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = loginForm.Execute(w, map[string]any{"Params": params, "ACR": acr})
}

func (p *IdP) serveAuthorizeForm(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	f := r.PostForm
	redirectURI, state := f.Get("redirect_uri"), f.Get("state")
	if _, ok := p.client(f.Get("client_id"), redirectURI); !ok {
		http.Error(w, "unknown client_id or redirect_uri", http.StatusBadRequest)
		return
	}
	if f.Get("action") == "cancel" {
		redirectError(w, r, redirectURI, state, "access_denied")
		return
	}
	// The eppn is not filled in: a developer who changes only the name and
	// the e-mail address signs in as that person, never as the one before.
	email := strings.TrimSpace(f.Get("email"))
	eppn := firstOf(strings.TrimSpace(f.Get("eppn")), email)
	sub := "urn:collab:person:" + strings.ToLower(firstOf(eppn, email))
	if sub == "urn:collab:person:" {
		http.Error(w, "an eduPersonPrincipalName or an e-mail address is required", http.StatusBadRequest)
		return
	}
	claims := map[string]any{"sub": sub}
	set := func(name, v string) {
		if v = strings.TrimSpace(v); v != "" {
			claims[name] = v
		}
	}
	set("name", f.Get("name"))
	if given, family, ok := strings.Cut(strings.TrimSpace(f.Get("name")), " "); ok {
		set("given_name", given)
		set("family_name", family)
	}
	set("email", email)
	set("eduperson_principal_name", eppn)
	set("schac_home_organization", f.Get("sho"))
	set("acr", f.Get("acr"))
	set("nonce", f.Get("nonce"))
	if f.Get("fedid") == "on" {
		sum := sha256.Sum256([]byte(sub))
		claims["eduid"] = base64.RawURLEncoding.EncodeToString(sum[:12])
	}
	code, err := randomID()
	if err != nil {
		http.Error(w, "no code", http.StatusInternalServerError)
		return
	}
	p.flow.mu.Lock()
	if p.flow.codes == nil {
		p.flow.codes = map[string]issuedCode{}
	}
	p.flow.codes[code] = issuedCode{clientID: f.Get("client_id"), redirectURI: redirectURI, challenge: f.Get("code_challenge"),
		claims: claims, expires: time.Now().Add(codeTTL)}
	p.flow.mu.Unlock()
	redirectWith(w, r, redirectURI, url.Values{"code": {code}, "state": {state}})
}

// redeemCode answers the token request of the code grant: the client
// authenticates (Basic or form), the code is used once, the redirect URI
// and the PKCE verifier must match.
func (p *IdP) redeemCode(w http.ResponseWriter, r *http.Request) {
	clientID, secret, ok := r.BasicAuth()
	if ok {
		clientID, _ = url.QueryUnescape(clientID)
		secret, _ = url.QueryUnescape(secret)
	} else {
		clientID, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	p.flow.mu.Lock()
	c, known := p.flow.clients[clientID]
	code, found := p.flow.codes[r.PostForm.Get("code")]
	delete(p.flow.codes, r.PostForm.Get("code")) // once, whatever happens next
	p.flow.mu.Unlock()
	if !known || subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) != 1 {
		writeJSON(w, http.StatusUnauthorized, tokenError{Error: "invalid_client", Description: "client authentication failed"})
		return
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case !found || time.Now().After(code.expires) || code.clientID != clientID:
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_grant", Description: "unknown, expired or used code"})
		return
	case code.redirectURI != r.PostForm.Get("redirect_uri"):
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_grant", Description: "redirect_uri does not match"})
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != code.challenge:
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_grant", Description: "PKCE verifier does not match"})
		return
	}
	access := map[string]any{}
	for k, v := range code.claims {
		if k != "nonce" {
			access[k] = v
		}
	}
	accessToken, err := p.Mint(access, p.DefaultAudience, defaultTokenTTL)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, tokenError{Error: "server_error"})
		return
	}
	idToken, err := p.MintIDToken(code.claims, clientID, defaultTokenTTL)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, tokenError{Error: "server_error"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": accessToken, "id_token": idToken, "token_type": "Bearer",
		"expires_in": int64(defaultTokenTTL / time.Second)})
}

// serveLogout is the end_session_endpoint: nothing to end here (the IdP
// keeps no session), so it sends the browser back.
func (p *IdP) serveLogout(w http.ResponseWriter, r *http.Request) {
	back := r.URL.Query().Get("post_logout_redirect_uri")
	if u, err := url.Parse(back); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
		http.Redirect(w, r, back, http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("Signed out.\n"))
}

func redirectError(w http.ResponseWriter, r *http.Request, redirectURI, state, code string) {
	redirectWith(w, r, redirectURI, url.Values{"error": {code}, "state": {state}})
}

func redirectWith(w http.ResponseWriter, r *http.Request, redirectURI string, v url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	q := u.Query()
	for k, vs := range v {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
