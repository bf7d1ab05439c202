package service

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// MaxMembersListed bounds the members one unpaged answer holds (U10 and
// the lists of managers): some 800 bytes of JSON each, 5,000 keep the
// answer inside a Lambda response's 6 MB. A role with more members is
// refused with a 400 rather than answered incompletely; its members are
// paged by U9.
const MaxMembersListed = 5000

// DefaultMembersSearchBound bounds the members U9 reads to filter by a
// query, or sort by another field than the name, in memory: one request of
// the role's members index (some 2,000 members a 1 MB page). A role side
// with more members is paged by name without a query (its index order, in
// constant cost); a query or another sort is answered with
// domain.SearchTooBroad, as a people search whose every word is too common.
const DefaultMembersSearchBound = 2000

func (s *Service) membersListedBound() int {
	if s.MembersListedBound > 0 {
		return s.MembersListedBound
	}
	return MaxMembersListed
}

func (s *Service) membersSearchBound() int {
	if s.MembersSearchBound > 0 {
		return s.MembersSearchBound
	}
	return DefaultMembersSearchBound
}

// PageMembersOfRole is U10 paged: one page of every membership of a role,
// by name, with its whole user, and the role's member count, to those who
// may see the role's members. A page costs a bounded number of requests
// however many members the role has, so a role of any size is listed
// page by page (no MaxMembersListed); by page number the members before
// it are still passed (as keys), by page token (req.After, the Next of
// the page before) not at all.
func (s *Service) PageMembersOfRole(ctx context.Context, p *auth.Principal, roleID int64, req domain.PageRequest) (domain.Page[domain.Member], error) {
	if p == nil {
		return domain.Page[domain.Member]{}, domain.Unauthenticatedf("authentication required")
	}
	var role domain.Role
	var page domain.Page[domain.Member]
	var err error
	if req.After != "" {
		role, page, err = s.Store.AllMembersPageOfRoleAfter(ctx, roleID, req.Descending, req.After, req.Size)
		err = s.tokenRefusal(ctx, p, roleID, err)
	} else {
		role, page, err = s.Store.AllMembersPageOfRole(ctx, roleID, req.Descending, req.Offset(), req.Size)
	}
	if err != nil {
		return domain.Page[domain.Member]{}, err
	}
	if !p.CanSeeMembers(role) {
		return domain.Page[domain.Member]{}, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	return page, nil
}

// MembersOfRole returns every membership of a role with its whole user
// (U10 unpaged: every attribute, which the members index's copy does not
// hold), to those who may see the role's members. Its answer is documented
// as bounded (MembersListedBound; more: 400 naming the paged form); no
// other route uses it.
func (s *Service) MembersOfRole(ctx context.Context, p *auth.Principal, roleID int64) (domain.Role, []domain.Member, error) {
	if p == nil {
		return domain.Role{}, nil, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return domain.Role{}, nil, err
	}
	if !p.CanSeeMembers(role) {
		return domain.Role{}, nil, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	bound := s.membersListedBound()
	members, more, err := s.Store.ListMembersOfRole(ctx, roleID, bound)
	if err != nil {
		return domain.Role{}, nil, err
	}
	if more {
		return domain.Role{}, nil, domain.Invalidf("role %d has more than %d members, more than one answer lists: ask for pages (pageNumber, pageSize)", roleID, bound)
	}
	return role, members, nil
}

// MemberCountOfRole is a role and how many members it has (its member
// counter: one BatchGetItem, whatever the role's size), to those who may
// see its members: what the console's role deletion asks before it
// deletes.
func (s *Service) MemberCountOfRole(ctx context.Context, p *auth.Principal, roleID int64) (domain.Role, int64, error) {
	if p == nil {
		return domain.Role{}, 0, domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return domain.Role{}, 0, err
	}
	if !p.CanSeeMembers(role) {
		return domain.Role{}, 0, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	counts, err := s.Store.CountMembersOfRoles(ctx, []int64{roleID})
	if err != nil {
		return domain.Role{}, 0, err
	}
	return role, counts[roleID], nil
}

// Sort fields of SearchMembersOfRole, as the reference names them.
const (
	MemberSortName      = "name"
	MemberSortEmail     = "email"
	MemberSortSchacHome = "schac_home_organization"
	MemberSortAuthority = "authority"
	MemberSortEndDate   = "endDate"
	MemberSortCreatedAt = "createdAt"
)

// MemberSorts are the sort fields SearchMembersOfRole accepts besides the default, name.
// end_date is the reference client's name of endDate.
var MemberSorts = []string{MemberSortEmail, MemberSortSchacHome, MemberSortAuthority, MemberSortEndDate, MemberSortCreatedAt, "end_date"}

// SearchMembersOfRole is U9: one page of a role's members, either its
// guests (authority GUEST, or a higher authority that includes the guest
// role) or its non-guests (any authority but GUEST; as in the reference, a
// manager whose membership includes the guest role is in both lists). The
// query matches word prefixes of the member's names and e-mail address,
// case-insensitively; every word of the query must match.
func (s *Service) SearchMembersOfRole(ctx context.Context, p *auth.Principal, roleID int64, guests bool, req domain.PageRequest) (domain.Page[domain.Member], error) {
	if p == nil {
		return domain.Page[domain.Member]{}, domain.Unauthenticatedf("authentication required")
	}
	byName := req.Sort == "" || req.Sort == MemberSortName
	if req.After != "" && (strings.TrimSpace(req.Query) != "" || !byName) {
		return domain.Page[domain.Member]{}, domain.Invalidf("pageToken walks the members by name without a query: leave out query and sort, or pageToken")
	}
	if strings.TrimSpace(req.Query) == "" && byName {
		var role domain.Role
		var page domain.Page[domain.Member]
		var err error
		if req.After != "" {
			role, page, err = s.Store.MembersPageOfRoleAfter(ctx, roleID, guests, req.Descending, req.After, req.Size)
			err = s.tokenRefusal(ctx, p, roleID, err)
		} else {
			role, page, err = s.Store.MembersPageOfRole(ctx, roleID, guests, req.Descending, req.Offset(), req.Size)
		}
		if err != nil {
			return domain.Page[domain.Member]{}, err
		}
		if !p.CanSeeMembers(role) {
			return domain.Page[domain.Member]{}, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
		}
		return page, nil
	}
	bound := s.membersSearchBound()
	_, members, err := s.memberRowsOfRole(ctx, p, roleID, bound)
	if err != nil {
		if domain.KindOf(err) == domain.KindInvalid {
			return domain.Page[domain.Member]{}, domain.SearchTooBroad(bound)
		}
		return domain.Page[domain.Member]{}, err
	}
	return searchMembers(members, guests, req), nil
}

// tokenRefusal is the answer to a members page by token that the store
// refused (err): a token it does not accept is Invalid only to those who
// may see the role's members; to anyone else the role answers as without
// a token (refused, or missing outside the caller's organization), so that
// a token never tells of a role the caller may not see.
func (s *Service) tokenRefusal(ctx context.Context, p *auth.Principal, roleID int64, err error) error {
	if domain.KindOf(err) != domain.KindInvalid {
		return err
	}
	role, roleErr := s.Store.GetRole(ctx, roleID)
	if roleErr != nil {
		return roleErr
	}
	if !p.CanSeeMembers(role) {
		return s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the members of role %d", roleID))
	}
	return err
}

// searchMembers filters, sorts and pages members in memory.
func searchMembers(members []domain.Member, guests bool, req domain.PageRequest) domain.Page[domain.Member] {
	words := searchWords(req.Query)
	var hits []domain.Member
	for _, m := range members {
		isGuest := m.UserRole.Authority == domain.Guest || m.UserRole.GuestRoleIncluded
		isOther := m.UserRole.Authority != domain.Guest
		if (guests && !isGuest) || (!guests && !isOther) {
			continue
		}
		if matchesWordPrefixes(words, m.User.DisplayName(), m.User.GivenName, m.User.FamilyName, m.User.Email) {
			hits = append(hits, m)
		}
	}
	slices.SortStableFunc(hits, memberOrder(req.Sort, req.Descending))
	page := domain.Page[domain.Member]{Total: int64(len(hits))}
	if start := req.Offset(); start < len(hits) {
		page.Items = hits[start:min(start+req.Size, len(hits))]
	}
	return page
}

// memberOrder compares members by a sort field, the user id breaking ties
// so that pages do not overlap.
func memberOrder(field string, descending bool) func(a, b domain.Member) int {
	key := func(a, b domain.Member) int {
		switch field {
		case MemberSortEmail:
			return strings.Compare(strings.ToLower(a.User.Email), strings.ToLower(b.User.Email))
		case MemberSortSchacHome:
			return strings.Compare(strings.ToLower(a.User.SchacHomeOrganization), strings.ToLower(b.User.SchacHomeOrganization))
		case MemberSortAuthority:
			// Up the ladder: GUEST first.
			switch x, y := a.UserRole.Authority, b.UserRole.Authority; {
			case x.Higher(y):
				return 1
			case y.Higher(x):
				return -1
			}
			return 0
		case MemberSortEndDate, "end_date":
			// No end date sorts last: it is the latest end.
			switch ae, be := a.UserRole.EndDate, b.UserRole.EndDate; {
			case ae == nil && be == nil:
				return 0
			case ae == nil:
				return 1
			case be == nil:
				return -1
			default:
				return ae.Compare(*be)
			}
		case MemberSortCreatedAt:
			return a.UserRole.CreatedAt.Compare(b.UserRole.CreatedAt)
		default:
			return strings.Compare(strings.ToLower(a.User.DisplayName()), strings.ToLower(b.User.DisplayName()))
		}
	}
	return func(a, b domain.Member) int {
		c := key(a, b)
		if descending {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.User.ID, b.User.ID))
	}
}
