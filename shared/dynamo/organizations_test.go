package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// TestOrganizationItems: a GUID is created once and renamed only when
// stored; the list is every stored organization with its names.
func TestOrganizationItems(t *testing.T) {
	store := dynamotest.NewStore(t, func() time.Time { return time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC) })
	ctx := context.Background()
	steps := []struct {
		name string
		do   func() error
		want domain.ErrorKind
	}{
		{"create", func() error { return store.CreateOrganization(ctx, domain.Organization{GUID: "org-b", Name: "Beta"}) }, 0},
		{"create another", func() error {
			return store.CreateOrganization(ctx, domain.Organization{GUID: "org-a", Name: "Alpha", NameNL: "Alfa"})
		}, 0},
		{"create a taken GUID", func() error {
			return store.CreateOrganization(ctx, domain.Organization{GUID: "org-b", Name: "Impostor"})
		}, domain.KindConflict},
		{"rename", func() error {
			return store.RenameOrganization(ctx, domain.Organization{GUID: "org-b", Name: "Beta College", NameNL: "Hogeschool Beta"})
		}, 0},
		{"rename an absent one", func() error { return store.RenameOrganization(ctx, domain.Organization{GUID: "org-c", Name: "Gamma"}) }, domain.KindNotFound},
		{"create without a GUID", func() error { return store.CreateOrganization(ctx, domain.Organization{Name: "Nameless"}) }, domain.KindInvalid},
	}
	for _, s := range steps {
		if err := s.do(); domain.KindOf(err) != s.want || (s.want == 0 && err != nil) {
			t.Errorf("%s: %v, want kind %v", s.name, err, s.want)
		}
	}
	got, err := store.ListOrganizations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Organization{{GUID: "org-a", Name: "Alpha", NameNL: "Alfa"}, {GUID: "org-b", Name: "Beta College", NameNL: "Hogeschool Beta"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("list = %+v, want %+v", got, want)
	}
}

// TestAuditEntriesOfChanges: entries of role changes are in the role's
// audit, entries about no role only in the audit of all; both keep their
// subject.
func TestAuditEntriesOfChanges(t *testing.T) {
	at := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	store := dynamotest.NewStore(t, func() time.Time { return at })
	ctx := context.Background()
	entries := []domain.AuditEntry{
		{ID: 1, RoleID: 7, RoleName: "Lab", Action: domain.AuditRoleRenamed, Subject: "Old lab", CreatedAt: at, CreatedBy: "root"},
		{ID: 2, Action: domain.AuditOrganizationCreated, Subject: "org-a: Alpha", CreatedAt: at.Add(time.Second), CreatedBy: "root"},
	}
	if err := store.AddAuditEntries(ctx, entries); err != nil {
		t.Fatal(err)
	}
	ofRole, err := store.ListRecentAuditEntries(ctx, 7, time.Time{}, 10)
	if err != nil || len(ofRole) != 1 || ofRole[0].Subject != "Old lab" || ofRole[0].Action != domain.AuditRoleRenamed {
		t.Errorf("role's audit = %+v, %v", ofRole, err)
	}
	all, err := store.ListRecentAuditEntries(ctx, 0, time.Time{}, 10)
	if err != nil || len(all) != 2 || all[0].Subject != "org-a: Alpha" || all[1].ID != 1 {
		t.Errorf("audit of all = %+v, %v", all, err)
	}
}
