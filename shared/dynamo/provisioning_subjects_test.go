package dynamo_test

import (
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestGetDeliverySubjectsReadsMixedItemsAndLeavesOutAbsentOnes: one call
// returns roles and links by their keys, repeats once, and no entry for
// what does not exist.
func TestGetDeliverySubjectsReadsMixedItemsAndLeavesOutAbsentOnes(t *testing.T) {
	s := newStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One"), nil))
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceGroup, LocalID: 1, SPID: "sp-1", RemoteID: "g-1", Status: domain.StatusProvisioned}))
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-1", RemoteID: "u-7", Status: domain.StatusProvisioned}))
	groupLink := domain.SPLinkKey{Kind: domain.ResourceGroup, LocalID: 1, SPID: "sp-1"}
	userLink := domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-1"}
	otherSP := domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: 7, SPID: "sp-2"}
	got, err := s.GetDeliverySubjects(ctx(t), domain.SubjectsQuery{
		Users: []int64{7}, Roles: []int64{1, 1, 2},
		UserRoles: []domain.UserRoleKey{{UserID: 7, RoleID: 1}},
		Links:     []domain.SPLinkKey{groupLink, userLink, userLink, otherSP},
	})
	must(t, err)
	if len(got.Roles) != 1 || got.Roles[1].Name != "One" {
		t.Errorf("roles %+v, want role 1 only", got.Roles)
	}
	if len(got.Users) != 0 || len(got.UserRoles) != 0 {
		t.Errorf("users %+v and memberships %+v, want none (they do not exist)", got.Users, got.UserRoles)
	}
	if len(got.Links) != 2 || got.Links[groupLink].RemoteID != "g-1" || got.Links[userLink].RemoteID != "u-7" {
		t.Errorf("links %+v, want the group's and the user's at sp-1", got.Links)
	}
	if _, ok := got.Links[otherSP]; ok {
		t.Errorf("a link at sp-2 that does not exist was returned")
	}
}
