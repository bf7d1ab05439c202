package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// Rules of OpenConext-Invite that its users depend on (issue 18), each
// through the HTTP API as the reference's own tests do.

// sentInvitation is one invitation sent through the API.
type sentInvitation struct {
	ID     int64
	Secret string
}

// inviteByAPI sends an invitation as a caller and returns each recipient's
// invitation, failing the test unless the answer is 201.
func (w *world) inviteByAPI(caller, body string) []sentInvitation {
	w.t.Helper()
	rec := w.do(caller, "POST", "/api/v1/invitations", body)
	if rec.Code != http.StatusCreated {
		w.t.Fatalf("invitation by %s: %d %s", caller, rec.Code, rec.Body.String())
	}
	res := decode[struct {
		URLs []struct {
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
	}](w.t, rec)
	var out []sentInvitation
	for _, u := range res.URLs {
		secret := testkit.SecretOfURL(w.t, u.InvitationURL)
		inv, err := w.Store.GetInvitationByHashDigest(context.Background(), service.HashDigest(secret))
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, sentInvitation{ID: inv.ID, Secret: secret})
	}
	return out
}

// signIn makes a person known to the test IdP under a caller name.
func (w *world) signIn(name string) {
	w.API.Authenticator.People.(people)[name] = personOf(name)
}

func (w *world) acceptByAPI(caller string, inv sentInvitation) *httpTestResponse {
	w.t.Helper()
	rec := w.do(caller, "POST", "/api/v1/invitations/accept", `{"hash":"`+inv.Secret+`","invitationId":`+itoa(inv.ID)+`}`)
	return &httpTestResponse{Code: rec.Code, Body: rec.Body.String()}
}

type httpTestResponse struct {
	Code int
	Body string
}

func kindsOf(ds []domain.Delivery) string {
	var got []string
	for _, d := range ds {
		got = append(got, d.SPID+" "+string(d.Kind))
	}
	return strings.Join(got, ", ")
}

// Rule 1: accepting an INSTITUTION_ADMIN invitation makes the person an
// institution admin of the invitation's organization, with the rights from
// the next request on.
func TestAcceptingAnInstitutionAdminInvitationMakesAnInstitutionAdmin(t *testing.T) {
	w := newWorld(t)
	w.signIn("newadmin")
	// Before: the person may not create a role in org-a.
	role := `{"name":"Made by the new admin","organizationGUID":"org-a","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki","manageType":"SAML20_SP"}}]}`
	if rec := w.do("newadmin", "POST", "/api/v1/roles", role); rec.Code != http.StatusForbidden {
		t.Fatalf("before acceptance: %d, want 403", rec.Code)
	}
	invs := w.inviteByAPI("super", `{"intendedAuthority":"INSTITUTION_ADMIN","invites":["newadmin@example.org"],
		"roleIdentifiers":[{roleA}],"organizationGUID":"org-a","expiryDate":{futureDate},"suppressSendingEmails":true}`)
	before := len(w.Queue.Deliveries())
	if res := w.acceptByAPI("newadmin", invs[0]); res.Code != http.StatusCreated {
		t.Fatalf("accept: %d %s", res.Code, res.Body)
	}
	me := decode[struct {
		InstitutionAdmin         bool   `json:"institutionAdmin"`
		InstitutionAdminByInvite bool   `json:"institutionAdminByInvite"`
		OrganizationGUID         string `json:"organizationGUID"`
	}](t, w.do("newadmin", "GET", "/api/v1/users/me", ""))
	if !me.InstitutionAdmin || !me.InstitutionAdminByInvite || me.OrganizationGUID != "org-a" {
		t.Fatalf("users/me after acceptance: %+v", me)
	}
	if rec := w.do("newadmin", "POST", "/api/v1/roles", role); rec.Code != http.StatusCreated {
		t.Fatalf("role created by the new institution admin: %d %s", rec.Code, rec.Body.String())
	}
	// An institution admin is not a guest: nothing reached the SPs for them.
	if got := kindsOf(w.Queue.Deliveries()[before:]); strings.Contains(got, "member.add") || strings.Contains(got, "user.create") {
		t.Fatalf("deliveries for an institution admin: %s", got)
	}
}

