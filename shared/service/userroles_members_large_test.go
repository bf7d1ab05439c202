package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// TestSearchMembersOfALargeRole: the members search of a role (U9) pages a
// role with more members than one unpaged answer holds (MembersListedBound,
// lowered here from MaxMembersListed so the role is small enough to seed
// quickly) and than the search reads whole (MembersSearchBound) from its
// members index, with the true total and order, instead of refusing it.
func TestSearchMembersOfALargeRole(t *testing.T) {
	s, _ := newService(t)
	s.MembersListedBound, s.MembersSearchBound = 20, 20
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Large lecture"))
	if err != nil {
		t.Fatal(err)
	}
	members := s.MembersListedBound + 50
	seed := domain.Seed{}
	for i := range int64(members) {
		uid := 100_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-large-", uid), Name: fmt.Sprintf("Student %05d", i),
			Email: fmt.Sprint("large", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 200_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	page, err := s.SearchMembersOfRole(ctx, root, role.ID, true, domain.PageRequest{Size: 10, Number: 5})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != int64(members) || len(page.Items) != 10 || page.Items[0].User.Name != "Student 00050" {
		t.Errorf("page 5: total %d, %d items, first %q; want %d, 10, Student 00050", page.Total, len(page.Items), firstName(page.Items), members)
	}
}

func firstName(ms []domain.Member) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[0].User.Name
}

// TestSearchMembersPastTheBound: a role with more members than the
// members search bound is paged by name from its index (true total and
// page), and a query or another sort, which would read every member, is
// answered as a too broad people search, never from part of the role.
func TestSearchMembersPastTheBound(t *testing.T) {
	s, _ := newService(t)
	s.MembersSearchBound = 20
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Bounded lecture"))
	if err != nil {
		t.Fatal(err)
	}
	seed := domain.Seed{}
	for i := range int64(30) {
		uid := 300_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-bounded-", uid), Name: fmt.Sprintf("Pupil %02d", i),
			Email: fmt.Sprint("bounded", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 400_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		req    domain.PageRequest
		broad  bool
		first  string
		total  int64
		length int
	}{
		{"by name", domain.PageRequest{Size: 10, Number: 2}, false, "Pupil 20", 30, 10},
		{"by name, descending", domain.PageRequest{Size: 4, Descending: true}, false, "Pupil 29", 30, 4},
		{"a query", domain.PageRequest{Size: 10, Query: "pupil 2"}, true, "", 0, 0},
		{"by e-mail", domain.PageRequest{Size: 10, Sort: service.MemberSortEmail}, true, "", 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page, err := s.SearchMembersOfRole(ctx, root, role.ID, true, tc.req)
			if bound, broad := domain.IsSearchTooBroad(err); broad != tc.broad || (broad && bound != 20) {
				t.Fatalf("error %v, want too broad %v at 20", err, tc.broad)
			}
			if tc.broad {
				return
			}
			if page.Total != tc.total || len(page.Items) != tc.length || page.Items[0].User.Name != tc.first {
				t.Errorf("total %d, %d items, first %q; want %d, %d, %q", page.Total, len(page.Items), firstName(page.Items), tc.total, tc.length, tc.first)
			}
		})
	}
}

// TestMemberCountOfRole: the count the console's role deletion shows is the
// role's member count from its counter (also past MaxMembersListed, which
// the unpaged member list refuses), for those who may see its members; a
// guest of the role is refused, an unknown role is not found.
func TestMemberCountOfRole(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Counted lecture"))
	if err != nil {
		t.Fatal(err)
	}
	seed := domain.Seed{}
	for i := range int64(37) {
		uid := 500_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-counted-", uid), Name: fmt.Sprintf("Listener %02d", i),
			Email: fmt.Sprint("counted", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 600_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest, CreatedAt: now})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	inviter := &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: domain.Inviter}, User: &domain.User{ID: 998}}
	guest := &auth.Principal{Kind: auth.KindPerson, Memberships: map[int64]domain.Authority{role.ID: domain.Guest}, User: &domain.User{ID: 999}}
	tests := []struct {
		name   string
		p      *auth.Principal
		roleID int64
		kind   domain.ErrorKind
		count  int64
	}{
		{"super user", root, role.ID, 0, 37},
		{"inviter of the role", inviter, role.ID, 0, 37},
		{"guest of the role", guest, role.ID, domain.KindForbidden, 0},
		{"unknown role", root, 999_999, domain.KindNotFound, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, count, err := s.MemberCountOfRole(ctx, tc.p, tc.roleID)
			if domain.KindOf(err) != tc.kind || count != tc.count || (err == nil && got.ID != role.ID) {
				t.Errorf("role %d, count %d, error %v; want %d, kind %d", got.ID, count, err, tc.count, tc.kind)
			}
		})
	}
}
