package service_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
)

// largeRoleGuests is how many guests largeRole seeds: three times the
// unpaged bound the tests set (listedBound), so that reading them shows.
const (
	listedBound     = 20
	largeRoleGuests = 3 * listedBound
)

// largeRoleFixture is a service whose store counts the requests and items
// it reads, with an unpaged bound of listedBound, and a role of org-test
// holding largeRoleGuests guests and five members of other authorities.
type largeRoleFixture struct {
	s               *service.Service
	role, small     domain.Role
	items, requests atomic.Int64
}

func (f *largeRoleFixture) read(t *testing.T, do func()) (items, requests int64) {
	t.Helper()
	i0, r0 := f.items.Load(), f.requests.Load()
	do()
	return f.items.Load() - i0, f.requests.Load() - r0
}

func newLargeRoleFixture(t *testing.T) *largeRoleFixture {
	t.Helper()
	f := &largeRoleFixture{}
	f.s, _ = newService(t)
	client, table := dynamotest.NewClient(t, countItemsRead(&f.items, &f.requests))
	f.s.Store = dynamo.New(client, table, func() time.Time { return now })
	f.s.MembersListedBound = listedBound
	ctx := context.Background()
	var err error
	if f.role, err = f.s.CreateRole(ctx, root, wikiRole("Crowded lecture")); err != nil {
		t.Fatal(err)
	}
	if f.small, err = f.s.CreateRole(ctx, root, wikiRole("Quiet seminar")); err != nil {
		t.Fatal(err)
	}
	seed := domain.Seed{}
	add := func(uid int64, roleID int64, name string, a domain.Authority, guestRole bool) {
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-crowd-", uid), Name: name,
			Email: fmt.Sprint("crowd", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: a,
			GuestRoleIncluded: guestRole, CreatedAt: now})
	}
	for i := range int64(largeRoleGuests) {
		add(700_001+i, f.role.ID, fmt.Sprintf("Attendee %03d", i), domain.Guest, false)
	}
	add(710_001, f.role.ID, "Zoe Manager", domain.Manager, false)
	add(710_002, f.role.ID, "Yuri Manager", domain.Manager, true)
	add(710_003, f.role.ID, "Xena Admin", domain.InstitutionAdmin, false)
	add(710_004, f.role.ID, "Walt Appmanager", domain.ApplicationManager, true)
	add(710_005, f.role.ID, "Vera Inviter", domain.Inviter, false)
	add(720_001, f.small.ID, "Una Guest", domain.Guest, false)
	add(720_002, f.small.ID, "Tom Manager", domain.Manager, false)
	if err := f.s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	return f
}

// otherOrganization is an API token of another organization: a role of
// org-test answers it as a missing one.
var otherOrganization = &auth.Principal{Kind: auth.KindAPIToken, Name: "other", OrganizationGUID: "org-other"}

// TestManagersOfALargeRole: the managers' e-mail addresses of a role with
// more members than one unpaged answer holds are answered (not refused),
// and reading them reads none of the role's guests: the role, its
// non-guest memberships and the managers' users.
func TestManagersOfALargeRole(t *testing.T) {
	f := newLargeRoleFixture(t)
	ctx := context.Background()
	tests := []struct {
		name string
		p    *auth.Principal
		role domain.Role
		want []string
		kind domain.ErrorKind
	}{
		{"large role", root, f.role, []string{"crowd710001@example.org", "crowd710002@example.org", "crowd710003@example.org"}, 0},
		{"small role", root, f.small, []string{"crowd720002@example.org"}, 0},
		{"another organization", otherOrganization, f.role, nil, domain.KindNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			var err error
			items, _ := f.read(t, func() { got, err = f.s.RoleManagerEmails(ctx, tc.p, tc.role.ID) })
			if domain.KindOf(err) != tc.kind {
				t.Fatalf("error %v, want kind %d", err, tc.kind)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("managers %q, want %q", got, tc.want)
			}
			// The role, at most 5 non-guest memberships, 3 users.
			if items > 1+5+3 {
				t.Errorf("%d items read for the managers, more than the role's non-guests", items)
			}
		})
	}
}

