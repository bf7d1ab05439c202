package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestConsoleAuthorization calls every console page and form action as
// each kind of person (guest, inviter, manager, institution admin of
// another organization, super user) with their browser session: each
// either works or is refused with 403 (another organization's object: as
// a missing one, 404, or 400 for a role named in a form), and a refused
// form changes nothing.
func TestConsoleAuthorization(t *testing.T) {
	ctx := context.Background()
	store := stk.App.Store
	roleA := roleInOrg(t, "Authz A", "org-a")
	roleB := roleInOrg(t, "Authz B", "org-b")
	guest := makePerson(t, "Gus Guest", "gus.authz@example.org", roleA, "GUEST", nil)
	inviter := makePerson(t, "Ivy Inviter", "ivy.authz@example.org", roleA, "INVITER", nil)
	manager := makePerson(t, "Max Manager", "max.authz@example.org", roleA, "MANAGER", nil)
	adminB := makePerson(t, "Ada AdminB", "ada.authz@example.org", roleB, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, "org-b"
	})
	super := makePerson(t, "Sue Super", "sue.authz@example.org", roleB, "GUEST", func(u *domain.User) { u.SuperUser = true })
	target := makePerson(t, "Tom Target", "tom.authz@example.org", roleA, "GUEST", nil)
	body := map[string]any{"intendedAuthority": "GUEST", "invites": []string{"pending.authz@example.org"}, "roleIdentifiers": []int64{roleA},
		"expiryDate": clock.Now().Add(14 * 24 * time.Hour).Unix()}
	if got := api(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite = %d", got)
	}
	openInvs, err := store.ListOpenInvitationsOfRole(ctx, roleA)
	must(t, err)
	if len(openInvs) != 1 {
		t.Fatalf("open invitations of role A = %d", len(openInvs))
	}
	pending := openInvs[0]
	targetUR, err := store.GetUserRole(ctx, target.UserID, roleA)
	must(t, err)
	managerUR, err := store.GetUserRole(ctx, manager.UserID, roleA)
	must(t, err)

	type kind struct {
		name string
		p    consolePerson
	}
	kinds := []kind{{"guest", guest}, {"inviter", inviter}, {"manager", manager}, {"adminB", adminB}, {"super", super}}
	clients := map[string]sessionClient{}
	for _, k := range kinds {
		clients[k.name] = newSessionClient(t, consoleSignIn(t, k.p.person, "en"))
	}
	a := fmt.Sprint(roleA)
	ok, no, gone := http.StatusOK, http.StatusForbidden, http.StatusNotFound
	pages := []struct {
		path string
		want map[string]int
	}{
		{"/console", map[string]int{"guest": no, "inviter": ok, "manager": ok, "adminB": ok, "super": ok}},
		{"/console/roles", map[string]int{"guest": no, "inviter": ok, "manager": ok, "adminB": ok, "super": ok}},
		{"/console/roles/" + a, map[string]int{"guest": no, "inviter": ok, "manager": ok, "adminB": gone, "super": ok}},
		{"/console/roles/" + a + "/edit", map[string]int{"guest": no, "inviter": no, "manager": ok, "adminB": gone, "super": ok}},
		{"/console/roles/" + a + "/delete", map[string]int{"guest": no, "inviter": no, "manager": ok, "adminB": gone, "super": ok}},
		{"/console/roles/new", map[string]int{"guest": no, "inviter": no, "manager": no, "adminB": ok, "super": ok}},
		{"/console/invite?role=" + a, map[string]int{"guest": no, "inviter": ok, "manager": ok, "adminB": ok, "super": ok}},
		{"/console/people", map[string]int{"guest": no, "inviter": no, "manager": no, "adminB": ok, "super": ok}},
		{fmt.Sprintf("/console/people/%d", target.UserID), map[string]int{"guest": no, "inviter": no, "manager": ok, "adminB": gone, "super": ok}},
		{"/console/operations", map[string]int{"guest": no, "inviter": no, "manager": no, "adminB": no, "super": ok}},
		{"/console/audit", map[string]int{"guest": no, "inviter": no, "manager": no, "adminB": no, "super": ok}},
		{"/console/audit?role=" + a, map[string]int{"guest": no, "inviter": no, "manager": ok, "adminB": gone, "super": ok}},
		{"/console/tokens", map[string]int{"guest": no, "inviter": no, "manager": no, "adminB": ok, "super": ok}},
	}
	for _, pg := range pages {
		for _, k := range kinds {
			if got, _ := clients[k.name].do(t, "GET", pg.path, nil); got != pg.want[k.name] {
				t.Errorf("GET %s as %s = %d, want %d", pg.path, k.name, got, pg.want[k.name])
			}
		}
	}
	// What the role page offers follows the person's rights.
	offers := func(who, path, marker string) bool {
		_, html := clients[who].do(t, "GET", path, nil)
		return strings.Contains(html, marker)
	}
	removeManager := fmt.Sprintf(`/console/memberships/%d/remove`, managerUR.ID)
	if offers("inviter", "/console/roles/"+a, removeManager) || !offers("super", "/console/roles/"+a, removeManager) {
		t.Error("the remove button of the manager's membership: inviters must not see it, super users must")
	}
	if offers("inviter", "/console/roles/"+a, "/edit") || !offers("manager", "/console/roles/"+a, "/edit") {
		t.Error("the edit link: inviters must not see it, managers must")
	}
	if offers("inviter", "/console/invite?role="+a, `value="MANAGER"`) || !offers("manager", "/console/invite?role="+a, `value="INVITER"`) {
		t.Error("the invite form's authorities: an inviter may grant GUEST only, a manager INVITER too")
	}

	roleName := func() string {
		r, err := store.GetRole(ctx, roleA)
		must(t, err)
		return r.Name
	}
	nameBefore := roleName()
	endOf := func(urID int64, userID int64) string {
		ur, err := store.GetUserRole(ctx, userID, roleA)
		if err != nil {
			return "gone"
		}
		return fmt.Sprint(ur.EndDate)
	}
	targetEnd := endOf(targetUR.ID, target.UserID)
	roleCount := func() int {
		rs, err := store.ListAllRoles(ctx)
		must(t, err)
		return len(rs)
	}
	rolesBefore := roleCount()
	openCount := func() int {
		invs, err := store.ListOpenInvitationsOfRole(ctx, roleA)
		must(t, err)
		return len(invs)
	}
	tokenCount := func() int {
		toks, err := store.ListAPITokens(ctx, "")
		must(t, err)
		return len(toks)
	}
	tokensBefore := tokenCount()
	inFuture := clock.Now().AddDate(0, 2, 0).Format(time.DateOnly)
	posts := []struct {
		path      string
		form      url.Values
		refused   []string
		unchanged func() bool
		// adminB is what the other organization's admin gets, when refused
		// (0: 403).
		adminB int
	}{
		{"/console/roles/" + a + "/delete", url.Values{}, []string{"guest", "inviter", "adminB"}, func() bool { return roleName() == nameBefore }, gone},
		{"/console/roles/" + a + "/edit", url.Values{"name": {"Taken over"}}, []string{"guest", "inviter", "adminB"}, func() bool { return roleName() == nameBefore }, gone},
		{"/console/roles/new", url.Values{"name": {"Not allowed"}}, []string{"guest", "inviter", "manager"}, func() bool { return roleCount() == rolesBefore }, 0},
		{"/console/invite", url.Values{"role": {a}, "authority": {"GUEST"}, "recipients": {"new.authz@example.org"}, "expiry": {inFuture}},
			[]string{"guest", "adminB"}, func() bool { return openCount() == 1 }, http.StatusBadRequest},
		{"/console/invite", url.Values{"role": {a}, "authority": {"MANAGER"}, "recipients": {"new.authz@example.org"}, "expiry": {inFuture}},
			[]string{"inviter"}, func() bool { return openCount() == 1 }, 0},
		{fmt.Sprintf("/console/memberships/%d/end-date", targetUR.ID), url.Values{"role": {a}, "endDate": {inFuture}},
			[]string{"guest", "adminB"}, func() bool { return endOf(targetUR.ID, target.UserID) == targetEnd }, gone},
		{removeManager, url.Values{"role": {a}}, []string{"guest", "inviter", "adminB"}, func() bool { return endOf(managerUR.ID, manager.UserID) != "gone" }, gone},
		{fmt.Sprintf("/console/invitations/%d/delete", pending.ID), url.Values{"role": {a}}, []string{"guest", "adminB"}, func() bool { return openCount() == 1 }, gone},
		{fmt.Sprintf("/console/invitations/%d/resend", pending.ID), url.Values{"role": {a}}, []string{"guest", "adminB"}, func() bool {
			inv, err := store.GetInvitation(ctx, pending.ID)
			must(t, err)
			return inv.HashDigest == pending.HashDigest
		}, gone},
		{"/console/tokens", url.Values{"description": {"sneaky"}}, []string{"guest", "inviter", "manager"}, func() bool { return tokenCount() == tokensBefore }, 0},
		{"/console/tokens", url.Values{"description": {"sneaky"}, "super": {"1"}}, []string{"guest", "inviter", "manager"}, func() bool { return tokenCount() == tokensBefore }, 0},
		{"/console/operations/replay", url.Values{"sp": {"sample-sp"}}, []string{"guest", "inviter", "manager", "adminB"}, nil, 0},
		{"/console/operations/discard", url.Values{"sp": {"sample-sp"}}, []string{"guest", "inviter", "manager", "adminB"}, nil, 0},
	}
	for _, post := range posts {
		for _, who := range post.refused {
			want := http.StatusForbidden
			if who == "adminB" && post.adminB != 0 {
				want = post.adminB
			}
			if got, _ := clients[who].do(t, "POST", post.path, post.form); got != want {
				t.Errorf("POST %s as %s = %d, want %d", post.path, who, got, want)
			}
			if post.unchanged != nil && !post.unchanged() {
				t.Errorf("POST %s as %s changed something", post.path, who)
			}
		}
	}
	// Nobody signed in: pages send to the sign-in, forms are refused.
	anon := sessionClient{}
	if got, _ := anon.do(t, "GET", "/console/roles/"+a, nil); got != http.StatusSeeOther {
		t.Errorf("GET a role page anonymously = %d, want 303 to the sign-in", got)
	}
	if got, _ := anon.do(t, "POST", "/console/roles/"+a+"/delete", url.Values{}); got != http.StatusForbidden || roleName() != nameBefore {
		t.Errorf("POST delete anonymously = %d, want 403", got)
	}
	// Allowed actions work: the inviter sets the guest's end date, the super
	// user renames the role.
	if got, _ := clients["inviter"].do(t, "POST", fmt.Sprintf("/console/memberships/%d/end-date", targetUR.ID), url.Values{"role": {a}, "endDate": {inFuture}}); got != http.StatusSeeOther {
		t.Errorf("inviter sets a guest's end date = %d, want 303", got)
	}
	if endOf(targetUR.ID, target.UserID) == targetEnd {
		t.Error("the inviter's end date did not change the membership")
	}
	if got, html := clients["super"].do(t, "POST", "/console/roles/"+a+"/edit", url.Values{"name": {nameBefore + " renamed"}, "days": {"30"}, "app0": {"1"}, "landing0": {"https://wiki.example.org/"}, "organization": {"org-a"}}); got != http.StatusSeeOther || roleName() != nameBefore+" renamed" {
		t.Errorf("super user renames the role = %d, name %q: %s", got, roleName(), html)
	}
}
