package service

import (
	"context"

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
	acc := g.acc
	if err := s.assignIDs(ctx, &acc); err != nil {
		return domain.Acceptance{}, err
	}
	for i, ur := range acc.NewUserRoles {
		acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, g.fresh[i], acc.User.Email, domain.AuditAdd))
	}
	if err := s.assignAuditIDs(ctx, acc.Audit); err != nil {
		return domain.Acceptance{}, err
	}
	deliveries, err := s.acceptanceDeliveries(ctx, acc.User, acc.NewUser, g.provisioned)
	if err != nil {
		return domain.Acceptance{}, err
	}
	acc.Deliveries = append(deliveries, g.followUps...)
	if err := s.Store.SaveAcceptance(ctx, acc); err != nil {
		return domain.Acceptance{}, err
	}
	s.dispatch(ctx, acc.Deliveries)
	return acc, nil
}
