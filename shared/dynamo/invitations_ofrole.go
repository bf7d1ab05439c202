package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// ListInvitationsOfRole returns every invitation that grants a role, in
// any state (open, expired, accepted), by id: the console's role page
// shows them all. Accepted invitations keep their role links until the
// cleanup purges them. One Query of gsi1 and one BatchGetItem, as
// ListOpenInvitationsOfRole. No domain error (none: empty).
func (s *Store) ListInvitationsOfRole(ctx context.Context, roleID int64) ([]domain.Invitation, error) {
	// INV (no #): the open links (INV#…) and the history (INVH#…).
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix("INV"))
	if err != nil {
		return nil, err
	}
	items, err := s.linkedInvitations(ctx, in)
	if err != nil {
		return nil, err
	}
	return invitationsByID(items)
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
