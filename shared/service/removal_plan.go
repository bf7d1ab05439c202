package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
)

// Upper bounds of the writes a removal costs, so that each transaction stays
// within DynamoDB's 100 (the store refuses a larger one before sending it).
// A membership writes itself, its audit entry, an access-ended e-mail, its
// organization item and that organization's count, its role's member
// counter, and one group removal per SP of its role. A user's deletion
// writes the user, its sub item, its search items (up to 16 words, the
// first letters of its words and 2 whole identifiers), its count, an
// institution admin's organization item and count, and one user deletion
// per SP.
const (
	transactionWrites  = 99 // DynamoDB's 100 less the update of the user's role summary
	membershipWrites   = 6
	searchItemsBound   = 34
	userDeletionWrites = 5 + searchItemsBound
	// typicalSearchItems are a person's search items (a few names and an
	// address): the expiry groups several users' removals by it, and a
	// group that turns out too large is applied one user at a time.
	typicalSearchItems = 12
)

// membershipRemoval is the removal of some of one user's memberships.
type membershipRemoval struct {
	by          *auth.Principal // in the audit trail
	user        domain.User
	memberships []domain.UserRole
	// roles are the memberships' roles; a role missing here was deleted and
	// has no SPs to tell.
	roles map[int64]domain.Role
	// deleted are roles just deleted, for the names in the audit trail; their
	// groups are gone at the SPs with their members.
	deleted map[int64]domain.Role
	// notify queues an "access ended" e-mail per membership.
	notify bool
	// leaveSPs deletes the user at every SP where it was created, after the
	// group removals; deleteUser deletes it in the service too.
	leaveSPs, deleteUser bool
	// keptForOthers is set when the user stays because the memberships read
	// after user (its version) include others: the removal then holds only
	// while the user is unchanged (domain.Removal's KeepUser), so that two
	// removals that each saw the other's membership do not both keep it.
	keptForOthers bool
}

// removeMemberships applies a membership removal: each membership goes with
// an audit entry, a group removal at each SP of its role and, with notify,
// an e-mail. Many memberships take several transactions, each within
// DynamoDB's limit; what concerns the user itself goes with the last one, so
// the user never disappears while a membership is left. Each transaction is
// version-checked: a run that fails half-way leaves what is not removed yet
// for the next, and repeating one removes nothing twice.
func (s *Service) removeMemberships(ctx context.Context, r membershipRemoval) (removalResult, error) {
	var res removalResult
	plan, err := s.planRemoval(ctx, r)
	if err != nil {
		return res, err
	}
	for _, step := range plan {
		if err := s.applyRemoval(ctx, step.removal); err != nil {
			return res, err
		}
		res.add(step.removal)
	}
	return res, nil
}

// plannedRemoval is one transaction of a membership removal and an upper
// bound of its writes.
type plannedRemoval struct {
	removal domain.Removal
	writes  int
}

// planRemoval splits a membership removal into its transactions, in the
// order they must be applied (the user's own part last), leaving out empty
// ones.
func (s *Service) planRemoval(ctx context.Context, r membershipRemoval) ([]plannedRemoval, error) {
	var sps spSet
	costs := make([]int, len(r.memberships))
	for i, ur := range r.memberships {
		var targets []domain.ServiceProvider
		if ur.Provisioned() { // others never reached the SPs
			targets = s.Registry.SPsOfRole(r.roles[ur.RoleID])
		}
		for _, sp := range targets {
			sps.add(sp.ID)
		}
		costs[i] = membershipWrites + len(targets)
		if d, deleted := r.deleted[ur.RoleID]; deleted && ur.Provisioned() && r.leaveSPs {
			// The deleted role's group is gone with its members, but the
			// user's creation there may still be under way, without a link
			// yet: the deletion follows it in the user's line, looks the
			// user up and leaves neither a user nor a pending link behind.
			for _, sp := range s.Registry.SPsOfRole(d) {
				sps.add(sp.ID)
			}
		}
	}
	var deletions []domain.Delivery
	finalCost := 0
	if r.leaveSPs || r.deleteUser {
		var err error
		if deletions, err = s.userDeleteDeliveries(ctx, r.user, &sps); err != nil {
			return nil, err
		}
		finalCost = userDeletionWrites + len(deletions)
	}
	chunks := splitRemoval(costs, finalCost)
	var plan []plannedRemoval
	for i, chunk := range chunks {
		var removal domain.Removal
		writes := 1 // the user's role summary
		for j, ur := range r.memberships[chunk.from:chunk.to] {
			if err := s.addMembershipRemoval(ctx, &removal, r, ur); err != nil {
				return nil, err
			}
			writes += costs[chunk.from+j]
		}
		if i == len(chunks)-1 {
			writes += finalCost
			removal.Deliveries = append(removal.Deliveries, deletions...)
			if r.deleteUser {
				removal.DeleteUser = &r.user
			} else if r.keptForOthers && keepsNoRecord(r.user) {
				removal.KeepUser = &r.user
			}
		}
		if len(removal.UserRoles) == 0 && len(removal.Deliveries) == 0 && removal.DeleteUser == nil {
			continue
		}
		plan = append(plan, plannedRemoval{removal: removal, writes: writes})
	}
	return plan, nil
}

