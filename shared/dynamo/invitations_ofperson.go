package dynamo

import (
	"cmp"
	"context"
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// PersonInvitationsPage bounds the role links one read of a person's
// invitations takes: one Query of at most this many small items (an
// invitation to several roles has a link per role), so that a person's
// page costs the same whatever the histories of their roles.
const PersonInvitationsPage = 100

// ListInvitationsOfPerson returns the invitations sent to an address
// (compared trimmed and in lower case), newest first: the newest
// PersonInvitationsPage role links of the address's partition (gsi2
// INVPERSON#<address>, one Query), each invitation once, decoded from the
// links' copies, and the open ones read whole (one BatchGetItem: a copy
// never holds the link's secret). Links of older versions without the
// person key are not found until the index repair gives them one
// (repairHistoryLinks). No domain error (none: empty).
func (s *Store) ListInvitationsOfPerson(ctx context.Context, email string) ([]domain.Invitation, error) {
	pk := invitationPersonPK(email)
	if pk == "" {
		return nil, nil
	}
	in, err := s.partitionQuery(indexGSI2, pk, nil)
	if err != nil {
		return nil, err
	}
	links, err := queryUpTo(ctx, s, in, PersonInvitationsPage, asItem)
	if err != nil {
		return nil, err
	}
	byID := map[int64]domain.Invitation{}
	var open []int64
	for _, av := range links {
		var link invitationRoleRecord
		if err := unmarshal(av, &link); err != nil {
			return nil, err
		}
		if _, seen := byID[link.InvitationID]; seen {
			continue
		}
		inv, err := link.invitation()
		if err != nil {
			return nil, err
		}
		byID[inv.ID] = inv
		if inv.Status == domain.InvitationOpen {
			open = append(open, inv.ID)
		}
	}
	if len(open) > 0 {
		keys := make([]itemKey, len(open))
		for i, invID := range open {
			keys[i] = invitationKey(invID)
		}
		items, err := s.batchGet(ctx, keys)
		if err != nil {
			return nil, err
		}
		whole := map[int64]bool{}
		for _, av := range items {
			inv, err := decodeInvitation(av)
			if err != nil {
				return nil, err
			}
			byID[inv.ID], whole[inv.ID] = inv, true
		}
		for _, invID := range open {
			if !whole[invID] {
				delete(byID, invID) // deleted since its link was read
			}
		}
	}
	invs := make([]domain.Invitation, 0, len(byID))
	for _, inv := range byID {
		invs = append(invs, inv)
	}
	slices.SortFunc(invs, func(a, b domain.Invitation) int { return cmp.Compare(b.ID, a.ID) })
	return invs, nil
}
