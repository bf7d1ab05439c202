package domain

import "fmt"

// Authority is what a user-role allows its holder to do (spec 2.6). The
// ladder is ordered: a higher authority includes every lower one.
type Authority string

const (
	SuperUser          Authority = "SUPER_USER"
	InstitutionAdmin   Authority = "INSTITUTION_ADMIN"
	ApplicationManager Authority = "APPLICATION_MANAGER"
	Manager            Authority = "MANAGER"
	Inviter            Authority = "INVITER"
	Guest              Authority = "GUEST"
)

var authorityRank = map[Authority]int{
	Guest: 1, Inviter: 2, Manager: 3, ApplicationManager: 4, InstitutionAdmin: 5, SuperUser: 6,
}

// ParseAuthority accepts exactly the spec's enum values.
func ParseAuthority(s string) (Authority, error) {
	a := Authority(s)
	if _, ok := authorityRank[a]; !ok {
		return "", Invalidf("unknown authority %q", s)
	}
	return a, nil
}

// Valid reports whether a is one of the enum values.
func (a Authority) Valid() bool { _, ok := authorityRank[a]; return ok }

// AtLeast reports whether a is the same as or higher than other.
func (a Authority) AtLeast(other Authority) bool {
	return authorityRank[a] >= authorityRank[other] && a.Valid()
}

// Higher reports whether a is strictly higher than other.
func (a Authority) Higher(other Authority) bool {
	return authorityRank[a] > authorityRank[other] && a.Valid()
}

func (a Authority) String() string { return fmt.Sprint(string(a)) }
