package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// An acceptance is written in one transaction, and a transaction holds a
// bounded number of writes: an invitation whose acceptance would not fit
// could be sent but never accepted. So an invitation is sized when it is
// made, as the largest acceptance it can lead to, and refused if that
// would not fit.

// checkAcceptanceFits refuses (KindInvalid) an invitation to roles whose
// acceptance by a new user could not be written in one transaction, saying
// how many of the roles one invitation can hold.
func (s *Service) checkAcceptanceFits(ctx context.Context, p *auth.Principal, inv domain.Invitation, roles []domain.Role) error {
	if len(roles) == 0 {
		return nil
	}
	most, fit, err := mostThatFit(len(roles), func(n int) (bool, error) { return s.acceptanceFits(ctx, p, inv, roles[:n]) })
	if err != nil || fit {
		return err
	}
	return &TooManyRolesError{Most: most,
		err: domain.Invalidf("an invitation can hold at most %d of these roles, as its acceptance is saved all at once: invite to fewer roles per invitation", most)}
}

// checkGrantFits refuses (KindInvalid) a grant made without invitation
// (user-role provisioning, the CRM's) whose commit could not be written in
// one transaction, before anything of it is written, saying how many of
// its new memberships, in the order given, one request can make. The
// grant is sized as commitGrant would write it, its ids not yet drawn.
func (s *Service) checkGrantFits(ctx context.Context, p *auth.Principal, g pendingGrant) error {
	if len(g.fresh) == 0 {
		return nil
	}
	most, fit, err := mostThatFit(len(g.fresh), func(n int) (bool, error) { return s.grantFits(ctx, p, g.firstRoles(n)) })
	if err != nil || fit {
		return err
	}
	return &TooManyRolesError{Most: most,
		err: domain.Invalidf("at most %d of these roles can be granted in one request, as a grant is saved all at once: grant fewer roles per request", most)}
}

// mostThatFit says whether all n fit and, if not, the most of the first
// that do: the writes grow with the roles, so a bisection finds it in a
// few sizings (refusals only).
func mostThatFit(n int, fits func(n int) (bool, error)) (most int, all bool, err error) {
	if all, err = fits(n); err != nil || all {
		return n, all, err
	}
	over := n
	for over-most > 1 {
		mid := (most + over) / 2
		ok, err := fits(mid)
		if err != nil {
			return 0, false, err
		}
		if ok {
			most = mid
		} else {
			over = mid
		}
	}
	return most, false, nil
}

// grantFits says whether g, committed, fits in one transaction. The ids
// it has not drawn yet (the user's, its memberships', its audit entries')
// are stand-ins: the number of writes does not depend on them.
func (s *Service) grantFits(ctx context.Context, p *auth.Principal, g pendingGrant) (bool, error) {
	acc, err := s.grantAcceptance(ctx, p, g)
	if err != nil {
		return false, err
	}
	if acc.User.ID == 0 {
		acc.User.ID = 1
	}
	for i := range acc.NewUserRoles {
		acc.NewUserRoles[i].ID, acc.NewUserRoles[i].UserID = int64(i+1), acc.User.ID
	}
	for i := range acc.Audit {
		if acc.Audit[i].ID == 0 {
			acc.Audit[i].ID = int64(i + 1)
		}
	}
	writes, limit, err := s.Store.AcceptanceWrites(ctx, acc)
	if err != nil {
		return false, err
	}
	return writes <= limit, nil
}

// TooManyRolesError refuses an invitation to more roles than its
// acceptance could save, or a grant of more than one save holds
// (KindInvalid); Most is how many of its roles (of a grant: of those not
// held yet), in the order given, one invitation or grant can hold, for
// pages to say in their language.
type TooManyRolesError struct {
	Most int
	err  error
}

func (e *TooManyRolesError) Error() string { return e.err.Error() }
func (e *TooManyRolesError) Unwrap() error { return e.err }

// acceptanceFits says whether the largest acceptance of inv limited to
// roles fits in one transaction.
func (s *Service) acceptanceFits(ctx context.Context, p *auth.Principal, inv domain.Invitation, roles []domain.Role) (bool, error) {
	acc, err := s.largestAcceptance(ctx, p, inv, roles)
	if err != nil {
		return false, err
	}
	writes, limit, err := s.Store.AcceptanceWrites(ctx, acc)
	if err != nil {
		return false, err
	}
	return writes <= limit, nil
}

// largestAcceptance is the acceptance of inv (to roles) with the most
// writes: by a new user, who holds none of the roles and is known at no SP
// (so every membership is new and every SP gets the user created), with a
// name of more words than a user's search entries keep (the accepting
// person's name is not known yet). It is built as Accept builds one
// (newMembership, acceptanceDeliveries, auditEntry) and never written.
func (s *Service) largestAcceptance(ctx context.Context, p *auth.Principal, inv domain.Invitation, roles []domain.Role) (domain.Acceptance, error) {
	now := s.now()
	inv.RoleIDs = roleIDs(roles)
	inv.Status, inv.AcceptedAt = domain.InvitationAccepted, &now
	if inv.ID == 0 {
		inv.ID = 1 // any: it is not written, but an acceptance without one writes no invitation
	}
	user := domain.User{ID: 1, Sub: "sizing", Name: longestName, Email: "sizing@example.org",
		EduPersonPrincipalName: "sizing@eppn.example", OrganizationGUID: inv.OrganizationGUID,
		InternalPlaceholderIdentifier: inv.InternalPlaceholderIdentifier, CreatedAt: now, LastActivity: now}
	if inv.IntendedAuthority == domain.InstitutionAdmin && inv.OrganizationGUID != "" {
		user.InstitutionAdmin, user.InstitutionAdminByInvite = true, true
	}
	acc := domain.Acceptance{Invitation: inv, User: user, NewUser: true}
	var provisioned []domain.Role
	for i, role := range roles {
		ur := newMembership(inv, user, role, now)
		ur.ID = int64(i + 1)
		acc.NewUserRoles = append(acc.NewUserRoles, ur)
		acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditAdd))
		if ur.Provisioned() {
			provisioned = append(provisioned, role)
		}
	}
	for i := range acc.Audit {
		acc.Audit[i].ID = int64(i + 1)
	}
	deliveries, err := s.acceptanceDeliveries(ctx, user, true, provisioned)
	if err != nil {
		return domain.Acceptance{}, err
	}
	acc.Deliveries = deliveries
	return acc, nil
}

// longestName has more distinct words, each of its own first letter, than
// a user's search entries keep: the most search items a name can make.
const longestName = "aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr ss tt uu vv ww xx yy zz"
