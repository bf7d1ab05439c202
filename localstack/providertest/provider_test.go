package providertest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestStandardProvider runs each journey against the provider in each of
// the three configurations. The steps of a configuration build on each
// other (the guest signed in at the provider is the one who steps up, then
// signs out), so they run in order on one stack.
func TestStandardProvider(t *testing.T) {
	configs := []struct {
		name string
		pc   providerConfig
	}{
		{"claims-in-id-token", providerConfig{claimsInIDToken: true}},
		{"claims-at-userinfo", providerConfig{}},
		{"opaque-introspected", providerConfig{opaque: true}},
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			w := startWorld(t, c.name, c.pc)
			guestTab, adminTab := newTab(t), newTab(t)
			steps := []struct {
				name string
				run  func(*testing.T)
			}{
				{"guest journey", func(t *testing.T) { w.guestJourney(t, guestTab) }},
				{"step-up with voluntary acr_values", func(t *testing.T) { w.stepUp(t, guestTab) }},
				{"console as a super user named by sub", func(t *testing.T) { w.superUserConsole(t, guestTab, adminTab) }},
				{"API accepts only a person's access token", func(t *testing.T) { w.apiTokens(t, c.pc) }},
				{"logout at both ends", func(t *testing.T) { w.logout(t, guestTab) }},
				{"back-channel logout", func(t *testing.T) { w.backchannelLogout(t, adminTab) }},
			}
			for _, s := range steps {
				if !t.Run(s.name, s.run) {
					return // the next steps start where this one ended
				}
			}
		})
	}
}

