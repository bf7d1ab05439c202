package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// removalChunk bounds the memberships removed in one transaction. Each
// costs up to five writes with two SPs per role (membership, audit entry,
// two group deliveries, its organization item and count), and the last
// chunk adds the user's own items (user, sub, up to 16 words, counts, one
// deletion per SP): 8 keeps that well within DynamoDB's 100 writes.
const removalChunk = 8

// DeleteUser removes a user (super users only, as the reference): every
// membership with an audit entry and its group removal at each SP, then
// the user in the service and at every SP where it was created. It uses
// the removal of the lifecycle (Store.ApplyRemoval); a user with many
// memberships loses them in several transactions, the user going with the
// last one.
func (s *Service) DeleteUser(ctx context.Context, p *auth.Principal, userID int64) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	if !p.SuperUser {
		return domain.Forbiddenf("only super users delete users")
	}
	user, err := s.Store.GetUser(ctx, userID)
	if err != nil {
		return err
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return err
	}
	var sps spSet
	for start := 0; ; start += removalChunk {
		chunk := urs[min(start, len(urs)):min(start+removalChunk, len(urs))]
		var removal domain.Removal
		for _, ur := range chunk {
			removal.UserRoles = append(removal.UserRoles, ur)
			role, err := s.Store.GetRole(ctx, ur.RoleID)
			if domain.IsNotFound(err) {
				role = domain.Role{ID: ur.RoleID}
			} else if err != nil {
				return err
			}
			removal.Audit = append(removal.Audit, s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditDelete))
			for _, sp := range s.Registry.SPsOfRole(role) {
				removal.Deliveries = append(removal.Deliveries, s.newDelivery(ctx, sp, domain.DeliverMemberRemove, userID, role.ID))
				sps.add(sp.ID)
			}
		}
		last := start+removalChunk >= len(urs)
		if last {
			deletions, err := s.userDeleteDeliveries(ctx, user, &sps)
			if err != nil {
				return err
			}
			removal.Deliveries = append(removal.Deliveries, deletions...)
			removal.DeleteUser = &user
		}
		if err := s.applyRemoval(ctx, removal); err != nil {
			return err
		}
		if last {
			return nil
		}
	}
}
