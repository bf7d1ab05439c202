package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// TestConsoleAdministrators is the administrators page and its forms as
// each kind of person (guest, inviter, manager, institution admin of
// another organization, super user, and the organization's own institution
// admin): each works or is refused with 403 and changes nothing. An
// institution admin invites another, who accepts and is then removed; an
// application manager is listed and removed by a super user.
func TestConsoleAdministrators(t *testing.T) {
	ctx := context.Background()
	store := stk.App.Store
	roleC := roleInOrg(t, "Admins C", "org-c")
	roleD := roleInOrg(t, "Admins D", "org-d")
	guest := makePerson(t, "Gil Guest", "gil.admins@example.org", roleC, "GUEST", nil)
	inviter := makePerson(t, "Ira Inviter", "ira.admins@example.org", roleC, "INVITER", nil)
	manager := makePerson(t, "Mia Manager", "mia.admins@example.org", roleC, "MANAGER", nil)
	appManager := makePerson(t, "Abe Appman", "abe.admins@example.org", roleC, "APPLICATION_MANAGER", nil)
	adminC := makePerson(t, "Cor AdminC", "cor.admins@example.org", roleC, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-c"
	})
	adminD := makePerson(t, "Dee AdminD", "dee.admins@example.org", roleD, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-d"
	})
	super := makePerson(t, "Sam Super", "sam.admins@example.org", roleD, "GUEST", func(u *domain.User) { u.SuperUser = true })
	clients := map[string]sessionClient{}
	for name, p := range map[string]consolePerson{"guest": guest, "inviter": inviter, "manager": manager, "adminC": adminC, "adminD": adminD, "super": super} {
		clients[name] = newSessionClient(t, consoleSignIn(t, p.person, "en"))
	}

	// The page: only institution admins (their own organization, whatever
	// they ask for) and super users (the one they choose).
	for who, want := range map[string]int{"guest": 403, "inviter": 403, "manager": 403, "adminC": 200, "adminD": 200, "super": 200} {
		got, html := clients[who].do(t, "GET", "/console/admins?org=org-c", nil)
		if got != want {
			t.Errorf("GET /console/admins as %s = %d, want %d", who, got, want)
		}
		shows := strings.Contains(html, "cor.admins@example.org")
		if want == 200 && shows != (who != "adminD") {
			t.Errorf("GET /console/admins?org=org-c as %s lists org-c's admin: %v", who, shows)
		}
	}
	if _, html := clients["adminC"].do(t, "GET", "/console/admins", nil); !strings.Contains(html, `data-manager="abe.admins@example.org"`) {
		t.Errorf("the application manager of org-c is not listed for its institution admin: %s", html)
	}

	// Inviting an institution admin: refused for who is not one.
	mailsTo := func(email string) int {
		mails, err := stk.SES.Mails(ctx)
		must(t, err)
		n := 0
		for _, m := range mails {
			if len(m.To) > 0 && m.To[0] == email {
				n++
			}
		}
		return n
	}
	newAdmin := "nia.admins@example.org"
	for _, who := range []string{"guest", "inviter", "manager"} {
		if got, _ := clients[who].do(t, "POST", "/console/admins/invite", url.Values{"email": {newAdmin}, "org": {"org-c"}}); got != http.StatusForbidden {
			t.Errorf("POST /console/admins/invite as %s = %d, want 403", who, got)
		}
	}
	if got, html := clients["adminC"].do(t, "POST", "/console/admins/invite", url.Values{"email": {"not an address"}}); got != http.StatusUnprocessableEntity ||
		!strings.Contains(html, `id="admin-email-error"`) || !strings.Contains(html, `value="not an address"`) {
		t.Errorf("an invalid address = %d, the page must say so beside the field and keep what was typed", got)
	}
	time.Sleep(200 * time.Millisecond) // a refused invitation would have queued its mail by now
	if n := mailsTo(newAdmin); n != 0 {
		t.Fatalf("refused invitations sent %d mails", n)
	}
	got, html := clients["adminC"].do(t, "POST", "/console/admins/invite", url.Values{"email": {newAdmin}})
	link := linkPattern.FindString(html)
	if got != http.StatusCreated || link == "" {
		t.Fatalf("institution admin invites an institution admin = %d, link %q", got, link)
	}
	remember(strings.SplitN(link, "hash=", 2)[1])
	acceptWithBearer(t, link, newAdmin)
	nia, err := store.GetUserBySub(ctx, "urn:collab:person:"+newAdmin)
	must(t, err)
	if !nia.InstitutionAdmin || nia.OrganizationGUID != "org-c" {
		t.Fatalf("the accepted invitation made %+v, want institution admin of org-c", nia)
	}
	isAdmin := func() bool {
		u, err := store.GetUser(ctx, nia.ID)
		must(t, err)
		return u.InstitutionAdmin
	}
	remove := fmt.Sprintf("/console/admins/%d/remove", nia.ID)
	// Another organization's admin gets what a missing person gets (404).
	for who, want := range map[string]int{"guest": 403, "inviter": 403, "manager": 403, "adminD": 404} {
		if got, _ := clients[who].do(t, "POST", remove, url.Values{"org": {"org-c"}}); got != want || !isAdmin() {
			t.Errorf("POST %s as %s = %d (still admin: %v), want %d and unchanged", remove, who, got, isAdmin(), want)
		}
	}
	// Rights not given by invitation cannot be taken here.
	if got, _ := clients["super"].do(t, "POST", fmt.Sprintf("/console/admins/%d/remove", adminC.UserID), url.Values{"org": {"org-c"}}); got != http.StatusForbidden {
		t.Errorf("removing a configured institution admin = %d, want 403", got)
	}
	if got, _ := clients["adminC"].do(t, "POST", remove, url.Values{}); got != http.StatusSeeOther || isAdmin() {
		t.Errorf("the organization's admin removes the invited admin = %d, still admin %v", got, isAdmin())
	}

	// Removing an application manager ends the membership, as on the role page.
	ur, err := store.GetUserRole(ctx, appManager.UserID, roleC)
	must(t, err)
	endIt := fmt.Sprintf("/console/memberships/%d/remove", ur.ID)
	form := url.Values{"from": {"admins"}, "org": {"org-c"}}
	for who, want := range map[string]int{"guest": 403, "inviter": 403, "adminD": 404} {
		if got, _ := clients[who].do(t, "POST", endIt, form); got != want {
			t.Errorf("POST %s as %s = %d, want %d", endIt, who, got, want)
		}
		if _, err := store.GetUserRole(ctx, appManager.UserID, roleC); err != nil {
			t.Fatalf("a refused removal removed the application manager: %v", err)
		}
	}
	req, _ := http.NewRequest("POST", stk.URL+endIt, strings.NewReader(form.Encode()))
	req.Header.Set("Cookie", clients["super"].cookie)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	must(t, err)
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/console/admins?") || !strings.Contains(loc, "org=org-c") {
		t.Errorf("super user removes the application manager = %d to %q", resp.StatusCode, loc)
	}
	if _, err := store.GetUserRole(ctx, appManager.UserID, roleC); !domain.IsNotFound(err) {
		t.Errorf("the application manager's membership after removal: %v", err)
	}
}

