package service_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestConsoleInvitationAndAdminQueriesDenyByDefault: the console's
// invitation history and application manager list answer only whom the
// API would answer, per kind of caller; institution admins always get their
// own organization.
func TestConsoleInvitationAndAdminQueriesDenyByDefault(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("History"))
	if err != nil {
		t.Fatal(err)
	}
	future := now.Add(time.Hour)
	if _, err := s.Invite(ctx, root, service.InvitationInput{IntendedAuthority: "GUEST", Invites: []string{"h@example.org"}, RoleIDs: []int64{role.ID},
		ExpiryDate: &future, SuppressSendingEmails: true}); err != nil {
		t.Fatal(err)
	}
	person := func(org string, admin bool, ms map[int64]domain.Authority) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: org, Memberships: ms,
			User: &domain.User{ID: 99, InstitutionAdmin: admin, OrganizationGUID: org}}
	}
	callers := []struct {
		name            string
		p               *auth.Principal
		history, admins bool
	}{
		{"anonymous", nil, false, false},
		{"guest", person("", false, map[int64]domain.Authority{role.ID: domain.Guest}), false, false},
		{"inviter", person("", false, map[int64]domain.Authority{role.ID: domain.Inviter}), true, false},
		{"manager", person("", false, map[int64]domain.Authority{role.ID: domain.Manager}), true, false},
		// allowed, but for their own organization whatever they name (the
		// browser test TestConsoleAdministrators shows they see none of org-test)
		{"admin of another organization", person("org-other", true, nil), false, true},
		{"admin of the organization", person("org-test", true, nil), true, true},
		{"super user", root, true, true},
	}
	for _, c := range callers {
		invs, err := s.RoleInvitationHistory(ctx, c.p, role.ID)
		if (err == nil) != c.history || (c.history && len(invs) != 1) {
			t.Errorf("%s: invitation history = %d invitations, %v; want allowed %v", c.name, len(invs), err, c.history)
		}
		_, err = s.OrganizationApplicationManagers(ctx, c.p, "org-test")
		if (err == nil) != c.admins {
			t.Errorf("%s: application managers of org-test: %v; want allowed %v", c.name, err, c.admins)
		}
		if got := service.MayAdministerOrganization(c.p); got != (c.admins && c.p.Kind == auth.KindPerson || c.p == root) {
			t.Errorf("%s: MayAdministerOrganization = %v", c.name, got)
		}
	}
}

// TestPersonInvitationsReadByPerson: a person's page lists the invitations
// sent to their address however many newer ones their roles' histories
// hold (an accepted invitation behind more than a role page's history of
// newer ones in a busy role), in roles the person does not hold as well,
// and per caller only those of roles whose invitations the caller may
// read; a caller who may not see the person gets the refusal, as "not
// found" from another organization.
func TestPersonInvitationsReadByPerson(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	busy := createWikiRole(t, s, "Busy")
	later := createWikiRole(t, s, "Later")
	other, err := s.CreateRole(ctx, root, service.RoleInput{Name: "Elsewhere", OrganizationGUID: "org-other",
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: "wiki", ManageType: "SAML20_SP"}}})
	if err != nil {
		t.Fatal(err)
	}
	pia := auth.Person{Sub: "sub-pia", Email: "pia@example.org", Name: "Pia Person"}
	u := acceptInto(t, s, pia, []int64{busy.ID})
	accepted, err := s.Store.ListInvitationsOfRole(ctx, busy.ID)
	if err != nil || len(accepted) != 1 {
		t.Fatalf("the accepted invitation: %v, %v", accepted, err)
	}
	// A busy role: more newer accepted invitations than a role's list shows.
	var newer []domain.Invitation
	for i := range int64(30) {
		accepted := now.Add(-time.Hour)
		newer = append(newer, domain.Invitation{ID: 1_000_000 + i, IntendedAuthority: domain.Guest, Status: domain.InvitationAccepted,
			Email: fmt.Sprintf("other%d@example.org", i), CreatedAt: now.Add(-2 * time.Hour), ExpiryDate: now.Add(time.Hour), AcceptedAt: &accepted,
			OrganizationGUID: "org-test", RoleIDs: []int64{busy.ID}, HashDigest: fmt.Sprint("digest-busy-", i)})
	}
	if err := s.Store.CreateInvitations(ctx, newer); err != nil {
		t.Fatal(err)
	}
	laterID, _ := testkit.InviteToRoles(t, s, root, "Pia@Example.org", []int64{later.ID}, domain.Guest, now.Add(24*time.Hour))
	otherID, _ := testkit.InviteToRoles(t, s, root, "pia@example.org", []int64{other.ID}, domain.Guest, now.Add(24*time.Hour))
	testkit.InviteToRoles(t, s, root, "someone.else@example.org", []int64{later.ID}, domain.Guest, now.Add(24*time.Hour))
	person, err := s.OtherUser(ctx, root, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	caller := func(org string, admin bool, ms map[int64]domain.Authority) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: org, Memberships: ms,
			User: &domain.User{ID: 99, InstitutionAdmin: admin, OrganizationGUID: org}}
	}
	cases := []struct {
		name   string
		p      *auth.Principal
		want   []int64
		refuse domain.ErrorKind
	}{
		{"super user", root, []int64{otherID, laterID, accepted[0].ID}, 0},
		{"admin of the organization", caller("org-test", true, nil), []int64{laterID, accepted[0].ID}, 0},
		{"manager of the busy role", caller("", false, map[int64]domain.Authority{busy.ID: domain.Manager}), []int64{accepted[0].ID}, 0},
		{"manager of both roles", caller("", false, map[int64]domain.Authority{busy.ID: domain.Manager, later.ID: domain.Inviter}),
			[]int64{laterID, accepted[0].ID}, 0},
		{"manager of the busy role, inviter elsewhere", caller("", false, map[int64]domain.Authority{busy.ID: domain.Manager, other.ID: domain.Inviter}),
			[]int64{otherID, accepted[0].ID}, 0},
		{"admin of another organization", caller("org-other", true, nil), nil, domain.KindNotFound},
		{"guest of the busy role", caller("", false, map[int64]domain.Authority{busy.ID: domain.Guest}), nil, domain.KindForbidden},
		{"anonymous", nil, nil, domain.KindUnauthenticated},
	}
	for _, c := range cases {
		invs, err := s.PersonInvitations(ctx, c.p, person)
		if c.refuse != 0 {
			if domain.KindOf(err) != c.refuse {
				t.Errorf("%s: %d invitations, %v; want kind %d", c.name, len(invs), err, c.refuse)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var ids []int64
		for _, iw := range invs {
			ids = append(ids, iw.Invitation.ID)
			if len(iw.Roles) == 0 {
				t.Errorf("%s: invitation %d without its roles", c.name, iw.Invitation.ID)
			}
		}
		if !slices.Equal(ids, c.want) {
			t.Errorf("%s: invitations %v, want %v", c.name, ids, c.want)
		}
	}
	// The open invitation is read whole: its link can be copied.
	invs, err := s.PersonInvitations(ctx, root, person)
	if err != nil || len(invs) == 0 || invs[0].Invitation.LinkSecret == "" {
		t.Errorf("the open invitation as the person's page reads it: %+v, %v; want its link's secret", invs, err)
	}
}
