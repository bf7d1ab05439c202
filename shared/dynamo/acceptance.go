package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// SaveAcceptance applies an acceptance in one transaction: the invitation
// (only while it is still OPEN at the version read; none when its ID is 0,
// as for user-role provisioning), the user (new and
// unique by sub, or version-checked), the memberships, audit entries and
// deliveries. Nothing is written unless everything is. The invitation is the
// first write, so when it was accepted concurrently that is the reported
// reason even if other conditions failed too.
func (s *Store) SaveAcceptance(ctx context.Context, a domain.Acceptance) error {
	inv, u := a.Invitation, a.User
	var stored domain.User
	var summary userRolesState
	orgs := newUserOrgs(u.ID)
	if !a.NewUser {
		var err error
		if stored, summary, err = s.storedUserWithRoles(ctx, u.ID); err != nil {
			return err
		}
		if len(a.NewUserRoles) > 0 || listedDifferently(stored, u) {
			if orgs, err = s.readUserOrgs(ctx, u.ID); err != nil {
				return err
			}
		} else {
			orgs = nil // the organization items stay as they are
		}
	}
	if orgs != nil {
		if err := s.addToOrganizations(ctx, orgs, a.NewUserRoles); err != nil {
			return err
		}
		orgs.setUser(u)
	}
	t := s.newTxn()

	if inv.ID != 0 { // no invitation: memberships provisioned directly (U8)
		stillOpen := versionIs(inv.Version).And(expression.Name("status").Equal(expression.Value(string(domain.InvitationOpen))))
		t.putIf(newInvitationRecord(inv, inv.Version+1), stillOpen, s.acceptedInvitationFailure(inv))
		for _, roleID := range distinctIDs(inv.RoleIDs) { // their copies show it accepted
			t.put(newInvitationRoleRecord(inv, roleID))
		}
	}

	if a.NewUser {
		if u.Sub == "" {
			return domain.Invalidf("a new user needs a sub")
		}
		userItem, err := newUserItem(u, a.NewUserRoles)
		if err != nil {
			return err
		}
		t.putNew(userItem, always(domain.Conflictf("user %d already exists", u.ID)))
		t.putNew(newUserSubRecord(u), always(domain.Conflictf("a user with sub %q already exists", u.Sub)))
		t.indexNewUser(u)
	} else {
		t.updateUser(stored, u, acceptedRoleSummary(summary, a))
	}

	// The memberships carry the user's copy for the role's members index.
	a.NewUserRoles, a.UpdatedUserRoles = withListing(a.NewUserRoles, u), withListing(a.UpdatedUserRoles, u)
	for _, ur := range a.NewUserRoles {
		t.putNew(newUserRoleRecord(ur, 1), always(domain.Conflictf("user %d already has role %d", ur.UserID, ur.RoleID)))
	}
	t.countMembers(a.NewUserRoles, 1)
	for _, roleID := range newRoleIDs(a.NewUserRoles) {
		t.roleExists(roleID)
	}
	for _, ur := range a.UpdatedUserRoles {
		key := userRoleKey(ur.UserID, ur.RoleID)
		t.putVersion(newUserRoleRecord(ur, ur.Version+1), ur.Version, s.versionFailure(key, userRoleNotFound(ur.UserID, ur.RoleID)))
	}
	if orgs != nil {
		t.putUserOrgs(orgs)
	}
	var relist []domain.UserRole
	if !a.NewUser { // the user's other memberships get the copy too when it changed
		written := map[int64]bool{}
		for _, ur := range append(a.NewUserRoles, a.UpdatedUserRoles...) {
			written[ur.RoleID] = true
		}
		var err error
		if relist, err = s.relistMemberships(ctx, t, stored, u, written, len(a.Audit)+len(a.Deliveries)); err != nil {
			return err
		}
	}
	t.putAudit(a.Audit)
	t.putDeliveries(a.Deliveries)
	if err := t.commit(ctx); err != nil {
		return err
	}
	return s.relistLater(ctx, relist, u)
}

// addToOrganizations records new memberships in the user's organization
// items; the roles' organizations are read (one BatchGetItem).
func (s *Store) addToOrganizations(ctx context.Context, orgs *userOrgs, urs []domain.UserRole) error {
	roleIDs := make([]int64, len(urs))
	for i, ur := range urs {
		roleIDs[i] = ur.RoleID
	}
	roleOrgs, err := s.organizationsOfRoles(ctx, roleIDs)
	if err != nil {
		return err
	}
	for _, ur := range urs {
		orgs.addRoles(roleOrgs[ur.RoleID], ur.RoleID)
	}
	return nil
}

// acceptedInvitationFailure explains why an invitation could not be
// accepted. An invitation that is no longer open is Gone (410): it was used
// or withdrawn, and retrying cannot help. One that is open but at another
// version changed under the caller, who may read it again and retry.
func (s *Store) acceptedInvitationFailure(inv domain.Invitation) failure {
	return func(ctx context.Context) error {
		stored, err := s.GetInvitation(ctx, inv.ID)
		switch {
		case err != nil:
			return err
		case stored.Status == domain.InvitationAccepted:
			// 409, as when the accepted invitation is read first: every
			// loser of concurrent accepts gets the same answer.
			return domain.Conflictf("invitation %d has already been accepted", inv.ID)
		case stored.Status != domain.InvitationOpen:
			return domain.Gonef("invitation %d is no longer open", inv.ID)
		}
		return domain.ErrVersionConflict
	}
}

// acceptedRoleSummary is the change of a stored user's role summary by an
// acceptance: entries for the new memberships while the summary is
// complete and small enough (always counted), and new values for the
// entries of updated ones.
func acceptedRoleSummary(stored userRolesState, a domain.Acceptance) *roleSummaryChange {
	if len(a.NewUserRoles) == 0 && len(a.UpdatedUserRoles) == 0 {
		return nil
	}
	c := roleSummaryChange{count: int64(len(a.NewUserRoles))}
	if stored.acceptsNew(len(a.NewUserRoles)) {
		c.set = append(c.set, a.NewUserRoles...)
	}
	for _, ur := range a.UpdatedUserRoles {
		if _, ok := stored.entries[ur.RoleID]; ok {
			c.set = append(c.set, ur)
		}
	}
	return &c
}