// removalResult is what removeMemberships did, also when it failed half-way.
type removalResult struct {
	memberships int                   // removed
	mails       []domain.MailDelivery // queued, for sending after the change
	userDeleted bool
}

// add counts an applied removal.
func (res *removalResult) add(r domain.Removal) {
	res.memberships += len(r.UserRoles)
	res.mails = append(res.mails, r.Mails...)
	res.userDeleted = res.userDeleted || r.DeleteUser != nil
}

// addMembershipRemoval adds one membership's part to a removal.
func (s *Service) addMembershipRemoval(ctx context.Context, removal *domain.Removal, r membershipRemoval, ur domain.UserRole) error {
	role, ok := r.roles[ur.RoleID]
	if !ok {
		role = domain.Role{ID: ur.RoleID}
		if d, deleted := r.deleted[ur.RoleID]; deleted {
			role = domain.Role{ID: d.ID, Name: d.Name, OrganizationGUID: d.OrganizationGUID}
		}
	}
	removal.UserRoles = append(removal.UserRoles, ur)
	removal.Audit = append(removal.Audit, s.auditEntry(ctx, r.by, ur, role, r.user.Email, domain.AuditDelete))
	if ur.Provisioned() { // only guests are group members at the SPs
		for _, sp := range s.Registry.SPsOfRole(role) {
			d := s.newDelivery(ctx, sp, domain.DeliverMemberRemove, r.user.ID, role.ID)
			d.UserEmail, d.RoleName = r.user.Email, role.Name // for the audit, should the user go first
			d.UserSub = r.user.Sub
			removal.Deliveries = append(removal.Deliveries, d)
		}
	}
	if r.notify && role.Name != "" && r.user.Email != "" && s.Renderer != nil {
		email, err := s.Renderer.AccessEnded(mail.AccessEnded{Language: string(ur.Language), To: r.user.Email,
			UserName: r.user.DisplayName(), Role: roleInfo(role)})
		if err != nil {
			return err
		}
		removal.Mails = append(removal.Mails, s.newMail(email))
	}
	return nil
}

// removalChunk is a range of memberships removed in one transaction.
type removalChunk struct{ from, to int }

// splitRemoval splits memberships of the given write costs into chunks of
// at most transactionWrites, the last one with room for finalCost too. It
// always returns at least one chunk (possibly empty: only the final part).
func splitRemoval(costs []int, finalCost int) []removalChunk {
	// The last chunk is filled first, from the end.
	from, used := len(costs), finalCost
	for from > 0 && used+costs[from-1] <= transactionWrites {
		from--
		used += costs[from]
	}
	last := removalChunk{from: from, to: len(costs)}
	var chunks []removalChunk
	start, used := 0, 0
	for i := 0; i < from; i++ {
		if i > start && used+costs[i] > transactionWrites {
			chunks = append(chunks, removalChunk{from: start, to: i})
			start, used = i, 0
		}
		used += costs[i]
	}
	if start < from {
		chunks = append(chunks, removalChunk{from: start, to: from})
	}
	return append(chunks, last)
}
