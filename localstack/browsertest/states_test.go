package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/i18n"
)

// TestInvitationStates opens every state page of an invitation, in the
// invitation's language, and checks its status, heading, what it says,
// the way on, and axe-core.
func TestInvitationStates(t *testing.T) {
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			T := func(key string, args ...any) string { return i18n.T(lang, key, args...) }
			heading := func(t *testing.T, ctx context.Context, key string) {
				t.Helper()
				if got := text(t, ctx, "h1"); got != T(key) {
					t.Errorf("heading = %q, want %q", got, T(key))
				}
				if got := attr(t, ctx, "html", "lang"); got != lang {
					t.Errorf("page language = %q, want %s", got, lang)
				}
				checkAxe(t, ctx)
			}
			email := func(name string) string { return fmt.Sprintf("%s.%s@example.org", name, lang) }

			t.Run("unknown", func(t *testing.T) {
				ctx := newTab(t)
				if got := open(t, ctx, stk.URL+"/invitation/accept?hash=no-such-invitation-link&lang="+lang); got != http.StatusNotFound {
					t.Errorf("status = %d, want 404", got)
				}
				heading(t, ctx, "state.unknown.title")
			})

			t.Run("expired", func(t *testing.T) {
				role := newRole(t, "Expired "+lang, roleOptions{InviterDisplayName: "Dr. Jan Jansen"})
				link := invite(t, role, email("late"), lang, "")
				clock.Set(15 * 24 * time.Hour)
				defer clock.Set(0)
				ctx := newTab(t)
				if got := open(t, ctx, link); got != http.StatusGone {
					t.Errorf("status = %d, want 410", got)
				}
				heading(t, ctx, "state.expired.title")
				if got := text(t, ctx, "main p"); got != T("state.expired.bodyBy", "Dr. Jan Jansen") {
					t.Errorf("body = %q, want it to name the inviter", got)
				}
			})

			t.Run("accepted", func(t *testing.T) {
				role := newRole(t, "Accepted "+lang, roleOptions{})
				link := invite(t, role, email("early"), lang, "")
				acceptWithBearer(t, link, email("early"))
				ctx := newTab(t)
				if got := open(t, ctx, link); got != http.StatusConflict {
					t.Errorf("status = %d, want 409", got)
				}
				heading(t, ctx, "state.accepted.title")
				if got := attr(t, ctx, `main a[role="button"]`, "href"); got != "/" {
					t.Errorf("the way on leads to %q, want my access", got)
				}
			})

			t.Run("email mismatch", func(t *testing.T) {
				role := newRole(t, "Mismatch "+lang, roleOptions{EnforceEmailEquality: true})
				link := invite(t, role, email("carol"), lang, "")
				ctx := newTab(t)
				open(t, ctx, link)
				click(t, ctx, "#signin")
				if got := signInAtIdP(t, ctx, person{Name: "Mallory", Email: email("mallory")}); got != http.StatusForbidden {
					t.Errorf("status = %d, want 403", got)
				}
				heading(t, ctx, "state.mismatch.title")
				screenshot(t, ctx, "mismatch-"+lang+"-320.png", 320)
				body := text(t, ctx, "main p")
				if !strings.Contains(body, "c•••"+lang[1:]+"@example.org") || !strings.Contains(body, email("mallory")) || strings.Contains(body, email("carol")) {
					t.Errorf("body = %q, want the invited address masked and the signed-in one", body)
				}
				// The switch of account signs in afresh, and then Carol may accept.
				click(t, ctx, `main a[role="button"]`)
				signInAtIdP(t, ctx, person{Name: "Carol", Email: email("carol")})
				if !exists(t, ctx, "#accept") {
					t.Errorf("after the switch to the invited account there is no Accept button: %s", text(t, ctx, "main"))
				}
			})

			t.Run("federated only", func(t *testing.T) {
				role := newRole(t, "Federated "+lang, roleOptions{FedIDOnly: true})
				link := invite(t, role, email("dave"), lang, "")
				ctx := newTab(t)
				open(t, ctx, link)
				click(t, ctx, "#signin")
				if got := signInAtIdP(t, ctx, person{Name: "Dave", Email: email("dave"), NoFedID: true}); got != http.StatusForbidden {
					t.Errorf("status = %d, want 403", got)
				}
				heading(t, ctx, "state.fedonly.title")
				if exists(t, ctx, "#accept") {
					t.Error("an Accept button shows")
				}
			})

			t.Run("step-up", func(t *testing.T) {
				const mfa = "https://refeds.org/profile/mfa"
				role := newRole(t, "Step-up "+lang, roleOptions{RequestedAuthnContext: mfa})
				link := invite(t, role, email("erin"), lang, "")
				ctx := newTab(t)
				open(t, ctx, link)
				click(t, ctx, "#signin")
				if !strings.Contains(location(t, ctx), "acr_values=") {
					t.Errorf("the sign-in does not ask for acr_values: %s", location(t, ctx))
				}
				if got := signInAtIdP(t, ctx, person{Name: "Erin", Email: email("erin"), ACR: "-"}); got != http.StatusForbidden {
					t.Errorf("status = %d, want 403", got)
				}
				heading(t, ctx, "state.stepup.title")
				click(t, ctx, `main a[role="button"]`)
				signInAtIdP(t, ctx, person{Name: "Erin", Email: email("erin")}) // the IdP fills in the acr asked for
				if !exists(t, ctx, "#accept") {
					t.Errorf("after the stronger sign-in there is no Accept button: %s", text(t, ctx, "main"))
				}
			})

			t.Run("cancelled sign-in", func(t *testing.T) {
				role := newRole(t, "Cancelled "+lang, roleOptions{})
				link := invite(t, role, email("frank"), lang, "")
				ctx := newTab(t)
				open(t, ctx, link)
				click(t, ctx, "#signin")
				if got := click(t, ctx, "#cancel"); got != http.StatusUnauthorized {
					t.Errorf("status = %d, want 401", got)
				}
				heading(t, ctx, "state.signinFailed.title")
				if sessionCookie(t, ctx) == nil {
					t.Log("no session cookie after a cancelled sign-in") // allowed; the point is: nobody is signed in
				}
				// Trying again leads back to the invitation through the IdP.
				click(t, ctx, `main a[role="button"]`)
				signInAtIdP(t, ctx, person{Name: "Frank", Email: email("frank")})
				if !strings.HasPrefix(location(t, ctx), link) || !exists(t, ctx, "#accept") {
					t.Errorf("try again ends at %s", location(t, ctx))
				}
			})
		})
	}
}
