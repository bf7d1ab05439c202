package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
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
		parsed, err := url.Parse(u.InvitationURL)
		if err != nil {
			w.t.Fatal(err)
		}
		secret := parsed.Query().Get("hash")
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

// Rule 2 at U8: provisioning an inviter directly sends nothing to the SPs.
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
