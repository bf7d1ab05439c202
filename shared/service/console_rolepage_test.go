package service_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// rolePageRows walks every page of a role's page and answers its members
// as "name <email> authority: sp=status, …" and the view of the first page.
func rolePageRows(t *testing.T, s *service.Service, p *auth.Principal, roleID int64) ([]string, service.RolePageView) {
	t.Helper()
	var rows []string
	var first service.RolePageView
	after := ""
	for page := 0; ; page++ {
		v, err := s.RolePage(context.Background(), p, roleID, after)
		if err != nil {
			t.Fatal(err)
		}
		if page == 0 {
			first = v
		}
		if len(v.Members) > service.RolePageSize {
			t.Fatalf("page of %d members", len(v.Members))
		}
		for _, m := range v.Members {
			var sts []string
			for _, st := range v.Statuses[m.User.ID] {
				sts = append(sts, st.SP+"="+string(st.Status))
			}
			rows = append(rows, fmt.Sprintf("%s <%s> %s: %s", m.User.DisplayName(), m.User.Email, m.UserRole.Authority, strings.Join(sts, ",")))
		}
		if after = v.Next; after == "" {
			return rows, first
		}
	}
}

// TestRolePageFromTheIndexAsBefore: a role's page read from the members
// index shows what every member and user read whole (MembersOfRole,
// sorted by the lower display name) shows: the same members by name, page
// after page, with their authority and state at each SP, the same count,
// and the invitations of the role's history; it refuses whom the API
// refuses, and a wrong page token is invalid.
func TestRolePageFromTheIndexAsBefore(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Paged"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.CreateRole(ctx, root, wikiRole("Other"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"zoë Zeeman", "Anna de Vries", "bram Bakker", "Émile Ernst", "anna Appel"}
	for i := range service.RolePageSize + 3 {
		name := names[i%len(names)] + fmt.Sprint(" ", i)
		authority := "GUEST"
		if i%7 == 0 {
			authority = "INVITER"
		}
		if _, err := s.ProvisionUserRoles(ctx, root, service.UserRoleProvisioningInput{RoleIDs: []int64{role.ID}, IntendedAuthority: authority,
			Sub: fmt.Sprint("sub-", i), Email: fmt.Sprintf("m%d@example.org", i), Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	future := now.Add(time.Hour)
	for _, roles := range [][]int64{{role.ID}, {role.ID, other.ID}} {
		if _, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"new@example.org"}, RoleIDs: roles,
			ExpiryDate: &future, SuppressSendingEmails: true}); err != nil {
			t.Fatal(err)
		}
	}
	indexed, first := rolePageRows(t, s, root, role.ID)
	_, whole, err := s.MembersOfRole(ctx, root, role.ID)
	if err != nil {
		t.Fatal(err)
	}
	key := func(m domain.Member) string {
		return strings.ToLower(m.User.DisplayName()) + "#" + fmt.Sprint(m.User.ID)
	}
	slices.SortFunc(whole, func(a, b domain.Member) int { return strings.Compare(key(a), key(b)) })
	var before []string
	for _, m := range whole {
		before = append(before, fmt.Sprintf("%s <%s> %s:", m.User.DisplayName(), m.User.Email, m.UserRole.Authority))
	}
	var indexedHeads []string
	for _, row := range indexed {
		indexedHeads = append(indexedHeads, row[:strings.Index(row, ":")+1])
	}
	if !slices.Equal(indexedHeads, before) {
		t.Errorf("from the index:\n%s\nread whole:\n%s", strings.Join(indexedHeads, "\n"), strings.Join(before, "\n"))
	}
	if len(indexed) != service.RolePageSize+3 || !strings.HasPrefix(indexed[0], "Anna de Vries") && !strings.HasPrefix(indexed[0], "anna Appel") {
		t.Errorf("members = %d, first %q", len(indexed), indexed[0])
	}
	// A guest's state at each SP; an inviter or manager who is not also a
	// guest is never at the SPs, so has none.
	for _, row := range indexed {
		guest := strings.Contains(row, " GUEST: ")
		if guest && !strings.HasSuffix(row, "sp-a=pending,sp-b=pending") || !guest && !strings.HasSuffix(row, ": ") {
			t.Errorf("state at the SPs: %q", row)
		}
	}
	if first.MemberCount != int64(len(whole)) || first.MemberCount != int64(len(indexed)) {
		t.Errorf("count %d, read whole %d", first.MemberCount, len(whole))
	}
	invs := func(v service.RolePageView) string {
		var out []string
		for _, iw := range v.Invitations {
			var rs []string
			for _, r := range iw.Roles {
				rs = append(rs, r.Name)
			}
			out = append(out, fmt.Sprintf("%d %s %s %s [%s]", iw.Invitation.ID, iw.Invitation.Email, iw.Invitation.Status,
				iw.Invitation.ExpiryDate.Format(time.RFC3339), strings.Join(rs, ",")))
		}
		return strings.Join(out, "; ")
	}
	history, err := s.RoleInvitationHistory(ctx, root, role.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := invs(first), invs(service.RolePageView{Invitations: history}); got != want || len(first.Invitations) != 2 || len(first.Invitations[0].Roles) != 2 {
		t.Errorf("invitations from the index %q, read whole %q", got, want)
	}

	guest := &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: domain.Guest}, User: &domain.User{ID: 999}}
	inviter := &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: domain.Inviter}, User: &domain.User{ID: 998}}
	otherAdmin := &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: "org-other",
		User: &domain.User{ID: 997, InstitutionAdmin: true, OrganizationGUID: "org-other"}}

	for _, after := range []string{"", first.Next} {
		if _, err := s.RolePage(ctx, guest, role.ID, after); domain.KindOf(err) != domain.KindForbidden {
			t.Errorf("a guest's role page after %q: %v, want forbidden", after, err)
		}
		// Another organization's role answers as a missing one.
		if _, err := s.RolePage(ctx, otherAdmin, role.ID, after); domain.KindOf(err) != domain.KindNotFound {
			t.Errorf("another organization's admin, role page after %q: %v, want not found", after, err)
		}
	}
	if _, err := s.RolePage(ctx, nil, role.ID, ""); domain.KindOf(err) != domain.KindUnauthenticated {
		t.Errorf("anonymous role page: %v", err)
	}
	if v, err := s.RolePage(ctx, inviter, role.ID, ""); err != nil || len(v.Members) != service.RolePageSize {
		t.Errorf("an inviter's role page: %d members, %v", len(v.Members), err)
	}
	if _, err := s.RolePage(ctx, root, role.ID, "@x"); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("token @x: %v, want invalid", err)
	}
	if _, err := s.RolePage(ctx, root, other.ID, first.Next); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("another role's token: %v, want invalid", err)
	}
	if _, err := s.RolePage(ctx, root, 404404, ""); !domain.IsNotFound(err) {
		t.Errorf("unknown role: %v, want not found", err)
	}
}
