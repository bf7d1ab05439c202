package service

import (
	"context"
	"slices"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// pendingGrant is a grant of memberships before it is committed: an
// acceptance, a provisioning without invitation (U8) and a CRM profile all
// end in one.
type pendingGrant struct {
	// acc holds the user, the accepted invitation (if any), the extended
	// memberships with their audit entries, and the new memberships, which
	// get their ids and ADD audit entries in commitGrant.
	acc domain.Acceptance
	// fresh is the role of each of acc.NewUserRoles, in the same order.
	fresh []domain.Role
	// provisioned are the roles whose membership reaches their
	// applications now (UserRole.Provisioned): the user is created at and
	// added to the SPs of these only.
	provisioned []domain.Role
	// followUps are deliveries that follow the user creation and the
	// memberships at an SP, such as a changed externalId.
	followUps []domain.Delivery
}

// commitGrant is the one way a grant is committed: the new memberships get
// their ids and ADD audit entries; the user creation at each SP that does
// not know the user, the group adds and the follow-ups are queued; the
// user, the memberships, the audit entries, the invitation and the
// deliveries are written in one transaction, and the deliveries are then
// dispatched. It returns the committed acceptance.
func (s *Service) commitGrant(ctx context.Context, p *auth.Principal, g pendingGrant) (domain.Acceptance, error) {
	acc, err := s.grantAcceptance(ctx, p, g)
	if err != nil {
		return domain.Acceptance{}, err
	}
	if err := s.assignIDs(ctx, &acc); err != nil {
		return domain.Acceptance{}, err
	}
	if err := s.assignAuditIDs(ctx, acc.Audit); err != nil {
		return domain.Acceptance{}, err
	}
	if err := s.Store.SaveAcceptance(ctx, acc); err != nil {
		return domain.Acceptance{}, err
	}
	s.dispatch(ctx, acc.Deliveries)
	return acc, nil
}

// grantAcceptance is the acceptance that commits g, before its new
// memberships and audit entries are numbered: g's with the ADD audit entry
// of each new membership and the deliveries (the user creation at each SP
// that does not know the user, the group adds, the follow-ups). It writes
// nothing, so a grant can be sized before it is made.
func (s *Service) grantAcceptance(ctx context.Context, p *auth.Principal, g pendingGrant) (domain.Acceptance, error) {
	acc := g.acc
	acc.NewUserRoles = slices.Clone(acc.NewUserRoles)
	acc.Audit = slices.Clone(acc.Audit)
	for i, ur := range acc.NewUserRoles {
		acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, g.fresh[i], acc.User.Email, domain.AuditAdd))
	}
	deliveries, err := s.acceptanceDeliveries(ctx, acc.User, acc.NewUser, g.provisioned)
	if err != nil {
		return domain.Acceptance{}, err
	}
	acc.Deliveries = append(deliveries, g.followUps...)
	return acc, nil
}

// firstRoles is g limited to its first n new memberships (and the
// deliveries and invitation roles of those): what a grant of fewer roles
// would commit.
func (g pendingGrant) firstRoles(n int) pendingGrant {
	out := g
	out.acc.NewUserRoles, out.fresh = g.acc.NewUserRoles[:n:n], g.fresh[:n:n]
	left := map[int64]bool{}
	for _, r := range g.fresh[n:] {
		left[r.ID] = true
	}
	out.provisioned = slices.DeleteFunc(slices.Clone(g.provisioned), func(r domain.Role) bool { return left[r.ID] })
	out.acc.Invitation.RoleIDs = slices.DeleteFunc(slices.Clone(g.acc.Invitation.RoleIDs), func(id int64) bool { return left[id] })
	return out
}
