package dynamo

import (
	"cmp"
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// ListInvitationsOfRole returns the invitations of a role that a list of
// them shows, by id: every open one (as ListOpenInvitationsOfRole: its
// links, then the open invitations themselves) and the newest
// RoleViewHistory of its history (expired or accepted, kept until the
// cleanup purges them), decoded from their links' copies in the role's
// members index (gsi4 INVH#…, newest first), as the role's page reads
// them. The two Queries go together, so a year of accepted invitations
// costs nothing more. No domain error (none: empty).
func (s *Store) ListInvitationsOfRole(ctx context.Context, roleID int64) ([]domain.Invitation, error) {
	var open, history []domain.Invitation
	err := together(ctx, func(gctx context.Context) error {
		var err error
		open, err = s.ListOpenInvitationsOfRole(gctx, roleID)
		return err
	}, func(gctx context.Context) error {
		in, err := s.partitionQuery(indexGSI4, membersIndexPK(roleID), sortKeyPrefix(prefixInvitationHistory))
		if err != nil {
			return err
		}
		links, err := queryUpTo(gctx, s, in, RoleViewHistory, asItem)
		if err != nil {
			return err
		}
		for _, av := range links {
			var link invitationRoleRecord
			if err := unmarshal(av, &link); err != nil {
				return err
			}
			inv, err := link.invitation()
			if err != nil {
				return err
			}
			history = append(history, inv)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	invs := append(open, history...)
	slices.SortStableFunc(invs, func(a, b domain.Invitation) int { return cmp.Compare(a.ID, b.ID) }) // an open one read whole first
	return slices.CompactFunc(invs, func(a, b domain.Invitation) bool { return a.ID == b.ID }), nil
}

// openLinkedInvitations is linkedInvitations for the open invitations only:
// a role's links carry a copy of their invitation's status, so the links
// of its history (accepted invitations, kept a year) are skipped before
// the BatchGetItem, and a year of accepted invitations costs the Query's
// small items, not a read of every invitation. Links of older versions
// (no copy) are given one by the index repair (repairHistoryLinks), once
// after an upgrade; until then they are skipped.
func (s *Store) openLinkedInvitations(ctx context.Context, in *dynamodb.QueryInput) ([]item, error) {
	links, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	keys := make([]itemKey, 0, len(links))
	for _, av := range links {
		var link invitationRoleRecord
		if err := unmarshal(av, &link); err != nil {
			return nil, err
		}
		if link.Status != string(domain.InvitationOpen) {
			continue
		}
		keys = append(keys, invitationKey(link.InvitationID))
	}
	return s.batchGet(ctx, keys)
}