// Rule 2: only memberships with GUEST authority or guestRoleIncluded reach
// the applications.
func TestOnlyGuestMembershipsAreProvisioned(t *testing.T) {
	const both = "sp-a user.create, sp-a member.add, sp-b user.create, sp-b member.add"
	for _, tc := range []struct {
		authority string
		guestRole bool
		want      string
	}{
		{"GUEST", false, both},
		{"GUEST", true, both},
		{"INVITER", false, ""},
		{"INVITER", true, both},
		{"MANAGER", false, ""},
		{"MANAGER", true, both},
		{"INSTITUTION_ADMIN", false, ""},
	} {
		name := tc.authority + map[bool]string{true: "+guest", false: ""}[tc.guestRole]
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.signIn("zoe")
			guestRole := map[bool]string{true: "true", false: "false"}[tc.guestRole]
			invs := w.inviteByAPI("super", `{"intendedAuthority":"`+tc.authority+`","invites":["zoe@example.org"],"roleIdentifiers":[{roleA}],
				"organizationGUID":"org-a","guestRoleIncluded":`+guestRole+`,"expiryDate":{futureDate},"suppressSendingEmails":true}`)
			before := len(w.Queue.Deliveries())
			if res := w.acceptByAPI("zoe", invs[0]); res.Code != http.StatusCreated {
				t.Fatalf("accept: %d %s", res.Code, res.Body)
			}
			if got := kindsOf(w.Queue.Deliveries()[before:]); got != tc.want {
				t.Fatalf("deliveries %q, want %q", got, tc.want)
			}
		})
	}
}

