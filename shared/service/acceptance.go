package service

import (
	"context"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// AcceptResult tells the accepting person what they now hold.
type AcceptResult struct {
	User      domain.User
	UserRoles []domain.UserRole
	Roles     map[int64]domain.Role
}

// Accept turns an open invitation into memberships of the authenticated
// person (I1). At each SP of the roles' applications where the user is not
// known yet, the user is created first; then each membership is added.
func (s *Service) Accept(ctx context.Context, p *auth.Principal, secret string, invitationID int64) (AcceptResult, error) {
	if p == nil || p.Person == nil {
		return AcceptResult{}, domain.Unauthenticatedf("accepting an invitation requires a signed-in person")
	}
	if strings.TrimSpace(secret) == "" {
		return AcceptResult{}, domain.Invalidf("hash is required")
	}
	inv, err := s.Store.GetInvitationByHashDigest(ctx, HashDigest(secret))
	if err != nil {
		if domain.IsNotFound(err) {
			return AcceptResult{}, domain.NotFoundf("no invitation for this link")
		}
		return AcceptResult{}, err
	}
	if invitationID != 0 && inv.ID != invitationID {
		return AcceptResult{}, domain.NotFoundf("no invitation for this link")
	}
	now := s.now()
	if err := checkOpen(inv, now); err != nil {
		return AcceptResult{}, err
	}
	if !auth.AcceptanceWithinInviterAuthority(inv) {
		// Checked again here, from what the invitation recorded: no path
		// that wrote an invitation can make acceptance climb the ladder.
		return AcceptResult{}, domain.Forbiddenf("this invitation grants %s, more than its inviter may grant", inv.IntendedAuthority)
	}
	switch acceptRefusal(inv, *p.Person) {
	case BlockEmailMismatch:
		return AcceptResult{}, domain.Preconditionf("this invitation is for another e-mail address")
	case BlockFederatedOnly:
		return AcceptResult{}, domain.Forbiddenf("this invitation can only be accepted with a federated account")
	}

	user, isNew, err := s.userForAcceptance(ctx, p, inv, now)
	if err != nil {
		return AcceptResult{}, err
	}
	roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
	if err != nil {
		return AcceptResult{}, err
	}
	existing := map[int64]domain.UserRole{}
	if !isNew {
		urs, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
		if err != nil {
			return AcceptResult{}, err
		}
		for _, ur := range urs {
			existing[ur.RoleID] = ur
		}
	}

	if inv.IntendedAuthority == domain.InstitutionAdmin && inv.OrganizationGUID != "" {
		// The authority of an institution admin is the user's, not a
		// membership's: it holds from the next request on.
		user.InstitutionAdmin, user.InstitutionAdminByInvite = true, true
		user.OrganizationGUID = inv.OrganizationGUID
	}
	acc := domain.Acceptance{User: user, NewUser: isNew}
	acceptedAt := now
	inv.Status, inv.AcceptedAt = domain.InvitationAccepted, &acceptedAt
	acc.Invitation = inv
	result := AcceptResult{User: user, Roles: map[int64]domain.Role{}}
	// fresh are the roles of new memberships; provisioned the roles whose
	// membership reaches their applications now (UserRole.Provisioned).
	var fresh, provisioned []domain.Role
	for _, role := range roles {
		result.Roles[role.ID] = role
		endDate := membershipEnd(inv, role, now)
		if ur, ok := existing[role.ID]; ok {
			// Accepting again extends, never shortens, and never lowers the
			// authority. A guest who becomes inviter or manager stays a guest
			// (guestRoleIncluded), as does anyone accepting a guest invitation
			// or one that includes the guest role; a membership that reaches
			// the role's applications only now is added to their groups.
			wasProvisioned := ur.Provisioned()
			if ur.EndDate != nil && (endDate == nil || endDate.After(*ur.EndDate)) {
				ur.EndDate = endDate
			}
			if ur.Authority != inv.IntendedAuthority &&
				(ur.Authority == domain.Guest || inv.IntendedAuthority == domain.Guest || inv.GuestRoleIncluded) {
				ur.GuestRoleIncluded = true
			}
			if inv.IntendedAuthority.Higher(ur.Authority) {
				ur.Authority = inv.IntendedAuthority
			}
			if !wasProvisioned && ur.Provisioned() {
				provisioned = append(provisioned, role)
			}
			acc.UpdatedUserRoles = append(acc.UpdatedUserRoles, ur)
			acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditUpdate))
			result.UserRoles = append(result.UserRoles, ur)
			continue
		}
		ur := domain.UserRole{UserID: user.ID, RoleID: role.ID, Inviter: inv.InviterName, EndDate: endDate, CreatedAt: now,
			GuestRoleIncluded: inv.GuestRoleIncluded, Authority: inv.IntendedAuthority, Language: inv.Language}
		acc.NewUserRoles = append(acc.NewUserRoles, ur)
		fresh = append(fresh, role)
		if ur.Provisioned() {
			provisioned = append(provisioned, role)
		}
	}
	if err := s.assignIDs(ctx, &acc); err != nil {
		return AcceptResult{}, err
	}
	for i, ur := range acc.NewUserRoles {
		acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, fresh[i], user.Email, domain.AuditAdd))
		result.UserRoles = append(result.UserRoles, ur)
	}
	if err := s.assignAuditIDs(ctx, acc.Audit); err != nil {
		return AcceptResult{}, err
	}
	acc.Deliveries, err = s.acceptanceDeliveries(ctx, user, isNew, provisioned)
	if err != nil {
		return AcceptResult{}, err
	}
	if err := s.Store.SaveAcceptance(ctx, acc); err != nil {
		return AcceptResult{}, err
	}
	s.dispatch(ctx, acc.Deliveries)
	s.linkCRMContact(ctx, inv, user)
	return result, nil
}

