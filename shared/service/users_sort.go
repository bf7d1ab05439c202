package service

import (
	"cmp"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// UserSorts are the user search's sort keys besides name, as the
// reference's client sends them. The store has no index for them: they
// order the page the store found by name (its bounded candidate set), not
// the whole result.
var UserSorts = []string{"schac_home_organization", "authority", "createdAt", "lastActivity", "given_name"}

// sortUserSummaries orders a page of the user search by one of UserSorts;
// ties keep the store's order.
func sortUserSummaries(items []UserSummary, key string, descending bool) {
	var compare func(a, b UserSummary) int
	switch key {
	case "schac_home_organization":
		compare = func(a, b UserSummary) int {
			return cmp.Compare(strings.ToLower(a.User.SchacHomeOrganization), strings.ToLower(b.User.SchacHomeOrganization))
		}
	case "given_name":
		compare = func(a, b UserSummary) int {
			return cmp.Compare(strings.ToLower(a.User.GivenName), strings.ToLower(b.User.GivenName))
		}
	case "createdAt":
		compare = func(a, b UserSummary) int { return a.User.CreatedAt.Compare(b.User.CreatedAt) }
	case "lastActivity":
		compare = func(a, b UserSummary) int { return a.User.LastActivity.Compare(b.User.LastActivity) }
	case "authority":
		compare = func(a, b UserSummary) int { return compareAuthority(highestAuthority(a), highestAuthority(b)) }
	default:
		return
	}
	slices.SortStableFunc(items, func(a, b UserSummary) int {
		if descending {
			return compare(b, a)
		}
		return compare(a, b)
	})
}

// highestAuthority is a user's highest authority: super user, institution
// admin, else the highest of their memberships ("" for none).
func highestAuthority(u UserSummary) domain.Authority {
	switch {
	case u.User.SuperUser:
		return domain.SuperUser
	case u.User.InstitutionAdmin:
		return domain.InstitutionAdmin
	}
	var best domain.Authority
	for _, r := range u.Roles {
		if best == "" || compareAuthority(r.UserRole.Authority, best) > 0 {
			best = r.UserRole.Authority
		}
	}
	return best
}

func compareAuthority(a, b domain.Authority) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return -1
	case b == "":
		return 1
	case a.AtLeast(b):
		return 1
	}
	return -1
}
