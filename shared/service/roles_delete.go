package service

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// DeleteRole removes a role and its group at every SP. The spec answers a
// caller without access with 400 (spec 7), which the HTTP layer does for
// this use case.
//
// The role goes first, in one transaction with its group deletions, so that
// no membership can be added to it afterwards (an acceptance checks that its
// roles exist); its memberships follow, one member at a time. A member's
// removal can lose to a concurrent write of that member and is then tried
// again; should it still fail, the deletion answers the conflict and stays
// in progress (the store keeps the deleted role until its members are
// gone), so that the caller's retry of the same DELETE finishes it instead
// of answering 404.
//
// A DELETE that finds the role's deletion under way (a repeated DELETE, or
// two at the same moment, of which the other deleted the role's item
// first) answers as that deletion does: the role is gone for the caller
// too, and its members follow. Only once the deletion is finished does the
// role answer as missing.
func (s *Service) DeleteRole(ctx context.Context, p *auth.Principal, id int64) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	for attempt := 0; ; attempt++ {
		role, inProgress, err := s.roleOrItsDeletion(ctx, id)
		if err != nil {
			return err
		}
		if err := s.mayDeleteRole(ctx, p, role); err != nil {
			return err
		}
		if inProgress {
			return s.removeMembersOfDeletedRole(ctx, p, role)
		}
		err = s.deleteRoleItem(ctx, p, role)
		if err == nil {
			return s.removeMembersOfDeletedRole(ctx, p, role)
		}
		// The role's item was deleted by a concurrent DELETE (its deletion
		// is now under way) or changed by an update since it was read:
		// read it again.
		if attempt == 2 || !(errors.Is(err, domain.ErrVersionConflict) || domain.IsNotFound(err)) {
			return err
		}
	}
}

// roleOrItsDeletion reads the role, or its deletion in progress
// (inProgress); NotFound when there is neither.
func (s *Service) roleOrItsDeletion(ctx context.Context, id int64) (role domain.Role, inProgress bool, err error) {
	role, err = s.Store.GetRole(ctx, id)
	if domain.IsNotFound(err) {
		if deleted, gone := s.Store.GetRoleDeletion(ctx, id); gone == nil {
			return deleted, true, nil
		}
	}
	return role, false, err
}

// mayDeleteRole checks p's right to delete the role.
func (s *Service) mayDeleteRole(ctx context.Context, p *auth.Principal, role domain.Role) error {
	if p.CanManageRole(role) {
		return nil
	}
	inOrganization, err := s.callerIsInOrganization(ctx, p, role.OrganizationGUID)
	if err != nil {
		return err
	}
	if !inOrganization && p.Memberships[role.ID] == "" {
		// Another organization's role answers as a missing one.
		return roleNotFound(role.ID)
	}
	return domain.Forbiddenf("no access to role %d", role.ID)
}

// deleteRoleItem deletes the role itself, with its group at every SP, and
// records it.
func (s *Service) deleteRoleItem(ctx context.Context, p *auth.Principal, role domain.Role) error {
	var deliveries []domain.Delivery
	for _, sp := range s.Registry.SPsOfRole(role) {
		d := s.newDelivery(ctx, sp, domain.DeliverGroupDelete, 0, role.ID)
		d.ExternalID, d.RoleName = role.URN, role.Name
		deliveries = append(deliveries, d)
	}
	if err := s.Store.DeleteRole(ctx, role, deliveries); err != nil {
		return err
	}
	s.dispatch(ctx, deliveries)
	s.recordRoleChange(ctx, p, role, domain.AuditRoleDeleted)
	return nil
}

// removeMembersOfDeletedRole is a DELETE's part of the removal of a
// deleted role's members: its budget, the rest in a role deletion job.
func (s *Service) removeMembersOfDeletedRole(ctx context.Context, p *auth.Principal, role domain.Role) error {
	done, err := s.removeMembershipsOfDeletedRole(ctx, p, role, s.roleDeletionBudget(), time.Time{})
	if err != nil {
		return err
	}
	if !done {
		_, err := s.continueRoleDeletion(ctx, p, role.ID)
		return err
	}
	return s.Store.FinishRoleDeletion(ctx, role.ID)
}