// Rule 2 at user-role provisioning: provisioning an inviter directly sends nothing to the SPs.
func TestProvisioningANonGuestSendsNothing(t *testing.T) {
	w := newWorld(t)
	before := len(w.Queue.Deliveries())
	rec := w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
		`{"roleIdentifiers":[{roleA}],"email":"ina@example.org","intendedAuthority":"INVITER"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("provisioning: %d %s", rec.Code, rec.Body.String())
	}
	if got := kindsOf(w.Queue.Deliveries()[before:]); got != "" {
		t.Fatalf("deliveries for an inviter: %q", got)
	}
}

// Rule 3: a guest who accepts a higher authority to the same role keeps
// the guest role; a manager who accepts a guest invitation gains it and only
// then reaches the applications.
func TestAcceptingAnotherAuthorityToAHeldRole(t *testing.T) {
	for _, tc := range []struct {
		holder        string // a caller of the world with a membership of role A
		intended      string
		wantAuthority domain.Authority
		wantDelivered string
	}{
		{"guest", "MANAGER", domain.Manager, ""},
		{"guest", "INVITER", domain.Inviter, ""},
		{"manager", "GUEST", domain.Manager, "sp-a user.create, sp-a member.add, sp-b user.create, sp-b member.add"},
		{"inviter", "GUEST", domain.Inviter, "sp-a user.create, sp-a member.add, sp-b user.create, sp-b member.add"},
	} {
		t.Run(tc.holder+" accepts "+tc.intended, func(t *testing.T) {
			w := newWorld(t)
			invs := w.inviteByAPI("super", `{"intendedAuthority":"`+tc.intended+`","invites":["`+tc.holder+`@example.org"],
				"roleIdentifiers":[{roleA}],"expiryDate":{futureDate},"suppressSendingEmails":true}`)
			before := len(w.Queue.Deliveries())
			if res := w.acceptByAPI(tc.holder, invs[0]); res.Code != http.StatusCreated {
				t.Fatalf("accept: %d %s", res.Code, res.Body)
			}
			ur, err := w.Store.GetUserRole(context.Background(), w.Users[tc.holder].ID, w.RoleA)
			if err != nil {
				t.Fatal(err)
			}
			if ur.Authority != tc.wantAuthority || !ur.GuestRoleIncluded {
				t.Fatalf("membership %s guestRoleIncluded=%v, want %s with the guest role", ur.Authority, ur.GuestRoleIncluded, tc.wantAuthority)
			}
			if got := kindsOf(w.Queue.Deliveries()[before:]); got != tc.wantDelivered {
				t.Fatalf("deliveries %q, want %q", got, tc.wantDelivered)
			}
		})
	}
}

// Rule 5: the accept answers 412 for another e-mail address, 404 for an
// absent, zero or other invitationId, and carries "status": "ok".
func TestAcceptAnswers(t *testing.T) {
	w := newWorld(t)
	w.signIn("zoe")
	w.signIn("yan")
	strict, err := w.Svc.CreateRole(context.Background(), root, service.RoleInput{Name: "Strict", OrganizationGUID: "org-a",
		DefaultExpiryDays: 30, EnforceEmailEquality: true, ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	invs := w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["zoe@example.org"],"roleIdentifiers":[`+itoa(strict.ID)+`],
		"expiryDate":{futureDate},"suppressSendingEmails":true}`)
	inv := invs[0]
	for _, tc := range []struct {
		name, caller, body string
		want               int
	}{
		{"no invitationId", "zoe", `{"hash":"` + inv.Secret + `"}`, http.StatusNotFound},
		{"invitationId 0", "zoe", `{"hash":"` + inv.Secret + `","invitationId":0}`, http.StatusNotFound},
		{"another invitationId", "zoe", `{"hash":"` + inv.Secret + `","invitationId":` + itoa(inv.ID+1000) + `}`, http.StatusNotFound},
		{"another e-mail address", "yan", `{"hash":"` + inv.Secret + `","invitationId":` + itoa(inv.ID) + `}`, http.StatusPreconditionFailed},
		{"the invitee", "zoe", `{"hash":"` + inv.Secret + `","invitationId":` + itoa(inv.ID) + `}`, http.StatusCreated},
	} {
		rec := w.do(tc.caller, "POST", "/api/v1/invitations/accept", tc.body)
		if rec.Code != tc.want {
			t.Fatalf("%s: %d %s, want %d", tc.name, rec.Code, rec.Body.String(), tc.want)
		}
		if tc.want == http.StatusCreated {
			if body := decode[map[string]any](t, rec); body["status"] != "ok" {
				t.Fatalf("accept body %v: no \"status\": \"ok\"", body)
			}
		}
	}
}

// Super users named in configuration (SUPER_USERS), by subject or eppn.
func TestSuperUsersNamedInConfiguration(t *testing.T) {
	role := `{"name":"By a configured super user","organizationGUID":"org-b","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms","manageType":"OIDC10_RP"}}]}`
	for _, tc := range []struct {
		name       string
		superUsers []string
		caller     string
		want       int
	}{
		{"not named", nil, "guest", http.StatusForbidden},
		{"named by eppn", []string{"guest@example.org"}, "guest", http.StatusCreated},
		{"named by subject", []string{"urn:collab:person:example.org:guest"}, "guest", http.StatusCreated},
		{"unknown person named", []string{"urn:collab:person:example.org:newcomer"}, "newcomer", http.StatusCreated},
		{"another person named", []string{"inviter@example.org"}, "guest", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.signIn("newcomer")
			w.API.Authenticator.SuperUsers = tc.superUsers
			if rec := w.do(tc.caller, "POST", "/api/v1/roles", role); rec.Code != tc.want {
				t.Fatalf("role creation: %d %s, want %d", rec.Code, rec.Body.String(), tc.want)
			}
		})
	}
}

