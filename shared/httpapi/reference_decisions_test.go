package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestMeAndMineOfAPITokens: as in the reference, an API token's users/me is
// the user the token acts as (an institution admin of its organization, or
// a super user), and its invitations/mine the open invitations it sent, on
// both prefixes; a person's list and another token's stay apart.
func TestMeAndMineOfAPITokens(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		caller, name, org string
		superUser, admin  bool
	}{
		{"orgToken", "org-a (API token 2)", "org-a", false, true},
		{"superToken", "super (API token 1)", "", true, false},
	} {
		for _, prefix := range []string{"/api/v1", "/api/external/v1"} {
			rec := w.do(tc.caller, "GET", prefix+"/users/me", "")
			me := decode[map[string]any](t, rec)
			if rec.Code != http.StatusOK || me["name"] != tc.name || me["superUser"] != tc.superUser || me["institutionAdmin"] != tc.admin ||
				(tc.org != "" && me["organizationGUID"] != tc.org) || me["id"] != nil || len(me["userRoles"].([]any)) != 0 {
				t.Errorf("%s %s/users/me: %d %v", tc.caller, prefix, rec.Code, me)
			}
		}
	}

	invite := func(caller, prefix, email string) {
		t.Helper()
		body := `{"intendedAuthority":"GUEST","invites":["` + email + `"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate},"suppressSendingEmails":true}`
		if rec := w.do(caller, "POST", prefix+"/invitations", body); rec.Code != http.StatusCreated {
			t.Fatalf("%s invites: %d %s", caller, rec.Code, rec.Body.String())
		}
	}
	invite("orgToken", "/api/external/v1", "by-org-token@example.org")
	invite("orgToken", "/api/v1", "by-org-token-2@example.org")
	invite("superToken", "/api/external/v1", "by-super-token@example.org")
	invite("manager", "/api/v1", "by-manager@example.org")

	for _, tc := range []struct{ caller, want string }{
		{"orgToken", "by-org-token-2@example.org,by-org-token@example.org"},
		{"superToken", "by-super-token@example.org"},
		{"manager", "by-manager@example.org"},
		{"instAdmin", ""},
	} {
		for _, prefix := range []string{"/api/v1", "/api/external/v1"} {
			rec := w.do(tc.caller, "GET", prefix+"/invitations/mine", "")
			mine := decode[[]httpapi.InvitationJSON](t, rec)
			if got := sortedEmails(mine); rec.Code != http.StatusOK || got != tc.want {
				t.Errorf("%s %s/invitations/mine: %d %q, want %q", tc.caller, prefix, rec.Code, got, tc.want)
			}
		}
	}

	// A deleted invitation is no longer the token's.
	mine := decode[[]httpapi.InvitationJSON](t, w.do("superToken", "GET", "/api/external/v1/invitations/mine", ""))
	if rec := w.do("superToken", "DELETE", "/api/external/v1/invitations/"+itoa(mine[0].ID), ""); rec.Code/100 != 2 {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body.String())
	}
	if left := decode[[]httpapi.InvitationJSON](t, w.do("superToken", "GET", "/api/external/v1/invitations/mine", "")); len(left) != 0 {
		t.Errorf("after delete: %q", sortedEmails(left))
	}
}