// removeMembershipsOfDeletedRole removes every membership of a deleted
// role, each with its DELETE audit entry, as any other removal: a member
// whose last membership it was leaves the service and every SP.
//
// The members are listed from an index (gsi1), which is eventually
// consistent: an acceptance that committed just before the role's deletion
// may not be listed yet. The role's member counter is read consistently
// from the table, so the removal is done only when the listing is empty
// and the counter says no membership is left; until then it lists again.
//
// It stops once it has removed budget members (0: no bound) or at stopAt
// (zero: none), with done false: the caller hands the rest on
// (continueRoleDeletion).
//
// A pass in which it removed none while the counter went down is another
// remover's (the other of two DELETEs of the role, or its job), ahead of
// this one and taking the members it lists before it can: that is no
// conflict. A DELETE then hands the rest on as at its budget, and a job
// goes on at the other's pace; either way the deletion ends in a remover
// that finishes it, whichever of them stops.
func (s *Service) removeMembershipsOfDeletedRole(ctx context.Context, p *auth.Principal, role domain.Role, budget int, stopAt time.Time) (done bool, err error) {
	idle, removedCount := 0, 0
	membersLeft := func() (int64, error) {
		counts, err := s.Store.CountMembersOfRoles(ctx, []int64{role.ID})
		return counts[role.ID], err
	}
	for {
		if !stopAt.IsZero() && !time.Now().Before(stopAt) {
			return false, nil
		}
		before, err := membersLeft()
		if err != nil {
			return false, err
		}
		page, _, err := s.Store.ListUserRolesOfRole(ctx, role.ID, "", 100)
		if err != nil {
			return false, err
		}
		progress := false
		if len(page) == 0 && before <= 0 {
			return true, nil
		}
		for _, ur := range page {
			if (budget > 0 && removedCount >= budget) || (!stopAt.IsZero() && !time.Now().Before(stopAt)) {
				return false, nil
			}
			err := s.retryConflicts(ctx, func() error {
				removed, err := s.leaveDeletedRole(ctx, p, role, ur.UserID)
				progress = progress || removed
				if removed {
					removedCount++
				}
				return err
			})
			if err != nil {
				return false, err
			}
		}
		// Removing shifts the pages: start over until none are left. A page
		// of memberships already removed, or none while the counter holds
		// some, is the index catching up, unless another remover took them.
		if !progress {
			after, err := membersLeft()
			if err != nil {
				return false, err
			}
			if after < before {
				if budget > 0 {
					return false, nil
				}
				idle = 0
				if err := sleepCtx(ctx, conflictRetries[len(conflictRetries)-1]); err != nil {
					return false, err
				}
				continue
			}
			if idle++; idle > len(conflictRetries) {
				return false, domain.ErrVersionConflict
			}
			if err := sleepCtx(ctx, conflictRetries[idle-1]); err != nil {
				return false, err
			}
		}
	}
}

// leaveDeletedRole removes one user's membership of a deleted role, read
// afresh. When the user holds no membership of a role that still exists,
// the user goes too (super users and institution admins keep their record:
// their rights are not memberships), with the memberships of other roles
// deleted meanwhile, whose own deletions then find nothing left to do.
func (s *Service) leaveDeletedRole(ctx context.Context, p *auth.Principal, role domain.Role, userID int64) (removed bool, err error) {
	// The user is read before its memberships: a removal that keeps the
	// user holds only while the user is at the version read (KeepUser), so
	// that it cannot keep the user on a membership another removal took
	// after it was listed.
	user, userErr := s.Store.GetUser(ctx, userID)
	if userErr != nil && !domain.IsNotFound(userErr) {
		return false, userErr
	}
	memberships, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return false, err
	}
	var mine *domain.UserRole
	for i := range memberships {
		if memberships[i].RoleID == role.ID {
			mine = &memberships[i]
		}
	}
	if mine == nil {
		return false, nil // removed meanwhile
	}
	if domain.IsNotFound(userErr) {
		// A membership left by a user's removal that lost a race: it goes alone.
		audit := []domain.AuditEntry{s.auditEntry(ctx, p, *mine, role, "", domain.AuditDelete)}
		if err := s.assignAuditIDs(ctx, audit); err != nil {
			return false, err
		}
		return true, s.Store.DeleteUserRoles(ctx, []domain.UserRole{*mine}, audit, nil)
	}
	roles, err := s.rolesOf(ctx, memberships)
	if err != nil {
		return false, err
	}
	var ofGoneRoles []domain.UserRole
	for _, ur := range memberships {
		if _, exists := roles[ur.RoleID]; !exists {
			ofGoneRoles = append(ofGoneRoles, ur)
		}
	}
	last := len(ofGoneRoles) == len(memberships)
	gone := []domain.UserRole{*mine}
	if last {
		gone = ofGoneRoles
	}
	_, err = s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: gone, roles: roles,
		deleted: map[int64]domain.Role{role.ID: role}, leaveSPs: last,
		deleteUser: last && keepsNoRecord(user), keptForOthers: !last})
	return err == nil, err
}

// keepsNoRecord tells whether a user without memberships leaves the service:
// super users and institution admins stay, as their rights are not
// memberships. Every removal (expiry, DELETE /user_roles, role deletion)
// applies it.
func keepsNoRecord(u domain.User) bool { return !u.SuperUser && !u.InstitutionAdmin }

// conflictRetries bounds how often a step that lost to a concurrent write
// is tried again, read afresh, before the conflict is the caller's.
var conflictRetries = []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond,
	80 * time.Millisecond, 160 * time.Millisecond, 320 * time.Millisecond, 640 * time.Millisecond}

// retryConflicts runs step until it does not lose to a concurrent write
// (a version conflict, or an item that another writer removed first).
func (s *Service) retryConflicts(ctx context.Context, step func() error) error {
	for attempt := 0; ; attempt++ {
		err := step()
		if err == nil || attempt == len(conflictRetries) || !(errors.Is(err, domain.ErrVersionConflict) || domain.IsNotFound(err)) {
			return err
		}
		if err := sleepCtx(ctx, conflictRetries[attempt]); err != nil {
			return err
		}
	}
}

// sleepCtx waits between d/2 and d, so that writers that collided do not
// collide again in step, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d/2 + rand.N(d/2+1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
