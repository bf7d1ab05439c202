package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// An invitation to more roles than its acceptance could save answers the
// error body with 400, saying how many roles fit, and creates nothing.
func TestInvitationToTooManyRolesIsRefused(t *testing.T) {
	w := newWorld(t)
	var ids []string
	var roleIDs []int64
	for i := range 12 {
		rec := w.do("super", "POST", "/api/v1/roles", `{"name":"Many `+itoa(int64(i))+`","organizationGUID":"org-a","applicationUsages":[{"application":{"manageId":"wiki"}}]}`)
		if rec.Code != http.StatusCreated {
			t.Fatalf("role: %d %s", rec.Code, rec.Body.String())
		}
		id := int64(decode[map[string]any](t, rec)["id"].(float64))
		ids, roleIDs = append(ids, itoa(id)), append(roleIDs, id)
	}
	rec := w.do("super", "POST", "/api/v1/invitations", `{"intendedAuthority":"MANAGER","guestRoleIncluded":true,"invites":["many@example.org"],`+
		`"roleIdentifiers":[`+strings.Join(ids, ",")+`],"suppressSendingEmails":true,"expiryDate":{futureDate}}`)
	body := decode[map[string]any](t, rec)
	msg, _ := body["message"].(string)
	if rec.Code != http.StatusBadRequest || body["status"] != float64(400) || !strings.Contains(msg, "at most") || !strings.Contains(msg, "fewer roles") {
		t.Fatalf("status %d, body %v; want 400 saying how many roles fit", rec.Code, body)
	}
	for _, id := range roleIDs {
		if invs, err := w.Store.ListOpenInvitationsOfRole(context.Background(), id); err != nil || len(invs) != 0 {
			t.Errorf("role %d: %d invitations after the refusal (%v)", id, len(invs), err)
		}
	}
}