func sortedEmails(invs []httpapi.InvitationJSON) string {
	var out []string
	for _, inv := range invs {
		out = append(out, inv.Email)
	}
	for i := range out { // a handful: insertion sort keeps the helper small
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return strings.Join(out, ",")
}

// TestDecidedReferenceRoutes: the reference's routes that need a system
// this service does not have answer what the README's decisions say, with
// a message that tells the caller why (not a bare 404).
func TestDecidedReferenceRoutes(t *testing.T) {
	w := newWorld(t)
	w.Svc.PublicBaseURL = "https://invite.example.org"
	for _, tc := range []struct {
		name, caller, method, path string
		status                     int
		location, message          string
	}{
		{"Entra return goes to the welcome page", "anonymous", "GET", "/api/v1/users/ms-accept-return/wiki/{user:guest}", 302, "https://invite.example.org/", ""},
		{"Entra return, an unknown user too", "anonymous", "GET", "/api/external/v1/users/ms-accept-return/wiki/999999", 302, "https://invite.example.org/", ""},
		{"Entra return with a bad user id", "anonymous", "GET", "/api/v1/users/ms-accept-return/wiki/abc", 400, "", "userId must be a number"},
		{"eduID IdP for an inviter", "inviter", "GET", "/api/v1/manage/eduid-identity-provider", 404, "", "registers no identity providers"},
		{"eduID IdP for an organization token", "orgToken", "GET", "/api/external/v1/manage/eduid-identity-provider", 404, "", "eduID identity provider not found"},
		{"eduID IdP refused to a guest", "guest", "GET", "/api/v1/manage/eduid-identity-provider", 403, "", "INVITER"},
		{"organization GUID validation", "super", "GET", "/api/v1/manage/organization-guid-validation/org-a", 404, "", "no identity provider with organizationGUID org-a"},
		{"organization GUID validation refused", "instAdmin", "GET", "/api/external/v1/manage/organization-guid-validation/org-a", 403, "", "super users"},
		{"sign-in on the token prefix", "orgToken", "GET", "/api/external/v1/users/login", 403, "", "a browser uses GET /api/v1/users/login"},
		{"sign-out on the token prefix", "anonymous", "GET", "/api/external/v1/users/logout", 403, "", "a browser uses GET /api/v1/users/logout"},
		{"error report on the token prefix", "superToken", "POST", "/api/external/v1/users/error", 403, "", "a browser uses POST /api/v1/users/error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if tc.method == "POST" {
				body = `{"name":"TypeError"}`
			}
			rec := w.do(tc.caller, tc.method, tc.path, body)
			if rec.Code != tc.status || rec.Header().Get("Location") != tc.location || !strings.Contains(rec.Body.String(), tc.message) {
				t.Errorf("%d %q %s, want %d %q containing %q", rec.Code, rec.Header().Get("Location"), rec.Body.String(), tc.status, tc.location, tc.message)
			}
		})
	}
}

// TestDeprovisionDryRunPath: the reference's DELETE …/{sub}/dry-run reports
// what the erasure would remove, exactly as ?dry-run=true, and erases
// nothing.
func TestDeprovisionDryRunPath(t *testing.T) {
	w := newWorld(t)
	const sub = "/api/external/v1/deprovision/urn:collab:person:example.org:guest"
	byPath := w.do("super", "DELETE", sub+"/dry-run", "")
	byQuery := w.do("super", "DELETE", sub+"?dry-run=true", "")
	if byPath.Code != http.StatusOK || byPath.Body.String() != byQuery.Body.String() || !strings.Contains(byPath.Body.String(), "guest@example.org") {
		t.Fatalf("dry-run path %d %s\nquery %d %s", byPath.Code, byPath.Body.String(), byQuery.Code, byQuery.Body.String())
	}
	if _, err := w.Store.GetUser(context.Background(), w.Users["guest"].ID); err != nil {
		t.Errorf("the dry run erased the guest: %v", err)
	}
	if rec := w.do("orgToken", "DELETE", sub+"/dry-run", ""); rec.Code != http.StatusForbidden {
		t.Errorf("organization token: %d", rec.Code)
	}
}

