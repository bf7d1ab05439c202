package browsertest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
)

// consolePerson is someone who works in the console: a user of the
// service with a role (or none), and the flags only the store sets.
type consolePerson struct {
	person
	UserID int64
}

// makePerson makes email a user of the service: invited to roleID with
// authority (through the API), accepted with a bearer token, then given
// the flags set sets (institution admin, super user) in the store.
func makePerson(t *testing.T, name, email string, roleID int64, authority string, set func(*domain.User)) consolePerson {
	t.Helper()
	body := map[string]any{"intendedAuthority": authority, "language": "en", "guestRoleIncluded": authority == "GUEST",
		"invites": []string{email}, "roleIdentifiers": []int64{roleID}, "expiryDate": clock.Now().Add(14 * 24 * time.Hour).Unix()}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite %s = %d", email, got)
	}
	acceptWithBearer(t, mailLink(t, email), email)
	ctx := context.Background()
	u, err := stk.App.Store.GetUserBySub(ctx, "urn:collab:person:"+email)
	must(t, err)
	if set != nil {
		set(&u)
		must(t, stk.App.Store.UpdateUser(ctx, u, nil))
	}
	return consolePerson{person: person{Name: name, Email: email}, UserID: u.ID}
}

// mailLink is the invitation link of the last e-mail to email.
func mailLink(t *testing.T, email string) string {
	t.Helper()
	var link string
	eventually(t, "the invitation e-mail to "+email, func() bool {
		mails, err := stk.SES.Mails(context.Background())
		must(t, err)
		link = ""
		for _, m := range mails {
			if len(m.To) > 0 && m.To[0] == email {
				link = linkPattern.FindString(m.Text)
			}
		}
		return link != ""
	})
	remember(strings.SplitN(link, "hash=", 2)[1])
	return link
}

// roleInOrg creates a role of an organization on the sample application.
func roleInOrg(t *testing.T, name, org string) int64 {
	t.Helper()
	roleSeq.Lock()
	roleSeq.n++
	name = fmt.Sprintf("%s %d", name, roleSeq.n)
	roleSeq.Unlock()
	var role struct {
		ID int64 `json:"id"`
	}
	body := map[string]any{"name": name, "description": "Console test role", "defaultExpiryDays": 365, "organizationGUID": org,
		"applicationUsages": []any{map[string]any{"landingPage": "https://wiki.example.org/start",
			"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}}
	if got := api(t, "POST", "/api/v1/roles", body, &role); got != http.StatusCreated || role.ID == 0 {
		t.Fatalf("create role = %d", got)
	}
	return role.ID
}

// consoleSignIn signs p in from the console in a fresh browser context
// and answers the tab.
func consoleSignIn(t *testing.T, p person, lang string) context.Context {
	t.Helper()
	ctx := newTab(t)
	open(t, ctx, stk.URL+"/console?lang="+lang)
	if got := signInAtIdP(t, ctx, p); got != http.StatusOK && got != http.StatusForbidden {
		t.Fatalf("back from the IdP = %d at %s", got, location(t, ctx))
	}
	if !strings.Contains(location(t, ctx), "/console") {
		t.Fatalf("after sign-in the browser is at %s", location(t, ctx))
	}
	return ctx
}

// setValue sets a form field's value.
func setValue(t *testing.T, ctx context.Context, selector, value string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(selector), value)))
}

// sessionClient calls the pages with the browser's session cookie, as a
// program would (no Origin header: CrossOriginProtection lets it pass, so
// what answers is the page's own authorization).
type sessionClient struct {
	cookie string
}

func newSessionClient(t *testing.T, ctx context.Context) sessionClient {
	t.Helper()
	c := sessionCookie(t, ctx)
	if c == nil {
		t.Fatal("no session cookie")
	}
	return sessionClient{cookie: c.Name + "=" + c.Value}
}

func (c sessionClient) do(t *testing.T, method, path string, form url.Values) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, stk.URL+path, body)
	req.Header.Set("Cookie", c.cookie)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	must(t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}
