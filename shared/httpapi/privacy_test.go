package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/service"
)

// Issue 21 item 5: the anonymous view of an invitation holds what the
// acceptance page needs and none of the organization's internals; answers
// are neither cached nor sniffed.
func TestAnonymousInvitationViewIsMinimal(t *testing.T) {
	w := newWorld(t)
	exp := w.Now.Add(7 * 24 * time.Hour)
	res, err := w.Svc.Invite(context.Background(), root, service.InvitationInput{IntendedAuthority: "GUEST", SuppressSendingEmails: true,
		WithPlaceholders: []service.PlaceholderRecipient{{Email: "p@example.org", InternalPlaceholderIdentifier: "staff-4711"}},
		RoleIDs:          []int64{w.RoleA}, ExpiryDate: &exp, OrganizationGUID: "org-a"})
	if err != nil {
		t.Fatal(err)
	}
	link := res.URLs[0].InvitationURL
	rec := w.do("anonymous", "GET", "/api/v1/invitations/public?hash="+link[strings.Index(link, "hash=")+5:], "")
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	body := rec.Body.String()
	for _, leak := range []string{"staff-4711", "internalPlaceholderIdentifier", "org-a", "organizationGUID", "remoteApiUser", "urn:", `"urn"`, "identifier", "userRoleCount", "auditable"} {
		if strings.Contains(body, leak) {
			t.Errorf("anonymous view holds %q: %s", leak, body)
		}
	}
	view := decode[map[string]any](t, rec)
	roles := view["roles"].([]any)
	role := roles[0].(map[string]any)["role"].(map[string]any)
	if view["email"] != "p@example.org" || role["name"] != "Role A" || view["expiryDate"] == nil {
		t.Errorf("view lacks what the page shows: %s", body)
	}
	for _, caller := range []string{"anonymous", "super"} {
		rec := w.do(caller, "GET", "/api/v1/roles/{roleA}", "")
		if rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", caller, rec.Header())
		}
	}
}
