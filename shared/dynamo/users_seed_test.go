package dynamo_test

import (
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestSeedWrittenAgainCountsOnce: a seed that is written again (a load
// resumed after it stopped half-way) leaves every counter as one write of
// it does — the users, a role's members, an organization's users — while
// another seed (other ids) still counts. Twelve roles created before the
// seeds make more counter additions than one transaction holds.
func TestSeedWrittenAgainCountsOnce(t *testing.T) {
	seedOf := func(firstUser int64) domain.Seed {
		var seed domain.Seed
		for uid := firstUser; uid < firstUser+48; uid++ {
			seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-", uid), GivenName: "Seed",
				Name: fmt.Sprint("Seed ", uid), Email: fmt.Sprint("seed", uid, "@example.org"), CreatedAt: testNow})
			seed.UserRoles = append(seed.UserRoles, membership(uid, uid, 1+uid%12))
		}
		return seed
	}
	for _, tc := range []struct {
		name    string
		seeds   []domain.Seed
		writers int
		want    int64 // users, and members of role 1 per 48 users: 4
	}{
		{"once", []domain.Seed{seedOf(100)}, 8, 48},
		{"twice", []domain.Seed{seedOf(100), seedOf(100)}, 8, 48},
		{"twice, one writer", []domain.Seed{seedOf(100), seedOf(100)}, 1, 48},
		{"two seeds, the second twice", []domain.Seed{seedOf(100), seedOf(200), seedOf(200)}, 3, 96},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			s.SetSeedWriters(tc.writers)
			for r := int64(1); r <= 12; r++ {
				must(t, s.CreateRole(ctx(t), role(r, fmt.Sprint("Role ", r)), nil))
			}
			for _, seed := range tc.seeds {
				must(t, s.Seed(ctx(t), seed))
			}
			all, err := s.SearchUsers(ctx(t), domain.UserSearch{Page: domain.PageRequest{Size: 10}})
			must(t, err)
			inOrg, err := s.SearchUsers(ctx(t), domain.UserSearch{OrganizationGUID: "org-1", Page: domain.PageRequest{Size: 10}})
			must(t, err)
			members, err := s.CountUserRolesOfRole(ctx(t), 1)
			must(t, err)
			if all.Total != tc.want || inOrg.Total != tc.want || members != tc.want/12 {
				t.Errorf("users %d, of the organization %d, members of role 1 %d; want %d, %d, %d",
					all.Total, inOrg.Total, members, tc.want, tc.want, tc.want/12)
			}
		})
	}
}
