package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// ListInvitationsOfRole returns every invitation that grants a role, in
// any state (open, expired, accepted), by id: the console's role page
// shows them all. Accepted invitations keep their role links until the
// cleanup purges them. One Query of gsi1 and one BatchGetItem, as
// ListOpenInvitationsOfRole. No domain error (none: empty).
func (s *Store) ListInvitationsOfRole(ctx context.Context, roleID int64) ([]domain.Invitation, error) {
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixInvitation))
	if err != nil {
		return nil, err
	}
	items, err := s.linkedInvitations(ctx, in)
	if err != nil {
		return nil, err
	}
	return invitationsByID(items)
}
