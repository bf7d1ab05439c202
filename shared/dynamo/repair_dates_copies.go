package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// A repaired date has copies: a membership's end date is in its user's
// role summary, an invitation's dates in its InvitationRole items. The
// repair writes them in the same transaction as the item, so that no copy
// keeps the bad date.

// rewriteRepairedMembership writes the repaired membership and its entry in
// the user's role summary. A user whose summary has no entry for the role
// (one of more than 200 memberships) gets the membership only.
func (s *Store) rewriteRepairedMembership(ctx context.Context, ur domain.UserRole) error {
	t := s.newTxn()
	t.put(newUserRoleRecord(ur, ur.Version+1))
	entry := expression.Name(roleSummaryAttr(ur.RoleID))
	t.updateItem(userKey(ur.UserID),
		expression.Set(entry, expression.Value(newRoleSummaryRecord(ur))).Add(expression.Name(attrRolesVersion), expression.Value(1)),
		expression.AttributeExists(entry), always(errNoSummaryEntry))
	err := t.commit(ctx)
	if errors.Is(err, errNoSummaryEntry) {
		return s.putItem(ctx, newUserRoleRecord(ur, ur.Version+1))
	}
	return err
}

var errNoSummaryEntry = errors.New("no role summary entry")

// rewriteRepairedInvitation writes the repaired invitation and the copy of
// it on each of its InvitationRole items.
func (s *Store) rewriteRepairedInvitation(ctx context.Context, inv domain.Invitation) error {
	t := s.newTxn()
	inv.Version++
	t.put(newInvitationRecord(inv, inv.Version))
	for _, roleID := range distinctIDs(inv.RoleIDs) {
		t.put(newInvitationRoleRecord(inv, roleID))
	}
	return t.commit(ctx)
}
