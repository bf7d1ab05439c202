package dynamo_test

import (
	"slices"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestMembersOfRoleWithAuthority: the memberships of the authorities
// asked, each with its user, exactly those; asked for authorities above
// GUEST, the Queries scan only the role's non-guest classes, however many
// guests the role has.
func TestMembersOfRoleWithAuthority(t *testing.T) {
	s, counter, _ := itemCountingStore(t)
	urs := seedMembers(t, s, 1, 1, 140, true)
	nonGuests := 0
	for _, ur := range urs {
		if ur.Authority != domain.Guest {
			nonGuests++
		}
	}
	tests := []struct {
		name        string
		authorities []domain.Authority
		scanAtMost  int
	}{
		{"managers", []domain.Authority{domain.Manager, domain.InstitutionAdmin}, nonGuests},
		{"inviters", []domain.Authority{domain.Inviter}, nonGuests},
		{"application managers (none)", []domain.Authority{domain.ApplicationManager}, nonGuests},
		{"guests and inviters", []domain.Authority{domain.Guest, domain.Inviter}, len(urs)},
		{"nothing asked", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want []int64
			for _, ur := range urs {
				if slices.Contains(tc.authorities, ur.Authority) {
					want = append(want, ur.UserID)
				}
			}
			_, i0 := counter.snapshot()
			members, err := s.MembersOfRoleWithAuthority(ctx(t), 1, tc.authorities...)
			must(t, err)
			_, i1 := counter.snapshot()
			got := memberIDs(members)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("members %v, want %v", got, want)
			}
			for _, m := range members {
				if m.User.Email == "" || m.UserRole.RoleID != 1 || !slices.Contains(tc.authorities, m.UserRole.Authority) {
					t.Errorf("member %+v", m)
				}
			}
			if scanned := i1 - i0 - int64(len(members)); scanned > int64(tc.scanAtMost) {
				t.Errorf("%d memberships scanned, want at most %d", scanned, tc.scanAtMost)
			}
		})
	}
}