// Rule 4: the roles decide an invitation's acceptance conditions unless
// every role allows overriding them.
func TestRoleSettingsDecideUnlessEveryRoleAllowsOverride(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	mk := func(name string, in service.RoleInput) int64 {
		in.Name, in.OrganizationGUID, in.DefaultExpiryDays = name, "org-a", 30
		in.ApplicationUsages = []service.ApplicationUsageInput{{ManageID: "wiki"}}
		r, err := w.Svc.CreateRole(ctx, root, in)
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	const mfa = "https://refeds.org/profile/mfa"
	strict := mk("Strict", service.RoleInput{EnforceEmailEquality: true, FedIDOnly: true, RequestedAuthnContext: mfa})
	loose := mk("Loose", service.RoleInput{})
	strictOverride := mk("Strict, override allowed", service.RoleInput{EnforceEmailEquality: true, FedIDOnly: true,
		RequestedAuthnContext: mfa, OverrideSettingsAllowed: true})
	looseOverride := mk("Loose, override allowed", service.RoleInput{OverrideSettingsAllowed: true})
	const weaken = `"enforceEmailEquality":false,"fedIDOnly":false,"requestedAuthnContext":""`
	const strengthen = `"enforceEmailEquality":true,"fedIDOnly":true,"requestedAuthnContext":"` + mfa + `"`
	type settings struct {
		email, fedID bool
		acr          string
	}
	for _, tc := range []struct {
		name    string
		roles   []int64
		request string
		want    settings
	}{
		{"strict role, weakened request", []int64{strict}, weaken, settings{true, true, mfa}},
		{"strict role, nothing requested", []int64{strict}, `"message":"hi"`, settings{true, true, mfa}},
		{"loose role, strengthened request", []int64{loose}, strengthen, settings{false, false, ""}},
		{"strict role allowing override, weakened request", []int64{strictOverride}, weaken, settings{false, false, mfa}},
		{"strict role allowing override, nothing requested", []int64{strictOverride}, `"message":"hi"`, settings{true, true, mfa}},
		{"loose role allowing override, strengthened request", []int64{looseOverride}, strengthen, settings{true, true, mfa}},
		{"one of two roles does not allow override", []int64{strictOverride, loose}, weaken, settings{true, true, mfa}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []string
			for _, id := range tc.roles {
				ids = append(ids, itoa(id))
			}
			invs := w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["x@example.org"],"roleIdentifiers":[`+
				strings.Join(ids, ",")+`],"expiryDate":{futureDate},"suppressSendingEmails":true,`+tc.request+`}`)
			inv, err := w.Store.GetInvitation(ctx, invs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			// An empty requestedAuthnContext in the request is no value: the
			// role's stays, so only a role's absence leaves it empty.
			if got := (settings{inv.EnforceEmailEquality, inv.FedIDOnly, inv.RequestedAuthnContext}); got != tc.want {
				t.Fatalf("invitation carries %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Rule 8: both recipient lists in one request, each address once; the
// answer names the invitations.
func TestBothRecipientListsInOneRequest(t *testing.T) {
	w := newWorld(t)
	rec := w.do("super", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","roleIdentifiers":[{roleA}],
		"invites":["plain@example.org","both@example.org"],
		"invitesWithInternalPlaceholderIdentifiers":[{"email":"both@example.org","internalPlaceholderIdentifier":"id-both"},
			{"email":"placed@example.org","internalPlaceholderIdentifier":"id-placed"}],
		"expiryDate":{futureDate},"suppressSendingEmails":true}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	res := decode[struct {
		URLs []struct {
			Recipient string `json:"recipient"`
		} `json:"recipientInvitationURLs"`
		IDs []int64 `json:"invitationIdentifiers"`
	}](t, rec)
	var recipients []string
	for _, u := range res.URLs {
		recipients = append(recipients, u.Recipient)
	}
	if got := strings.Join(recipients, " "); got != "both@example.org placed@example.org plain@example.org" {
		t.Fatalf("recipients %q", got)
	}
	if len(res.IDs) != 3 {
		t.Fatalf("invitationIdentifiers %v, want 3", res.IDs)
	}
	want := map[string]string{"both@example.org": "id-both", "placed@example.org": "id-placed", "plain@example.org": ""}
	for _, id := range res.IDs {
		inv, err := w.Store.GetInvitation(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if ph, ok := want[inv.Email]; !ok || inv.InternalPlaceholderIdentifier != ph {
			t.Errorf("invitation %d: %s with placeholder %q", id, inv.Email, inv.InternalPlaceholderIdentifier)
		}
	}
}

// Rule 9 and role-less institution admin invitations.
func TestInvitationsWithoutRoles(t *testing.T) {
	for _, tc := range []struct {
		name, caller, body string
		want               int
		wantOrg            string
	}{
		{"inviter without roles", "super", `"intendedAuthority":"INVITER"`, http.StatusConflict, ""},
		{"guest without roles", "manager", `"intendedAuthority":"GUEST","roleIdentifiers":[]`, http.StatusConflict, ""},
		{"institution admin by a super user", "super", `"intendedAuthority":"INSTITUTION_ADMIN","organizationGUID":"org-b"`, http.StatusCreated, "org-b"},
		{"institution admin by a super user, no organization", "super", `"intendedAuthority":"INSTITUTION_ADMIN"`, http.StatusBadRequest, ""},
		{"institution admin by an institution admin", "instAdmin", `"intendedAuthority":"INSTITUTION_ADMIN","organizationGUID":"org-b"`, http.StatusCreated, "org-a"},
		{"institution admin by a manager", "manager", `"intendedAuthority":"INSTITUTION_ADMIN"`, http.StatusForbidden, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			rec := w.do(tc.caller, "POST", "/api/v1/invitations", `{"invites":["x@example.org"],"expiryDate":{futureDate},"suppressSendingEmails":true,`+tc.body+`}`)
			if rec.Code != tc.want {
				t.Fatalf("%d %s, want %d", rec.Code, rec.Body.String(), tc.want)
			}
			if tc.wantOrg == "" {
				return
			}
			ids := decode[struct {
				IDs []int64 `json:"invitationIdentifiers"`
			}](t, rec).IDs
			inv, err := w.Store.GetInvitation(context.Background(), ids[0])
			if err != nil || inv.OrganizationGUID != tc.wantOrg {
				t.Fatalf("invitation organization %q (%v), want %q", inv.OrganizationGUID, err, tc.wantOrg)
			}
		})
	}
}

// Rule 9: an end date in the past answers 409.
func TestPastEndDateOfAMembershipConflicts(t *testing.T) {
	w := newWorld(t)
	rec := w.do("super", "PUT", "/api/v1/user_roles", `{"userRoleId":{userRole:guest},"endDate":{pastDate}}`)
	if rec.Code != http.StatusConflict {
		t.Fatalf("%d %s, want 409", rec.Code, rec.Body.String())
	}
}

// Rule 1 without roles: the invitation names only the organization.
func TestAcceptingARolelessInstitutionAdminInvitation(t *testing.T) {
	w := newWorld(t)
	w.signIn("admb")
	invs := w.inviteByAPI("super", `{"intendedAuthority":"INSTITUTION_ADMIN","invites":["admb@example.org"],
		"organizationGUID":"org-b","expiryDate":{futureDate},"suppressSendingEmails":true}`)
	if res := w.acceptByAPI("admb", invs[0]); res.Code != http.StatusCreated {
		t.Fatalf("accept: %d %s", res.Code, res.Body)
	}
	u, err := w.Store.GetUserBySub(context.Background(), personOf("admb").Sub)
	if err != nil || !u.InstitutionAdmin || !u.InstitutionAdminByInvite || u.OrganizationGUID != "org-b" {
		t.Fatalf("user after acceptance: %+v (%v)", u, err)
	}
	// The institution admin of org-b may manage role B, not role A.
	if rec := w.do("admb", "GET", "/api/v1/roles/{roleB}", ""); rec.Code != http.StatusOK {
		t.Fatalf("role B: %d", rec.Code)
	}
	// Another organization's role answers as a missing one.
	if rec := w.do("admb", "DELETE", "/api/v1/roles/{roleA}", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("deleting role A of org-a: %d, want 404", rec.Code)
	}
}

// Rule 7: callers of an organization create and keep roles in their own;
// a super user names one; a manager's change of the applications is
// ignored, not refused.
func TestRoleOrganizationIsTheCallers(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	for _, tc := range []struct {
		caller, org string
		want        int
		wantOrg     string
	}{
		{"instAdmin", "org-b", http.StatusCreated, "org-a"},
		{"orgToken", "org-c", http.StatusCreated, "org-a"},
		{"instAdmin", "", http.StatusCreated, "org-a"},
		{"super", "org-b", http.StatusCreated, "org-b"},
		{"super", "", http.StatusForbidden, ""},
	} {
		name := "Role by " + tc.caller + " for " + tc.org
		rec := w.do(tc.caller, "POST", "/api/v1/roles", `{"name":"`+name+`","organizationGUID":"`+tc.org+`","defaultExpiryDays":30,
			"applicationUsages":[{"application":{"manageId":"lms","manageType":"OIDC10_RP"}}]}`)
		if rec.Code != tc.want {
			t.Fatalf("%s: %d %s, want %d", name, rec.Code, rec.Body.String(), tc.want)
		}
		if tc.want != http.StatusCreated {
			continue
		}
		role := decode[struct {
			ID int64 `json:"id"`
		}](t, rec)
		if stored, err := w.Store.GetRole(ctx, role.ID); err != nil || stored.OrganizationGUID != tc.wantOrg {
			t.Fatalf("%s: stored in %q (%v), want %q", name, stored.OrganizationGUID, err, tc.wantOrg)
		}
	}
	for _, tc := range []struct {
		name, caller, body string
		wantOrg            string
		wantApps           string
	}{
		{"institution admin names another organization", "instAdmin", roleBody(w.RoleA, "Role A", "", "org-b", "wiki"), "org-a", "wiki"},
		{"manager changes the applications", "manager", roleBody(w.RoleA, "Role A, renamed", "", "", "wiki", "lms"), "org-a", "wiki"},
		{"institution admin changes the applications", "instAdmin", roleBody(w.RoleA, "Role A", "", "", "wiki", "lms"), "org-a", "wiki lms"},
	} {
		rec := w.do(tc.caller, "PUT", "/api/v1/roles", tc.body)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", tc.name, rec.Code, rec.Body.String())
		}
		stored, err := w.Store.GetRole(ctx, w.RoleA)
		if err != nil || stored.OrganizationGUID != tc.wantOrg || strings.Join(stored.ManageIDs(), " ") != tc.wantApps {
			t.Fatalf("%s: stored %q with %v (%v), want %q with %s", tc.name, stored.OrganizationGUID, stored.ManageIDs(), err, tc.wantOrg, tc.wantApps)
		}
	}
}

// Rule 10: an expired invitation answers 410 and is kept; resending it (by
// either route) extends it and keeps the same link.
func TestExpiredInvitationIsKeptAndResentWithTheSameLink(t *testing.T) {
	for _, path := range []string{"/api/v1/invitations/", "/api/external/v1/internal/invite/invitations/"} {
		t.Run(path, func(t *testing.T) {
			w := newWorld(t)
			w.signIn("late")
			invs := w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["late@example.org"],"roleIdentifiers":[{roleA}],
				"expiryDate":{futureDate},"suppressSendingEmails":true}`)
			w.Now = w.Now.Add(40 * 24 * time.Hour) // {futureDate} is 30 days ahead
			if rec := w.do("anonymous", "GET", "/api/v1/invitations/public?hash="+url.QueryEscape(invs[0].Secret), ""); rec.Code != http.StatusGone {
				t.Fatalf("expired link: %d, want 410", rec.Code)
			}
			if res := w.acceptByAPI("late", invs[0]); res.Code != http.StatusGone {
				t.Fatalf("accepting an expired invitation: %d, want 410", res.Code)
			}
			rec := w.do("super", "PUT", path+itoa(invs[0].ID), "")
			if rec.Code != http.StatusCreated {
				t.Fatalf("resend: %d %s", rec.Code, rec.Body.String())
			}
			link := decode[struct {
				URLs []struct {
					InvitationURL string `json:"invitationURL"`
				} `json:"recipientInvitationURLs"`
			}](t, rec).URLs[0].InvitationURL
			if !strings.HasSuffix(link, "hash="+url.QueryEscape(invs[0].Secret)) {
				t.Fatalf("resent link %q is not the original one", link)
			}
			if res := w.acceptByAPI("late", invs[0]); res.Code != http.StatusCreated {
				t.Fatalf("accepting the resent invitation by its first link: %d %s", res.Code, res.Body)
			}
		})
	}
}

