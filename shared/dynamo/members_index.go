package dynamo

import (
	"context"
	"unicode/utf8"

	"github.com/edu-invite/invite/shared/domain"
)

// The members index of a role: gsi4 partition ROLE#<roleId> holds
//
//	#ROLE                        the role itself (every role item)
//	INV#<invitationId>           its invitation links, each with a copy of
//	                             what a listing shows of the invitation
//	UR#<sort name>#<userId>      its memberships that carry a copy of their
//	                             user (domain.MemberListing), by name
//
// so that a role's page reads the role and its invitations in one Query and
// a page of members, by name, in another. Every write of a membership
// carries the copy: acceptance and user-role provisioning (SaveAcceptance),
// the seed, and every read-modify-write (end date, reminders, date repair)
// keeps what it read; a change of the user's names, e-mail, home or
// organization rewrites the user's memberships in the same transaction
// (UpdateUser, SaveAcceptance: the projection step, projection.go). Memberships written
// before the index existed have no copy and are not in it: the index repair
// (RepairIndexes) completes every role whose item lacks `membersListed`
// (RebuildMembersIndexOfRole) once after an upgrade; reads trust the index.

// maxSortNameBytes bounds the name part of a sort key (gsi4sk may hold
// 1024 bytes): names agreeing in their first 200 bytes are ordered by id.
const maxSortNameBytes = 200

// roleIndexSK is the role item's place in its own members index: before
// the invitations ("INV#…") and members ("UR#…").
const roleIndexSK = "#ROLE"

func membersIndexPK(roleID int64) string { return prefixRole + id(roleID) }

// listingSortName is the name a member is listed by: the display name, else
// the e-mail address, lower case (as the people listing, userSortName).
func listingSortName(l domain.MemberListing) string {
	return userSortName(domain.User{Name: l.Name, Email: l.Email})
}

func memberIndexSK(l domain.MemberListing, userID int64) string {
	name := listingSortName(l)
	if len(name) > maxSortNameBytes {
		cut := maxSortNameBytes
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	return prefixUserRole + name + "#" + id(userID)
}

// relistLater writes the copies that did not fit the user's transaction
// (a user with some 80 memberships or more), one membership at a time,
// reading it again when it changed in between (relistOne).
func (s *Store) relistLater(ctx context.Context, urs []domain.UserRole, u domain.User) error {
	for _, ur := range urs {
		if err := s.relistOne(ctx, ur, u); err != nil {
			return err
		}
	}
	return nil
}

// getRoleRecord reads a role consistently.
func (s *Store) getRoleRecord(ctx context.Context, roleID int64) (domain.Role, error) {
	var rec roleRecord
	found, err := s.getItem(ctx, roleKey(roleID), &rec)
	if err != nil {
		return domain.Role{}, err
	}
	if !found {
		return domain.Role{}, roleNotFound(roleID)
	}
	return rec.domain()
}

// The role's memberships by side: gsi1 partition ROLE#<roleId> holds every
// membership under UR#<class>#<sort name>#<userId>, the class saying which
// of U9's sides it is on (sidesOf):
//
//	UR#G#…   guests only (authority GUEST)
//	UR#B#…   both: a higher authority whose membership includes the guest role
//	UR#N#…   non-guests only
//
// so that a page of one side, by name, reads only that side: the guests
// are G and B, the non-guests N and B, each two Queries merged by the part
// after the class (the same order as the members index, gsi4). Every
// membership is in exactly one class, so a Query of UR# still lists each
// once (ListUserRolesOfRole). The key follows the membership's authority,
// guest role and copy of its user, so every write of the membership
// (newUserRoleRecord, through the projection step) keeps it; memberships
// of older versions (UR#<userId>) are rewritten by the index repair
// (RebuildMembersIndexOfRole, roles without `membersSided`).
const (
	classGuests    = "G#"
	classBoth      = "B#"
	classNonGuests = "N#"
)

// memberClass is the class of a membership's side key.
func memberClass(ur domain.UserRole) string {
	switch sides := sidesOf(ur); {
	case len(sides) == 2:
		return classBoth
	case sides[0] == sideGuests:
		return classGuests
	default:
		return classNonGuests
	}
}

// classesOfSide are the classes whose members are on a side.
func classesOfSide(guests bool) []string {
	if guests {
		return []string{classGuests, classBoth}
	}
	return []string{classNonGuests, classBoth}
}

// memberSideSK is a membership's gsi1 sort key: its class, then its place
// in the members index (memberIndexSK without its prefix).
func memberSideSK(ur domain.UserRole) string {
	return prefixUserRole + memberClass(ur) + memberIndexSK(ur.Listing, ur.UserID)[len(prefixUserRole):]
}