// TestApplicationManagersOfALargeRole: the application managers of an
// organization whose role has more members than one unpaged answer holds
// are listed (the API per person, the console per membership), reading
// none of its guests.
func TestApplicationManagersOfALargeRole(t *testing.T) {
	f := newLargeRoleFixture(t)
	ctx := context.Background()
	var people []service.ApplicationManager
	var err error
	items, _ := f.read(t, func() { people, err = f.s.ListApplicationManagers(ctx, root, "org-test") })
	if err != nil {
		t.Fatal(err)
	}
	if len(people) != 1 || people[0].User.ID != 710_004 || !slices.Equal(people[0].Roles, []string{f.role.Name}) {
		t.Errorf("application managers %+v, want user 710004 in %q", people, f.role.Name)
	}
	// The organization's 2 roles (and what ListRolesByOrganization reads
	// with them), the 7 non-guest memberships scanned, 1 user.
	if items > 2*2+7+1 {
		t.Errorf("%d items read for the application managers", items)
	}
	console, err := f.s.OrganizationApplicationManagers(ctx, root, "org-test")
	if err != nil {
		t.Fatal(err)
	}
	if len(console) != 1 || console[0].Member.User.ID != 710_004 || console[0].Role.ID != f.role.ID {
		t.Errorf("console's application managers %+v", console)
	}
	// Another organization's token names org-test and is given its own.
	if other, err := f.s.ListApplicationManagers(ctx, otherOrganization, "org-test"); err != nil || len(other) != 0 {
		t.Errorf("another organization's token: %+v, %v; want none", other, err)
	}
}

// TestDeletionConsequencesOfALargeRole: a role with more members than one
// unpaged answer holds answers its consequences as a page (by name, the
// true total) at a page's cost, never an error; a smaller role answers
// the reference's list; a caller may page any role; another
// organization's role is missing.
func TestDeletionConsequencesOfALargeRole(t *testing.T) {
	f := newLargeRoleFixture(t)
	ctx := context.Background()
	total := int64(largeRoleGuests + 5)
	tests := []struct {
		name      string
		p         *auth.Principal
		role      domain.Role
		req       domain.PageRequest
		paged     bool
		kind      domain.ErrorKind
		listed    int    // members answered unpaged
		pageTotal int64  // the page's total, when a page
		first     string // the page's first member
		length    int
	}{
		{"large role, unpaged", root, f.role, domain.PageRequest{Size: 10}, false, 0, 0, total, "Attendee 000", 10},
		{"large role, page 6", root, f.role, domain.PageRequest{Size: 10, Number: 6}, true, 0, 0, total, "Vera Inviter", 5},
		{"large role, descending", root, f.role, domain.PageRequest{Size: 3, Descending: true}, true, 0, 0, total, "Zoe Manager", 3},
		{"small role, unpaged", root, f.small, domain.PageRequest{Size: 10}, false, 0, 2, 0, "", 0},
		{"small role, paged", root, f.small, domain.PageRequest{Size: 1, Number: 1}, true, 0, 0, 2, "Una Guest", 1},
		{"another organization", otherOrganization, f.role, domain.PageRequest{Size: 10}, false, domain.KindNotFound, 0, 0, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var members []domain.Member
			var page *domain.Page[domain.Member]
			var err error
			items, _ := f.read(t, func() {
				members, page, err = f.s.RoleDeletionConsequences(ctx, tc.p, tc.role.ID, tc.req, tc.paged)
			})
			if domain.KindOf(err) != tc.kind {
				t.Fatalf("error %v, want kind %d", err, tc.kind)
			}
			if tc.kind != 0 {
				return
			}
			if tc.pageTotal == 0 {
				if page != nil || len(members) != tc.listed {
					t.Errorf("page %v, %d members; want the list of %d", page, len(members), tc.listed)
				}
				return
			}
			if page == nil || members != nil {
				t.Fatalf("a list of %d members, want a page", len(members))
			}
			if page.Total != tc.pageTotal || len(page.Items) != tc.length || page.Items[0].User.Name != tc.first {
				t.Errorf("total %d, %d items, first %q; want %d, %d, %q", page.Total, len(page.Items), firstName(page.Items), tc.pageTotal, tc.length, tc.first)
			}
			// The role (twice), the counter (twice: 4 shards), the offset's
			// keys, the page and its users, and the one member after the
			// page that tells whether a next page (its token) follows:
			// never every member.
			if limit := int64(2 + 8 + tc.req.Offset() + 2*tc.req.Size + 1); items > limit {
				t.Errorf("%d items read, want at most %d", items, limit)
			}
		})
	}
}