// Console routes (item 12): their answers, beside the matrix's statuses.
func TestConsoleRoutesAnswer(t *testing.T) {
	w := newWorld(t)
	managers := decode[[]string](t, w.do("inviter", "GET", "/api/v1/user_roles/managers/{roleA}", ""))
	if strings.Join(managers, " ") != "manager@example.org" {
		t.Errorf("managers of role A: %q", managers)
	}
	consequences := decode[[]struct {
		Authority string         `json:"authority"`
		UserInfo  map[string]any `json:"userInfo"`
	}](t, w.do("instAdmin", "GET", "/api/v1/user_roles/consequences/{roleA}", ""))
	var got []string
	for _, c := range consequences {
		got = append(got, c.Authority+" "+c.UserInfo["email"].(string))
	}
	slicesSort(got)
	if want := "APPLICATION_MANAGER appManager@example.org, GUEST guest@example.org, INVITER inviter@example.org, MANAGER manager@example.org"; strings.Join(got, ", ") != want {
		t.Errorf("consequences %q, want %q", got, want)
	}
	for _, tc := range []struct{ body, want string }{
		{`{"type":"email","value":"a@example.org"}`, `{"valid":true}`},
		{`{"type":"email","value":"Ann <a@example.org>"}`, `{"valid":false}`},
		{`{"type":"url","value":"https://example.org/x"}`, `{"valid":true}`},
		{`{"type":"url","value":"javascript:alert(1)"}`, `{"valid":false}`},
	} {
		rec := w.do("guest", "POST", "/api/v1/validations/validate", tc.body)
		if strings.TrimSpace(rec.Body.String()) != tc.want {
			t.Errorf("validate %s: %s, want %s", tc.body, rec.Body.String(), tc.want)
		}
	}
	if rec := w.do("guest", "POST", "/api/v1/validations/validate", `{"type":"iban","value":"x"}`); rec.Code != http.StatusBadRequest {
		t.Errorf("unknown format: %d, want 400", rec.Code)
	}
}

