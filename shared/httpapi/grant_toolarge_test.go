package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// A grant without invitation too large for one transaction, by user-role
// provisioning or by the CRM's direct provisioning, answers the error body
// with 400 saying how many roles fit, and writes nothing: no user, no
// membership, no delivery, no CRM organisation. That many roles are then
// granted.
func TestGrantTooLargeIsRefusedWithTheErrorBody(t *testing.T) {
	tests := []struct {
		name string
		sub  string
		send func(w *crmWorld, roleIDs []int64, crmIDs []string) (int, string)
		want int
	}{
		{"user-role provisioning", "urn:collab:person:uni.example:pat", func(w *crmWorld, roleIDs []int64, _ []string) (int, string) {
			var ids []string
			for _, id := range roleIDs {
				ids = append(ids, itoa(id))
			}
			rec := w.do("super", "POST", "/api/v1/user_roles/user_role_provisioning",
				`{"roleIdentifiers":[`+strings.Join(ids, ",")+`],"email":"pat@uni.example"}`)
			return rec.Code, rec.Body.String()
		}, http.StatusCreated},
		{"CRM profile provisioned directly", jdoeSub, func(w *crmWorld, _ []int64, crmIDs []string) (int, string) {
			rec := w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-1", "jdoe", true, crmIDs...))
			return rec.Code, rec.Body.String()
		}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCRMWorld(t)
			ctx := context.Background()
			var roleIDs []int64
			var crmIDs []string
			for i := range 30 {
				crmID := fmt.Sprint("crm-many-", i)
				roleIDs = append(roleIDs, w.crmRole(fmt.Sprint("Many ", i), "wiki", crmID, fmt.Sprint("Many ", i), fmt.Sprint("M", i)))
				crmIDs = append(crmIDs, crmID)
			}
			_, orgErr := w.Store.GetCRMOrganisation(ctx, crmOrg)
			queued := len(w.Queue.Deliveries())

			code, raw := tt.send(w, roleIDs, crmIDs)
			var body map[string]any
			if err := json.Unmarshal([]byte(raw), &body); err != nil {
				t.Fatalf("status %d, body %q: %v", code, raw, err)
			}
			msg, _ := body["message"].(string)
			var most int
			if i := strings.Index(msg, "at most "); i >= 0 {
				_, _ = fmt.Sscanf(msg[i:], "at most %d", &most)
			}
			if code != http.StatusBadRequest || body["status"] != float64(400) || !strings.Contains(msg, "fewer roles") || most < 1 || most >= len(roleIDs) {
				t.Fatalf("status %d, body %v; want 400 saying how many roles fit", code, body)
			}
			if u, err := w.Store.GetUserBySub(ctx, tt.sub); !domain.IsNotFound(err) {
				t.Errorf("user %d (%v) after the refusal", u.ID, err)
			}
			for _, id := range roleIDs {
				if urs, _, err := w.Store.ListUserRolesOfRole(ctx, id, "", 10); err != nil || len(urs) != 0 {
					t.Errorf("role %d: %d members (%v) after the refusal", id, len(urs), err)
				}
			}
			if got := len(w.Queue.Deliveries()); got != queued {
				t.Errorf("%d deliveries queued by the refusal", got-queued)
			}
			if _, err := w.Store.GetCRMOrganisation(ctx, crmOrg); domain.IsNotFound(orgErr) != domain.IsNotFound(err) {
				t.Errorf("CRM organisation saved by the refusal (%v)", err)
			}

			if code, raw := tt.send(w, roleIDs[:most], crmIDs[:most]); code != tt.want {
				t.Fatalf("grant of the %d roles that fit: %d %s", most, code, raw)
			}
			u, err := w.Store.GetUserBySub(ctx, tt.sub)
			if err != nil {
				t.Fatal(err)
			}
			if urs, err := w.Store.ListUserRolesOfUser(ctx, u.ID); err != nil || len(urs) != most {
				t.Errorf("%d memberships (%v), want %d", len(urs), err, most)
			}
		})
	}
}