// TestConsoleInvitationStates: a role's page lists accepted invitations
// beside open ones, each with its state and only the open one with
// actions; a person's page lists the invitations to their address.
func TestConsoleInvitationStates(t *testing.T) {
	role := roleInOrg(t, "Invitation states", "org-states")
	manager := makePerson(t, "Meg Manager", "meg.states@example.org", role, "MANAGER", nil)
	guest := makePerson(t, "Gwen Guest", "gwen.states@example.org", role, "GUEST", nil)
	adminOther := makePerson(t, "Olf Other", "olf.states@example.org", roleInOrg(t, "States other", "org-other"), "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-other"
	})
	body := map[string]any{"intendedAuthority": "GUEST", "invites": []string{"open.states@example.org"}, "roleIdentifiers": []int64{role},
		"expiryDate": clock.Now().Add(7 * 24 * time.Hour).Unix()}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite = %d", got)
	}
	mc := newSessionClient(t, consoleSignIn(t, manager.person, "en"))
	_, html := mc.do(t, "GET", fmt.Sprintf("/console/roles/%d", role), nil)
	for _, want := range []string{`<tr data-invitation="gwen.states@example.org" data-state="accepted">`, `<tr data-invitation="open.states@example.org" data-state="open">`, "Accepted on "} {
		if !strings.Contains(html, want) {
			t.Errorf("the role page lacks %q", want)
		}
	}
	accepted := html[strings.Index(html, `data-invitation="gwen.states@example.org"`):]
	accepted = accepted[:strings.Index(accepted, "</tr>")]
	if strings.Contains(accepted, "/resend") || strings.Contains(accepted, "/delete") {
		t.Errorf("an accepted invitation offers actions: %s", accepted)
	}
	person := fmt.Sprintf("/console/people/%d", guest.UserID)
	_, html = mc.do(t, "GET", person, nil)
	if !strings.Contains(html, `<tr data-invitation="gwen.states@example.org" data-state="accepted">`) || !strings.Contains(html, "Invitation states") {
		t.Errorf("the person's page does not list their accepted invitation with its role")
	}
	// Another organization's person is as unknown to them as a missing one.
	if got, _ := newSessionClient(t, consoleSignIn(t, adminOther.person, "en")).do(t, "GET", person, nil); got != http.StatusNotFound {
		t.Errorf("an institution admin of another organization opens the person's page = %d, want 404", got)
	}
}