// An institution admin made by invitation can be removed by an institution
// admin of the same organization; the lists follow.
func TestRemoveInstitutionAdmin(t *testing.T) {
	w := newWorld(t)
	w.signIn("newadmin")
	invs := w.inviteByAPI("super", `{"intendedAuthority":"INSTITUTION_ADMIN","invites":["newadmin@example.org"],
		"organizationGUID":"org-a","expiryDate":{futureDate},"suppressSendingEmails":true}`)
	if res := w.acceptByAPI("newadmin", invs[0]); res.Code != http.StatusCreated {
		t.Fatalf("accept: %d %s", res.Code, res.Body)
	}
	admins := func() string {
		var emails []string
		for _, u := range decode[[]struct {
			Email string `json:"email"`
		}](t, w.do("instAdmin", "GET", "/api/v1/users/institutionAdmins", "")) {
			emails = append(emails, u.Email)
		}
		slicesSort(emails)
		return strings.Join(emails, " ")
	}
	if got := admins(); got != "instAdmin@example.org newadmin@example.org" {
		t.Fatalf("institution admins of org-a: %q", got)
	}
	u, err := w.Store.GetUserBySub(context.Background(), personOf("newadmin").Sub)
	if err != nil {
		t.Fatal(err)
	}
	if rec := w.do("manager", "PUT", "/api/v1/users/removeInstitutionAdmin/"+itoa(u.ID), ""); rec.Code != http.StatusForbidden {
		t.Fatalf("a manager removing: %d, want 403", rec.Code)
	}
	if rec := w.do("instAdmin", "PUT", "/api/v1/users/removeInstitutionAdmin/"+itoa(u.ID), ""); rec.Code != http.StatusOK {
		t.Fatalf("removing: %d %s", rec.Code, rec.Body.String())
	}
	if got := admins(); got != "instAdmin@example.org" {
		t.Fatalf("institution admins of org-a after removal: %q", got)
	}
	role := `{"name":"Too late","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki","manageType":"SAML20_SP"}}]}`
	if rec := w.do("newadmin", "POST", "/api/v1/roles", role); rec.Code != http.StatusForbidden {
		t.Fatalf("the former institution admin creating a role: %d, want 403", rec.Code)
	}
}

