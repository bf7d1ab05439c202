package domain

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RoleSorts are the orders a role listing is kept in, each an index of its
// own per organization and over all roles; "userRoleCount" (the member
// count, which every membership changes) is not indexed.
var RoleSorts = []string{"name", "id", "description", "createdAt"}

// RoleSortUserRoleCount orders roles by their number of members.
const RoleSortUserRoleCount = "userRoleCount"

// maxRoleSortText bounds the text part of a sort key (DynamoDB sort keys
// hold 1,024 bytes): roles whose names or descriptions agree on their
// first 200 bytes are ordered by id.
const maxRoleSortText = 200

// RoleSortKey is the string a role is ordered by under a sort ("name" for
// an unknown one): listings sort by it in memory and the store's indexes
// hold it as their sort key, so both agree on every tie. Texts are lower
// case with control characters as spaces, cut at 200 bytes, then a \x01
// (below every character left) and the id in 19 digits; "id" is the id
// alone, "createdAt" the creation time in a fixed-width form.
func RoleSortKey(r Role, sort string) string {
	id := fmt.Sprintf("%019d", r.ID)
	switch sort {
	case "id":
		return id
	case "createdAt":
		return r.Auditable.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z") + "#" + id
	case "description":
		return roleSortText(strings.ToLower(r.Description)) + "\x01" + id
	default:
		return roleSortText(NormalizedRoleName(r.Name)) + "\x01" + id
	}
}

func roleSortText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) <= maxRoleSortText {
		return s
	}
	cut := maxRoleSortText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// RoleListQuery asks for one page of the roles of an organization, or of
// every role when OrganizationGUID is "" (super users), matching the
// query's words as prefixes of the words of name and description.
type RoleListQuery struct {
	OrganizationGUID string
	Page             PageRequest
	// NoMemberCounts: the caller shows no member counts (the invite
	// form), so the page's roles are read without their counters
	// (UserRoleCount 0) unless the page is sorted by them.
	NoMemberCounts bool
}

// RoleSearchTooBroad answers a role search whose every word names more
// roles than the store reads for one page (bound), or a member-count sort
// of more: a true total and page would mean reading them all. KindInvalid
// (400 on the API); IsSearchTooBroad tells it apart, as for people.
func RoleSearchTooBroad(bound int) error {
	return &searchTooBroad{bound: bound, err: &Error{Kind: KindInvalid, Message: fmt.Sprintf(
		"the query matches more than %d roles (or sorts more by members): add a word or type more of a name", bound)}}
}