// TestConsoleAdminsAccessible runs axe-core on the administrators page in
// English and Dutch, at full width and at 320 px, as its institution admin
// sees it with an application manager listed and with the invite form sent
// back with an error; the form is reachable with the keyboard.
func TestConsoleAdminsAccessible(t *testing.T) {
	role := roleInOrg(t, "Admins a11y", "org-admins-a11y")
	makePerson(t, "Ann Appman", "ann.admins-a11y@example.org", role, "APPLICATION_MANAGER", nil)
	admin := makePerson(t, "Ian Admin", "ian.admins-a11y@example.org", role, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-admins-a11y"
	})
	// Nobody signed in as these two yet: the service knows no name for them.
	makePerson(t, "", "nameless.admins-a11y@example.org", role, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-admins-a11y"
	})
	for _, lang := range []string{"en", "nl"} {
		t.Run(lang, func(t *testing.T) {
			ctx := consoleSignIn(t, admin.person, lang)
			if got := open(t, ctx, stk.URL+"/console/admins"); got != http.StatusOK {
				t.Fatalf("/console/admins = %d", got)
			}
			if main := text(t, ctx, "main"); strings.Contains(main, "console.") || !strings.Contains(main, "ann.admins-a11y@example.org") {
				t.Errorf("the page shows a message key or lacks the application manager: %s", main)
			}
			// A person without a name is shown by their address, once; a
			// person with a name by both.
			for _, c := range []struct{ item, address, name string }{
				{`li[data-manager="ann.admins-a11y@example.org"]`, "ann.admins-a11y@example.org", ""},
				{`li[data-admin="nameless.admins-a11y@example.org"]`, "nameless.admins-a11y@example.org", ""},
				{`li[data-admin="ian.admins-a11y@example.org"]`, "ian.admins-a11y@example.org", "Ian Admin"},
			} {
				got := text(t, ctx, c.item)
				if n := strings.Count(got, c.address); n != 1 || !strings.Contains(got, c.name) {
					t.Errorf("%s reads %q: want the address once and the name %q", c.item, got, c.name)
				}
			}
			checkAxe(t, ctx)
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(320, 700)))
			checkAxe(t, ctx)
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 800)))
			setValue(t, ctx, "#admin-email", "no address")
			if got := click(t, ctx, "#invite-admin"); got != http.StatusUnprocessableEntity {
				t.Errorf("an invalid address = %d", got)
			}
			if got := text(t, ctx, "#admin-email-error"); got != i18n.T(lang, "console.admins.err.email") {
				t.Errorf("the error beside the field = %q", got)
			}
			checkAxe(t, ctx)
			screenshot(t, ctx, "console-admins-"+lang+".png", 1024)
			shootBothWidths(t, ctx, "admins", lang)
			// Keyboard: Tab reaches the address field and the button.
			var seen []string
			for i := 0; i < 40 && (len(seen) == 0 || seen[len(seen)-1] != "invite-admin"); i++ {
				must(t, chromedp.Do(ctx, chromedp.KeyEvent("\t")))
				id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
				must(t, err)
				seen = append(seen, id)
			}
			if !strings.Contains(strings.Join(seen, " "), "admin-email invite-admin") {
				t.Errorf("Tab order does not reach the address field, then the button: %v", seen)
			}
		})
	}
}
