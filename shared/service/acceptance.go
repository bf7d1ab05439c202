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
// It reads validate → user → grant → commit (commitGrant: deliveries, save,
// dispatch).
func (s *Service) Accept(ctx context.Context, p *auth.Principal, secret string, invitationID int64) (AcceptResult, error) {
	inv, err := s.invitationOfLink(ctx, p, secret, invitationID)
	if err != nil {
		return AcceptResult{}, err
	}
	now := s.now()
	if err := mayAccept(inv, *p.Person, now); err != nil {
		return AcceptResult{}, err
	}
	user, isNew, err := s.userForAcceptance(ctx, p, inv, now)
	if err != nil {
		return AcceptResult{}, err
	}
	g, roles, err := s.grant(ctx, p, inv, user, isNew, now)
	if err != nil {
		return AcceptResult{}, err
	}
	if !isNew && inv.InternalPlaceholderIdentifier != "" && user.InternalPlaceholderIdentifier == inv.InternalPlaceholderIdentifier {
		// The placeholder is the user's externalId at every SP (ExternalIDAt),
		// at creation and from now on: SPs that know the user already hear it now.
		if g.followUps, err = s.userUpdateDeliveries(ctx, user.ID, nil); err != nil {
			return AcceptResult{}, err
		}
	}
	acc, err := s.commitGrant(ctx, p, g)
	if err != nil {
		return AcceptResult{}, err
	}
	result := AcceptResult{User: user, Roles: roles}
	result.UserRoles = append(append(result.UserRoles, acc.UpdatedUserRoles...), acc.NewUserRoles...)
	s.linkCRMContact(ctx, acc.Invitation, user)
	return result, nil
}

// invitationOfLink finds the invitation of the link's secret for a
// signed-in person; invitationID, when given, must be that invitation.
func (s *Service) invitationOfLink(ctx context.Context, p *auth.Principal, secret string, invitationID int64) (domain.Invitation, error) {
	if p == nil || p.Person == nil {
		return domain.Invitation{}, domain.Unauthenticatedf("accepting an invitation requires a signed-in person")
	}
	if strings.TrimSpace(secret) == "" {
		return domain.Invitation{}, domain.Invalidf("hash is required")
	}
	inv, err := s.Store.GetInvitationByHashDigest(ctx, HashDigest(secret))
	if err != nil {
		if domain.IsNotFound(err) {
			return domain.Invitation{}, domain.NotFoundf("no invitation for this link")
		}
		return domain.Invitation{}, err
	}
	if invitationID != 0 && inv.ID != invitationID {
		return domain.Invitation{}, domain.NotFoundf("no invitation for this link")
	}
	return inv, nil
}

// mayAccept refuses an invitation that is not open at now, that grants
// more than its inviter may, or that person may not accept.
func mayAccept(inv domain.Invitation, person auth.Person, now time.Time) error {
	if err := checkOpen(inv, now); err != nil {
		return err
	}
	if !auth.AcceptanceWithinInviterAuthority(inv) {
		// Checked again here, from what the invitation recorded: no path
		// that wrote an invitation can make acceptance climb the ladder.
		return domain.Forbiddenf("this invitation grants %s, more than its inviter may grant", inv.IntendedAuthority)
	}
	switch acceptRefusal(inv, person) {
	case BlockEmailMismatch:
		return domain.Preconditionf("this invitation is for another e-mail address")
	case BlockFederatedOnly:
		return domain.Forbiddenf("this invitation can only be accepted with a federated account")
	}
	return nil
}