// guestJourney: the link in the e-mail, sign-in at the provider, the
// person named on the page (their name comes from wherever the provider
// released it), Accept, and the SCIM user named by the eppn, not the sub.
func (w *world) guestJourney(t *testing.T, ctx contextT) {
	roleID := w.newRole(t, "Research wiki", "")
	link := w.invite(t, roleID, w.guest.Email)
	if got := open(t, ctx, link); got != http.StatusOK {
		t.Fatalf("invitation page = %d", got)
	}
	click(t, ctx, "#signin")
	if got := w.signInAtProvider(t, ctx, w.guest.Login, false); got != http.StatusOK {
		t.Fatalf("back from the provider = %d at %s", got, location(t, ctx))
	}
	if !strings.HasPrefix(location(t, ctx), link) || !exists(t, ctx, "#accept") {
		t.Fatalf("after sign-in the browser is at %s without an Accept button", location(t, ctx))
	}
	if got := text(t, ctx, ".who"); got != "Signed in as "+w.guest.Name {
		t.Errorf("the page says %q, want the person's name", got)
	}
	click(t, ctx, "#accept")
	if !strings.Contains(location(t, ctx), "/my/welcome") {
		t.Fatalf("after Accept the browser is at %s", location(t, ctx))
	}
	must(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#status li[data-status="provisioned"]`))))
	var names []string
	for _, u := range w.stk.SP.Users() {
		names = append(names, u.UserName)
	}
	if !contains(names, w.guest.EPPN) || contains(names, w.guest.Sub) {
		t.Errorf("SCIM userNames %v: want the eppn %s, never the sub", names, w.guest.EPPN)
	}
}

// stepUp: a role asks for a second factor; the guest signed in with a
// password is asked to sign in again, and the provider, which would reuse
// its session for a mere acr_values wish, shows its login form because the
// service forces a fresh login.
func (w *world) stepUp(t *testing.T, ctx contextT) {
	roleID := w.newRole(t, "Lab data", acrMFA)
	link := w.invite(t, roleID, w.guest.Email)
	if got := open(t, ctx, link); got != http.StatusForbidden || !exists(t, ctx, `section[data-state="stepup"]`) {
		t.Fatalf("invitation asking for MFA, signed in with a password: %d, at %s", got, location(t, ctx))
	}
	click(t, ctx, `section[data-state="stepup"] a[href*="acr="]`)
	if !strings.HasPrefix(location(t, ctx), w.issuer+"/interaction/") {
		t.Fatalf("Sign in again went to %s, not to the provider's login form (the provider reused its session)", location(t, ctx))
	}
	if got := text(t, ctx, "#acr-values"); !strings.Contains(got, acrMFA) {
		t.Errorf("the provider was asked for %q, want %s", got, acrMFA)
	}
	w.signInAtProvider(t, ctx, w.guest.Login, true)
	if !strings.HasPrefix(location(t, ctx), link) || !exists(t, ctx, "#accept") {
		t.Fatalf("after the step-up the browser is at %s without an Accept button", location(t, ctx))
	}
	click(t, ctx, "#accept")
	if !strings.Contains(location(t, ctx), "/my/welcome") {
		t.Fatalf("after Accept the browser is at %s", location(t, ctx))
	}
}

// superUserConsole: the super user is named by sub only (SUPER_USERS
// sub=…); the super users' page opens for them and not for the guest.
func (w *world) superUserConsole(t *testing.T, guestTab, adminTab contextT) {
	if got := open(t, guestTab, w.stk.URL+"/console/operations"); got != http.StatusForbidden {
		t.Errorf("the guest opened the super users' page: %d", got)
	}
	open(t, adminTab, w.stk.URL+"/console/operations")
	if got := w.signInAtProvider(t, adminTab, w.admin.Login, false); got != http.StatusOK {
		t.Fatalf("super user's console = %d at %s", got, location(t, adminTab))
	}
	if got := location(t, adminTab); got != w.stk.URL+"/console/operations" {
		t.Fatalf("after sign-in the super user is at %s", got)
	}
}

// apiTokens: a person's access token works; an ID token, a client's own
// token and a token of a too weak authentication are refused, each with a
// WWW-Authenticate that says why and a log line with the reason.
func (w *world) apiTokens(t *testing.T, pc providerConfig) {
	password := w.personTokens(t, w.guest.Login, false)
	// The configuration is the one the test says it is.
	if isJWT := strings.Count(password.Access, ".") == 2; isJWT == pc.opaque {
		t.Fatalf("the provider issued a JWT access token = %v, configured opaque = %v", isJWT, pc.opaque)
	}
	if got := idTokenHas(t, w.webTokens(t, w.guest.Login).ID, "email"); got != pc.claimsInIDToken {
		t.Fatalf("the pages' ID token carries the e-mail = %v, configured claims in the ID token = %v", got, pc.claimsInIDToken)
	}
	bearer := func(token string) (string, string) { return "Authorization", "Bearer " + token }

	h, v := bearer(password.Access)
	status, _, body := w.api(t, "GET", "/api/v1/users/me", h, v, nil)
	if status != http.StatusOK || !strings.Contains(string(body), w.guest.EPPN) {
		t.Fatalf("users/me with the guest's access token = %d %s", status, body)
	}

	admin := w.personTokens(t, w.admin.Login, false)
	h, v = bearer(admin.Access)
	status, _, body = w.api(t, "GET", "/api/v1/users/me", h, v, nil)
	var me struct {
		SuperUser bool `json:"superUser"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &me) != nil || !me.SuperUser {
		t.Errorf("users/me of the super user named by sub = %d %s; want superUser true", status, body)
	}

	roleID := w.newRole(t, "Secure lab", acrMFA)
	invID, hash := w.invitationID(t, w.invite(t, roleID, w.guest.Email))
	accept := map[string]any{"hash": hash, "invitationId": invID}
	client := w.clientToken(t)
	refusals := []struct {
		name, method, path string
		token              string
		body               any
		status             int
		challenge          []string
		logged             string
	}{
		{"ID token", "GET", "/api/v1/users/me", password.ID, nil, http.StatusUnauthorized, []string{`error="invalid_token"`}, "bearer token refused"},
		{"client's own token as a person", "GET", "/api/v1/users/me", client, nil, http.StatusForbidden, []string{`error="insufficient_scope"`}, "client credentials token"},
		{"client's own token accepting", "POST", "/api/v1/invitations/accept", client, accept, http.StatusForbidden, []string{`error="insufficient_scope"`}, "client credentials token"},
		{"password where MFA is asked", "POST", "/api/v1/invitations/accept", password.Access, accept, http.StatusUnauthorized,
			[]string{`error="insufficient_user_authentication"`, `acr_values="` + acrMFA + `"`}, "authentication context too weak"},
		{"garbage", "GET", "/api/v1/users/me", "not-a-token", nil, http.StatusUnauthorized, []string{`error="invalid_token"`}, "bearer token refused"},
	}
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			h, v := bearer(r.token)
			status, challenge, body := w.api(t, r.method, r.path, h, v, r.body)
			if status != r.status {
				t.Errorf("status %d %s, want %d", status, body, r.status)
			}
			for _, want := range r.challenge {
				if !strings.Contains(challenge, want) {
					t.Errorf("WWW-Authenticate %q lacks %s", challenge, want)
				}
			}
			log := w.log.String()
			if !strings.Contains(log, r.logged) {
				t.Errorf("no log line with %q", r.logged)
			}
			if strings.Contains(log, r.token) {
				t.Errorf("the token is in the log")
			}
		})
	}

	mfa := w.personTokens(t, w.guest.Login, true)
	h, v = bearer(mfa.Access)
	if status, _, body := w.api(t, "POST", "/api/v1/invitations/accept", h, v, accept); status != http.StatusCreated {
		t.Errorf("accept with a second factor = %d %s", status, body)
	}
}

// logout: signing out ends the session here, then at the provider, and
// comes back home.
func (w *world) logout(t *testing.T, ctx contextT) {
	if got := open(t, ctx, w.stk.URL+"/"); got != http.StatusOK || !exists(t, ctx, ".who") {
		t.Fatalf("the guest is not signed in before logout: %d", got)
	}
	click(t, ctx, `nav form[action="/logout"] button`)
	if !strings.HasPrefix(location(t, ctx), w.issuer) {
		t.Fatalf("logout went to %s, not to the provider", location(t, ctx))
	}
	click(t, ctx, `button[name="logout"]`)
	if !strings.HasPrefix(location(t, ctx), w.stk.URL+"/") {
		t.Fatalf("after the provider's logout the browser is at %s", location(t, ctx))
	}
	if w.sessionCookie(t, ctx) != nil || exists(t, ctx, ".who") {
		t.Errorf("signed out, yet a session cookie or the signed-in name remains")
	}
}

// backchannelLogout: the super user signs out at the provider only; the
// provider tells the service, whose session of that person ends.
func (w *world) backchannelLogout(t *testing.T, ctx contextT) {
	if got := open(t, ctx, w.stk.URL+"/console/operations"); got != http.StatusOK {
		t.Fatalf("the super user is not signed in before: %d", got)
	}
	open(t, ctx, w.issuer+"/session/end")
	click(t, ctx, `button[name="logout"]`)
	eventually(t, "the back-channel logout", func() bool { return strings.Contains(w.log.String(), `"msg":"back-channel logout"`) })
	open(t, ctx, w.stk.URL+"/")
	if exists(t, ctx, ".who") {
		t.Errorf("after the provider's back-channel logout the service still knows the super user")
	}
	if got := open(t, ctx, w.stk.URL+"/console/operations"); !strings.HasPrefix(location(t, ctx), w.issuer) {
		t.Errorf("the super users' page after back-channel logout = %d at %s, want the provider's sign-in", got, location(t, ctx))
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
