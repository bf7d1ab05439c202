package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestOneProvisioningTruth: where the role's group failed at an SP, the
// API's user view (which the guest's own access reads too) and the role
// page say the member failed there with the group's reason, as the role's
// view says of the group; elsewhere the member stays as it is.
func TestOneProvisioningTruth(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role := createWikiRole(t, s, "Truth")
	guest := auth.Person{Sub: "urn:collab:person:gia@example.org", Email: "gia@example.org", EduPersonPrincipalName: "gia@example.org", Name: "Gia"}
	res := testkit.InviteAndAccept(t, s, root, guest, role.ID, domain.Guest, now.Add(24*time.Hour))
	const reason = "group.create at sp-a: scim POST /Groups: 401 Unauthorized"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceGroup, LocalID: role.ID, SPID: "sp-a", Status: domain.StatusFailed, LastError: reason, UpdatedAt: now}))
	must(s.Store.PutLink(ctx, domain.SPLink{Kind: domain.ResourceGroup, LocalID: role.ID, SPID: "sp-b", Status: domain.StatusProvisioned, RemoteID: "g", UpdatedAt: now}))

	groupAt := map[string]domain.ProvisioningStatus{}
	sts, err := s.RoleProvisioning(ctx, root, role.ID)
	must(err)
	for _, st := range sts {
		groupAt[st.SP] = st.Status
	}
	users, err := s.UserProvisioning(ctx, root, res.User.ID)
	must(err)
	page, err := s.RolePage(ctx, root, role.ID, "")
	must(err)
	for name, view := range map[string][]string{"user view": statusesOf(users), "role page": statusesOf(page.Statuses[res.User.ID])} {
		if len(view) != 2 || view[0] != "sp-a=failed:"+reason || view[1] != "sp-b=pending:" {
			t.Errorf("%s: %v (the group: %v)", name, view, groupAt)
		}
	}
	if groupAt["sp-a"] != domain.StatusFailed || len(page.Group) != 2 || page.Group[0].Status != domain.StatusFailed {
		t.Errorf("the role's group: %v, on its page %+v", groupAt, page.Group)
	}
}

func statusesOf(sts []service.ProvisioningStatus) []string {
	var out []string
	for _, st := range sts {
		out = append(out, st.SP+"="+string(st.Status)+":"+st.LastError)
	}
	return out
}
