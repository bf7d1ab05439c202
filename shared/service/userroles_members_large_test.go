package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// TestSearchMembersOfALargeRole: the members search of a role (U9) pages a
// role with more members than one unpaged answer holds (MaxMembersListed)
// from its members index, with the true total and order, instead of
// refusing it.
func TestSearchMembersOfALargeRole(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Large lecture"))
	if err != nil {
		t.Fatal(err)
	}
	members := service.MaxMembersListed + 50
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
	page, err := s.SearchMembersOfRole(ctx, root, role.ID, true, domain.PageRequest{Size: 10, Number: 500})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != int64(members) || len(page.Items) != 10 || page.Items[0].User.Name != "Student 05000" {
		t.Errorf("page 500: total %d, %d items, first %q; want %d, 10, Student 05000", page.Total, len(page.Items), firstName(page.Items), members)
	}
}

func firstName(ms []domain.Member) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[0].User.Name
}