// grant makes or extends a membership of user in each role of inv, with
// its audit entry, and marks inv accepted at now. It also returns the roles
// of inv by id.
func (s *Service) grant(ctx context.Context, p *auth.Principal, inv domain.Invitation, user domain.User, isNew bool, now time.Time) (pendingGrant, map[int64]domain.Role, error) {
	roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
	if err != nil {
		return pendingGrant{}, nil, err
	}
	if len(inv.RoleIDs) > 0 && len(roles) == 0 {
		// Every role of the invitation was deleted since it was sent:
		// accepting would grant nothing and leave a user without a
		// membership, which no removal would ever take away.
		return pendingGrant{}, nil, domain.Gonef("the roles of invitation %d no longer exist", inv.ID)
	}
	// The authentication context the roles ask for holds on every path
	// (pages and API alike); nothing is written before this point.
	if required := requiredContext(inv, roles); !s.Contexts.Satisfies(p.Person.ACR, required) {
		return pendingGrant{}, nil, &auth.InsufficientAuthentication{ACRValues: required}
	}
	existing, err := s.membershipsByRole(ctx, user.ID, isNew)
	if err != nil {
		return pendingGrant{}, nil, err
	}
	acceptedAt := now
	inv.Status, inv.AcceptedAt = domain.InvitationAccepted, &acceptedAt
	g := pendingGrant{acc: domain.Acceptance{User: user, NewUser: isNew, Invitation: inv}}
	byID := map[int64]domain.Role{}
	for _, role := range roles {
		byID[role.ID] = role
		endDate := membershipEnd(inv, role, now)
		if ur, ok := existing[role.ID]; ok {
			wasProvisioned := ur.Provisioned()
			ur = extendMembership(ur, inv, endDate)
			if !wasProvisioned && ur.Provisioned() {
				g.provisioned = append(g.provisioned, role)
			}
			g.acc.UpdatedUserRoles = append(g.acc.UpdatedUserRoles, ur)
			g.acc.Audit = append(g.acc.Audit, s.auditEntry(ctx, p, ur, role, user.Email, domain.AuditUpdate))
			continue
		}
		ur := newMembership(inv, user, role, now)
		g.acc.NewUserRoles = append(g.acc.NewUserRoles, ur)
		g.fresh = append(g.fresh, role)
		if ur.Provisioned() {
			g.provisioned = append(g.provisioned, role)
		}
	}
	return g, byID, nil
}

// newMembership is the membership of user in role that accepting inv at
// now makes when the user holds none yet.
func newMembership(inv domain.Invitation, user domain.User, role domain.Role, now time.Time) domain.UserRole {
	return domain.UserRole{UserID: user.ID, RoleID: role.ID, Inviter: inv.InviterName, EndDate: membershipEnd(inv, role, now), CreatedAt: now,
		GuestRoleIncluded: inv.GuestRoleIncluded, Authority: inv.IntendedAuthority, Language: inv.Language}
}

// membershipsByRole are the user's memberships by role id (none for a new
// user).
func (s *Service) membershipsByRole(ctx context.Context, userID int64, isNew bool) (map[int64]domain.UserRole, error) {
	existing := map[int64]domain.UserRole{}
	if isNew {
		return existing, nil
	}
	urs, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	for _, ur := range urs {
		existing[ur.RoleID] = ur
	}
	return existing, nil
}

// extendMembership is ur after accepting inv again, endDate being the new
// membership's end. Accepting again extends, never shortens, and never
// lowers the authority. A guest who becomes inviter or manager stays a
// guest (guestRoleIncluded), as does anyone accepting a guest invitation or
// one that includes the guest role; a membership that reaches the role's
// applications only now is added to their groups.
func extendMembership(ur domain.UserRole, inv domain.Invitation, endDate *time.Time) domain.UserRole {
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
	return ur
}

// userForAcceptance is the person's user, found or made (personUser), with
// the authority of an institution admin when inv grants it: that authority
// is the user's, not a membership's, and holds from the next request on.
func (s *Service) userForAcceptance(ctx context.Context, p *auth.Principal, inv domain.Invitation, now time.Time) (domain.User, bool, error) {
	user, isNew, err := s.personUser(ctx, p, inv, now)
	if err != nil {
		return domain.User{}, false, err
	}
	if inv.IntendedAuthority == domain.InstitutionAdmin && inv.OrganizationGUID != "" {
		user.InstitutionAdmin, user.InstitutionAdminByInvite = true, true
		user.OrganizationGUID = inv.OrganizationGUID
	}
	return user, isNew, nil
}

// personUser finds the person's user or makes a new one from the asserted
// attributes; a new user carries the invitation's placeholder id.
func (s *Service) personUser(ctx context.Context, p *auth.Principal, inv domain.Invitation, now time.Time) (domain.User, bool, error) {
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

// linkCRMContact links the CRM contact of an accepted CRM invitation to the
// user who accepted it, so that the CRM finds the user (C1, C5, C6, C7).
// The acceptance is done; a failure here is logged and repaired by the
// CRM's next profile call.
func (s *Service) linkCRMContact(ctx context.Context, inv domain.Invitation, user domain.User) {
	if inv.CRMOrganisationID == "" || inv.CRMContactID == "" {
		return
	}
	c := domain.CRMContact{OrganisationID: inv.CRMOrganisationID, ContactID: inv.CRMContactID, UserID: user.ID}
	if err := s.Store.PutCRMContact(ctx, c); err != nil {
		s.log().ErrorContext(ctx, "CRM contact not linked to the accepting user", "invitation", inv.ID, "error", err)
	}
}