func slicesSort(s []string) { sort.Strings(s) }

// Rule 15: the sort keys the reference's client sends are accepted and sort.
func TestReferenceClientSortKeys(t *testing.T) {
	w := newWorld(t)
	roles := decode[struct {
		Content []struct {
			Name          string `json:"name"`
			UserRoleCount int64  `json:"userRoleCount"`
		} `json:"content"`
	}](t, w.do("super", "GET", "/api/v1/roles?force=false&sort=userRoleCount&sortDirection=DESC", ""))
	var names []string
	for _, r := range roles.Content {
		names = append(names, r.Name)
	}
	if strings.Join(names, ", ") != "Role A, Role C, Role B" {
		t.Errorf("roles by userRoleCount, descending: %q", names)
	}
	// A second invitation that expires sooner than the world's open one.
	w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["soon@example.org"],"roleIdentifiers":[{roleA}],
		"expiryDate":`+itoa(w.Now.Add(24*time.Hour).Unix())+`,"suppressSendingEmails":true}`)
	for _, sort := range []string{"expiry_date", "created_at", "intended_authority"} {
		rec := w.do("super", "GET", "/api/v1/invitations/search?roleId={roleA}&sort="+sort, "")
		if rec.Code != http.StatusOK {
			t.Fatalf("invitations by %s: %d %s", sort, rec.Code, rec.Body.String())
		}
		if sort != "expiry_date" {
			continue
		}
		page := decode[struct {
			Content []struct {
				Email string `json:"email"`
			} `json:"content"`
		}](t, rec)
		if len(page.Content) != 2 || page.Content[0].Email != "soon@example.org" {
			t.Errorf("invitations by expiry_date: %+v", page.Content)
		}
	}
	for _, path := range []string{"/api/v1/user_roles/search/{roleA}/false?sort=end_date", "/api/v1/user_roles_audit/search?sort=endDate"} {
		if rec := w.do("super", "GET", path, ""); rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
}

func TestAuditRolesByScope(t *testing.T) {
	w := newWorld(t)
	for caller, want := range map[string]string{"super": "Role A, Role B, Role C", "instAdmin": "Role A", "orgToken": "Role A"} {
		var names []string
		for _, r := range decode[[]struct {
			Name string `json:"name"`
		}](t, w.do(caller, "GET", "/api/v1/user_roles_audit/roles", "")) {
			names = append(names, r.Name)
		}
		if strings.Join(names, ", ") != want {
			t.Errorf("%s: %q, want %s", caller, names, want)
		}
	}
}
