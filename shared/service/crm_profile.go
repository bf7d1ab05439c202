package service

import (
	"context"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// CRMRoleInput is a CRM role (spec 2.10): roleId links it to the service
// role whose crmRoleId it is, within the organisation.
type CRMRoleInput struct {
	RoleID  string
	SabCode string
	Name    string
}

// CRMProfileInput is the CRM profile request of C1 and C2 (spec 2.10).
type CRMProfileInput struct {
	UID                   string
	SchacHomeOrganisation string
	SuppressInvitation    bool
	ContactID             string
	Firstname             string
	Middlename            string
	Surname               string
	Email                 string
	Organisation          domain.CRMOrganisation
	Roles                 []CRMRoleInput
}

// CRMProfile adds and deletes CRM role memberships of a CRM contact (C1),
// following the reference: with suppressInvitation and both uid and
// schacHomeOrganisation the user is provisioned directly (found by sub or
// created) and gets the memberships; otherwise the contact is invited to the
// roles it does not hold yet (e-mailed unless suppressInvitation).
// Memberships of the organisation's CRM roles that the request no longer
// lists are removed either way. CRM roles without a service role (matched by
// crmRoleId within the organisation) are ignored.
func (s *Service) CRMProfile(ctx context.Context, p *auth.Principal, in CRMProfileInput) (string, error) {
	if err := requireCRM(p); err != nil {
		return "", err
	}
	org := in.Organisation
	if err := validCRMIDs(org.OrganisationID, in.ContactID); err != nil {
		return "", err
	}
	if err := checkTexts(line("contactId", in.ContactID), line("uid", in.UID), line("schacHomeOrganisation", in.SchacHomeOrganisation),
		line("firstname", in.Firstname), line("middlename", in.Middlename), line("surname", in.Surname),
		line("organisation.name", org.Name), line("organisation.abbrev", org.Abbrev), line("organisation.organisationId", org.OrganisationID)); err != nil {
		return "", err
	}
	provision := in.SuppressInvitation && strings.TrimSpace(in.UID) != "" && strings.TrimSpace(in.SchacHomeOrganisation) != ""
	email := strings.TrimSpace(in.Email)
	if email != "" || !provision {
		var err error
		if email, err = normalizeEmail(email); err != nil {
			return "", err
		}
	}
	for _, r := range in.Roles {
		if strings.TrimSpace(r.RoleID) == "" {
			return "", domain.Invalidf("every CRM role needs a roleId")
		}
	}
	wanted, err := s.crmServiceRoles(ctx, org.OrganisationID, in.Roles)
	if err != nil {
		return "", err
	}
	// Everything is read and sized before the first write (the
	// organisation), so that a request refused for its size changes nothing.
	if provision {
		plan, err := s.planCRMProvision(ctx, p, in, email, wanted)
		if err != nil {
			return "", err
		}
		if err := s.Store.PutCRMOrganisation(ctx, org); err != nil {
			return "", err
		}
		return s.crmProvision(ctx, p, in, plan)
	}
	user, found, err := s.crmUser(ctx, org.OrganisationID, in.ContactID)
	if err != nil {
		return "", err
	}
	unlisted := crmUnlistedMemberships{held: map[int64]bool{}}
	if found {
		if unlisted, err = s.crmUnlisted(ctx, user, org.OrganisationID, wanted); err != nil {
			return "", err
		}
	}
	invited := notHeld(wanted, unlisted.held)
	if err := s.checkCRMInvitationFits(ctx, p, org.OrganisationID, invited); err != nil {
		return "", err
	}
	if err := s.Store.PutCRMOrganisation(ctx, org); err != nil {
		return "", err
	}
	if found {
		if err := s.crmRemove(ctx, p, user, unlisted.gone, unlisted.roles, false); err != nil {
			return "", err
		}
	}
	created, err := s.crmInvite(ctx, p, org, in.ContactID, email, invited, !in.SuppressInvitation)
	if err != nil {
		return "", err
	}
	if created && !found {
		return CRMCreated, nil
	}
	return CRMUpdated, nil
}

// crmProvisionPlan is what a CRM profile provisioned without invitation
// does, read before anything is written: the user (found by sub, or new
// without an id yet), the memberships it no longer lists, and the grant
// of the roles the user lacks (sized: it fits in one transaction).
type crmProvisionPlan struct {
	user     domain.User
	isNew    bool
	unlisted crmUnlistedMemberships
	adds     []domain.Role
	// contactChanged: the user was linked to another contact (or none).
	contactChanged bool
}

// planCRMProvision reads and sizes C1 without invitation, writing nothing.
func (s *Service) planCRMProvision(ctx context.Context, p *auth.Principal, in CRMProfileInput, email string, wanted []domain.Role) (crmProvisionPlan, error) {
	org := in.Organisation
	now := s.now()
	sub := crmSubPrefix + ":" + strings.TrimSpace(in.SchacHomeOrganisation) + ":" + strings.TrimSpace(in.UID)
	user, err := s.Store.GetUserBySub(ctx, sub)
	plan := crmProvisionPlan{isNew: domain.IsNotFound(err), unlisted: crmUnlistedMemberships{held: map[int64]bool{}}}
	if err != nil && !plan.isNew {
		return crmProvisionPlan{}, err
	}
	if plan.isNew {
		family := strings.TrimSpace(in.Surname)
		if m := strings.TrimSpace(in.Middlename); m != "" && m != "." {
			family = m + " " + family
		}
		user = domain.User{Sub: sub, GivenName: strings.TrimSpace(in.Firstname), MiddleName: strings.TrimSpace(in.Middlename),
			FamilyName: family, UID: strings.TrimSpace(in.UID), SchacHomeOrganization: strings.TrimSpace(in.SchacHomeOrganisation),
			Email: email, CreatedAt: now, LastActivity: now}
	} else if plan.unlisted, err = s.crmUnlisted(ctx, user, org.OrganisationID, wanted); err != nil {
		return crmProvisionPlan{}, err
	}
	plan.contactChanged = user.CRMContactID != in.ContactID
	plan.user, plan.adds = user, notHeld(wanted, plan.unlisted.held)
	if plan.isNew || len(plan.adds) > 0 {
		// Sized as it will be committed: an accepted CRM invitation (its id a
		// stand-in: it is not drawn yet) with the memberships.
		inv := s.crmInvitation(p, org.OrganisationID, in.ContactID, email, plan.adds)
		inv.ID = 1
		user.CRMContactID = in.ContactID
		if err := s.checkGrantFits(ctx, p, s.crmGrantOf(p, user, plan.isNew, inv, plan.adds)); err != nil {
			return crmProvisionPlan{}, err
		}
	}
	return plan, nil
}

// crmProvision is C1 without invitation, as planned: the user is found by
// sub or created, linked to the contact, and gets the memberships it lacks
// through the acceptance path (user, memberships, audit and SCIM
// deliveries in one transaction). That path needs an invitation: a CRM
// invitation is recorded and accepted at once, which also keeps who
// granted what.
func (s *Service) crmProvision(ctx context.Context, p *auth.Principal, in CRMProfileInput, plan crmProvisionPlan) (string, error) {
	org := in.Organisation
	user := plan.user
	if plan.isNew {
		id, err := s.Store.NextIDs(ctx, "user", 1)
		if err != nil {
			return "", err
		}
		user.ID = id
	} else if err := s.crmRemove(ctx, p, user, plan.unlisted.gone, plan.unlisted.roles, false); err != nil {
		return "", err
	}
	user.CRMContactID = in.ContactID
	// The link first: should the user's transaction fail, a link to a user
	// that does not exist reads as no user, and the next call repairs it.
	if err := s.Store.PutCRMContact(ctx, domain.CRMContact{OrganisationID: org.OrganisationID, ContactID: in.ContactID, UserID: user.ID}); err != nil {
		return "", err
	}
	switch {
	case plan.isNew || len(plan.adds) > 0:
		if err := s.crmGrant(ctx, p, user, plan.isNew, org, in.ContactID, plan.adds); err != nil {
			return "", err
		}
	case plan.contactChanged:
		if err := s.Store.UpdateUser(ctx, user, nil); err != nil {
			return "", err
		}
	}
	if plan.isNew {
		return CRMCreated, nil
	}
	return CRMUpdated, nil
}

// crmGrant gives a user GUEST memberships of roles as an accepted CRM
// invitation: the user creation (when new) and the memberships reach each
// SP exactly as on acceptance.
func (s *Service) crmGrant(ctx context.Context, p *auth.Principal, user domain.User, isNew bool, org domain.CRMOrganisation, contactID string, roles []domain.Role) error {
	inv, _, err := s.newCRMInvitation(ctx, p, org.OrganisationID, contactID, user.Email, roles)
	if err != nil {
		return err
	}
	if err := s.Store.CreateCRMInvitation(ctx, inv); err != nil {
		return err
	}
	inv.Version = 1
	g := s.crmGrantOf(p, user, isNew, inv, roles)
	if _, err := s.commitGrant(ctx, p, g); err != nil {
		// Withdraw the invitation nobody can accept (its secret is gone),
		// so that it does not read as a pending CRM invitation.
		open := inv
		open.Status, open.AcceptedAt = domain.InvitationOpen, nil
		if derr := s.Store.DeleteCRMInvitations(ctx, []domain.Invitation{open}); derr != nil {
			s.log().WarnContext(ctx, "CRM invitation of a failed grant left behind", "invitation", inv.ID, "error", derr)
		}
		return err
	}
	return nil
}

// crmGrantOf is the grant of GUEST memberships of roles to user by the
// CRM invitation inv, accepted now.
func (s *Service) crmGrantOf(p *auth.Principal, user domain.User, isNew bool, inv domain.Invitation, roles []domain.Role) pendingGrant {
	now := s.now()
	acceptedAt := now
	inv.Status, inv.AcceptedAt = domain.InvitationAccepted, &acceptedAt
	g := pendingGrant{acc: domain.Acceptance{Invitation: inv, User: user, NewUser: isNew}, fresh: roles, provisioned: roles}
	for _, role := range roles {
		g.acc.NewUserRoles = append(g.acc.NewUserRoles, domain.UserRole{UserID: user.ID, RoleID: role.ID, Inviter: p.Name,
			EndDate: membershipEnd(inv, role, now), CreatedAt: now, Authority: domain.Guest, Language: domain.English})
	}
	return g
}