// TestCRMSyncReport: per CRM role, the applications the registry no longer
// knows, in the reference's three lists; non-CRM roles and roles with
// nothing to report are left out.
func TestCRMSyncReport(t *testing.T) {
	w := newCRMWorld(t)
	rec := w.do("super", "GET", "/api/external/v1/system/crm/sync", "")
	if got := decode[map[string]any](t, rec); rec.Code != http.StatusOK || len(got) != 0 {
		t.Fatalf("with a full registry: %d %v", rec.Code, got)
	}
	noLMS, err := config.Parse([]byte(strings.Replace(testkit.Registry,
		`{"manageId": "lms", "manageType": "OIDC10_RP", "landingPage": "https://lms.example.org"},`, "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	w.Svc.Registry = noLMS
	rec = w.do("superToken", "GET", "/api/external/v1/system/crm/sync", "")
	got := decode[map[string]map[string][]map[string]string](t, rec)
	y, ok := got["CRM Role Y"]
	if rec.Code != http.StatusOK || len(got) != 1 || !ok || len(y["applications_missing_in_invite"]) != 0 || len(y["applications_missing_in_crm"]) != 0 ||
		len(y["crm_applications_missing_in_manage"]) != 1 || y["crm_applications_missing_in_manage"][0]["manageId"] != "lms" ||
		y["crm_applications_missing_in_manage"][0]["type"] != "OIDC10_RP" {
		t.Errorf("without lms: %d %s", rec.Code, rec.Body.String())
	}
}

// TestInvalidAddressesAreEachNamed: a deliberate difference (issue 18) —
// where the reference drops invalid addresses silently, the request is
// refused with every invalid address named, and nobody is invited.
func TestInvalidAddressesAreEachNamed(t *testing.T) {
	w := newWorld(t)
	mine := func() int {
		return len(decode[[]httpapi.InvitationJSON](t, w.do("manager", "GET", "/api/v1/invitations/mine", "")))
	}
	for _, tc := range []struct {
		name, invites string
		want          []string
	}{
		{"one invalid", `"ok@example.org","not-an-address"`, []string{`"not-an-address" is not a valid e-mail address`}},
		{"two invalid", `"Ann <ann@example.org>","ok@example.org","x@localhost"`,
			[]string{"2 recipients are not valid e-mail addresses", `"Ann <ann@example.org>"`, `"x@localhost"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := mine()
			rec := w.do("manager", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":[`+tc.invites+`],
				"roleIdentifiers":[{roleA}],"expiryDate":{futureDate},"suppressSendingEmails":true}`)
			msg := decode[map[string]any](t, rec)["message"]
			text, _ := msg.(string)
			for _, want := range tc.want {
				if rec.Code != http.StatusBadRequest || !strings.Contains(text, want) {
					t.Errorf("%d %q, want 400 naming %s", rec.Code, text, want)
				}
			}
			if strings.Contains(text, "ok@example.org") || mine() != before {
				t.Errorf("the valid address was named or invited: %q", text)
			}
		})
	}
}

// TestFederatedAccountCheckedAtAcceptance: a deliberate difference (issue
// 18) — a fedIDOnly invitation is accepted through the API only with a
// federated account (403 otherwise), not left to the client.
func TestFederatedAccountCheckedAtAcceptance(t *testing.T) {
	w := newWorld(t)
	fedOnly, err := w.Svc.CreateRole(context.Background(), root, service.RoleInput{Name: "Federated only", OrganizationGUID: "org-a",
		DefaultExpiryDays: 30, FedIDOnly: true, ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki"}}})
	if err != nil {
		t.Fatal(err)
	}
	ppl := w.API.Authenticator.People.(people)
	ppl["local"] = personOf("local")
	fed := personOf("fed")
	fed.FedID = "fed-pseudonym-1"
	ppl["fed"] = fed
	for _, tc := range []struct {
		caller string
		want   int
	}{{"local", http.StatusForbidden}, {"fed", http.StatusCreated}} {
		invs := w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["`+tc.caller+`@example.org"],"roleIdentifiers":[`+
			itoa(fedOnly.ID)+`],"expiryDate":{futureDate},"suppressSendingEmails":true}`)
		if res := w.acceptByAPI(tc.caller, invs[0]); res.Code != tc.want || (tc.want == http.StatusForbidden && !strings.Contains(res.Body, "federated account")) {
			t.Errorf("%s accepts: %d %s, want %d", tc.caller, res.Code, res.Body, tc.want)
		}
	}
}
