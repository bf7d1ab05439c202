package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestInviteFormTooManyRoles: an invitation to more roles than its
// acceptance could save is refused next to the roles, saying how many fit,
// with what was typed kept and nobody invited.
func TestInviteFormTooManyRoles(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	svc, _ := testkit.NewService(t, func() time.Time { return now })
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	root := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "root", Person: &auth.Person{Name: "Root"}}
	form := url.Values{"authority": {"GUEST"}, "recipients": {"typed@example.org"}, "message": {"Welcome aboard"},
		"expiry": {now.AddDate(0, 1, 0).Format(time.DateOnly)}, "nomail": {"1"}}
	var ids []int64
	for i := range 16 {
		r, err := svc.CreateRole(ctx, root, service.RoleInput{Name: fmt.Sprintf("Wiki %02d", i), OrganizationGUID: "org-test",
			ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki", ManageType: "SAML20_SP"}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
		form.Add("role", fmt.Sprint(r.ID))
	}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	status, body, _ := serveInvite(pages, nil, root, http.MethodPost, "/console/invite?"+form.Encode())
	if status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", status)
	}
	m := regexp.MustCompile(`<small class="field-error" id="roles-error">An invitation can hold at most (\d+) of these roles`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no message next to the roles saying how many fit in %s", body)
	}
	if most := mustID(t, m[1]); most < 1 || most >= int64(len(ids)) {
		t.Errorf("at most %d roles of %d", most, len(ids))
	}
	for _, kept := range []string{">typed@example.org</textarea>", ">Welcome aboard</textarea>"} {
		if !strings.Contains(body, kept) {
			t.Errorf("the typed input %q is not kept", kept)
		}
	}
	for _, id := range ids {
		if invs, err := store.ListOpenInvitationsOfRole(ctx, id); err != nil || len(invs) != 0 {
			t.Errorf("role %d: %d invitations after the refusal (%v)", id, len(invs), err)
		}
	}
}
