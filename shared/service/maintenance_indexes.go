package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// RepairIndexes rebuilds, one page of roles or users per call, the derived
// items that data written by older versions lack (see
// domain.IndexRepairStore): super users only, called after an upgrade from
// an empty cursor, then with each answer's next cursor until done.
func (s *Service) RepairIndexes(ctx context.Context, p *auth.Principal, cursor string, limit int) (domain.IndexRepair, error) {
	if err := requireSuperUser(p); err != nil {
		return domain.IndexRepair{}, err
	}
	res, err := s.Store.RepairIndexes(ctx, cursor, limit)
	// The members of a role marked mid-move that the page did not carry
	// go on in role move jobs, whatever the role's size.
	for _, left := range res.RoleMovesLeft {
		if err != nil {
			break
		}
		if _, err = s.continueRoleMove(ctx, p, left.RoleID, left.Cursor); err == nil {
			res.RoleMovesHandedOn++
		}
	}
	if err == nil && (res.RoleCountsRepaired+res.WordItemsWritten+res.SummariesWritten > 0 || res.Done) {
		s.log().InfoContext(ctx, "indexes repaired", "roles", res.Roles, "roleCounts", res.RoleCountsRepaired, "users", res.Users,
			"wordItems", res.WordItemsWritten, "roleSummaries", res.SummariesWritten, "done", res.Done, "by", p.Name)
	}
	return res, err
}