// userForAcceptance finds the person's user or makes a new one from the
// asserted attributes; a new user carries the invitation's placeholder id.
func (s *Service) userForAcceptance(ctx context.Context, p *auth.Principal, inv domain.Invitation, now time.Time) (domain.User, bool, error) {
	person := *p.Person
	u, err := s.Store.GetUserBySub(ctx, person.Sub)
	if err == nil {
		u.LastActivity = now
		if u.InternalPlaceholderIdentifier == "" {
			u.InternalPlaceholderIdentifier = inv.InternalPlaceholderIdentifier
		}
		return u, false, nil
	}
	if !domain.IsNotFound(err) {
		return domain.User{}, false, err
	}
	id, err := s.Store.NextIDs(ctx, "user", 1)
	if err != nil {
		return domain.User{}, false, err
	}
	email := person.Email
	if email == "" {
		email = inv.Email
	}
	return domain.User{
		ID: id, Sub: person.Sub, EduPersonPrincipalName: person.EduPersonPrincipalName, GivenName: person.GivenName,
		FamilyName: person.FamilyName, Name: person.Name, SubjectID: person.SubjectID, FedID: person.FedID, UID: person.UID,
		SchacHomeOrganization: person.SchacHomeOrganization, OrganizationGUID: inv.OrganizationGUID, Email: email,
		InternalPlaceholderIdentifier: inv.InternalPlaceholderIdentifier, CreatedAt: now, LastActivity: now,
		CRMContactID: inv.CRMContactID,
	}, true, nil
}

// membershipEnd: the invitation's roleExpiryDate, else the role's fixed
// date, else acceptance plus the role's default days, else no end. The
// result is never later than domain.MaxDate, whatever a record written
// before dates were bounded holds, so that it can be stored.
func membershipEnd(inv domain.Invitation, role domain.Role, now time.Time) *time.Time {
	var t time.Time
	switch {
	case inv.RoleExpiryDate != nil:
		t = inv.RoleExpiryDate.UTC()
	case role.DefaultExpiryDate != nil:
		t = role.DefaultExpiryDate.UTC()
	case role.DefaultExpiryDays > 0:
		t = now.AddDate(0, 0, min(role.DefaultExpiryDays, domain.MaxExpiryDays))
	default:
		return nil
	}
	if t.After(domain.MaxDate) {
		t = domain.MaxDate
	}
	return &t
}

// acceptanceDeliveries orders, per SP, the user creation before the
// memberships: the FIFO group of an SP delivers them in this order. roles
// are those of provisioned memberships only (UserRole.Provisioned): a user
// is created only at the SPs of those.
func (s *Service) acceptanceDeliveries(ctx context.Context, user domain.User, isNew bool, roles []domain.Role) ([]domain.Delivery, error) {
	known := map[string]bool{}
	if !isNew {
		links, err := s.Store.ListLinks(ctx, domain.ResourceUser, user.ID)
		if err != nil {
			return nil, err
		}
		for _, l := range links {
			if l.RemoteID != "" && l.Status != domain.StatusDeprovisioned {
				known[l.SPID] = true
			}
		}
	}
	var out []domain.Delivery
	created := map[string]bool{}
	for _, role := range roles {
		for _, sp := range s.Registry.SPsOfRole(role) {
			if !known[sp.ID] && !created[sp.ID] {
				created[sp.ID] = true
				out = append(out, s.newDelivery(ctx, sp, domain.DeliverUserCreate, user.ID, 0))
			}
			out = append(out, s.newDelivery(ctx, sp, domain.DeliverMemberAdd, user.ID, role.ID))
		}
	}
	return out, nil
}

func (s *Service) assignIDs(ctx context.Context, acc *domain.Acceptance) error {
	if len(acc.NewUserRoles) == 0 {
		return nil
	}
	first, err := s.Store.NextIDs(ctx, "userrole", len(acc.NewUserRoles))
	if err != nil {
		return err
	}
	for i := range acc.NewUserRoles {
		acc.NewUserRoles[i].ID = first + int64(i)
	}
	return nil
}
