package service

import (
	"context"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// newCRMInvitation builds a GUEST invitation of a CRM contact, as the
// reference makes them: e-mail equality enforced, English, 14 days.
func (s *Service) newCRMInvitation(ctx context.Context, p *auth.Principal, organisationID, contactID, email string, roles []domain.Role) (domain.Invitation, string, error) {
	id, err := s.Store.NextIDs(ctx, "invitation", 1)
	if err != nil {
		return domain.Invitation{}, "", err
	}
	secret, digest := newInvitationSecret()
	inv := s.crmInvitation(p, organisationID, contactID, email, roles)
	inv.ID, inv.HashDigest = id, digest
	return inv, secret, nil
}

// crmInvitation is a CRM invitation before its id and secret are drawn.
func (s *Service) crmInvitation(p *auth.Principal, organisationID, contactID, email string, roles []domain.Role) domain.Invitation {
	now := s.now()
	return domain.Invitation{IntendedAuthority: domain.Guest, Language: domain.English, Status: domain.InvitationOpen,
		Email: email, EnforceEmailEquality: true, CreatedAt: now, ExpiryDate: now.Add(crmInvitationValidity),
		OrganizationGUID: organisationID, RemoteAPIUser: p.Name, CRMContactID: contactID, CRMOrganisationID: organisationID,
		RoleIDs: roleIDs(roles), InviterName: p.Name, InviterAuthority: auth.CRMInviterAuthority}
}

// checkCRMInvitationFits refuses a CRM invitation to roles whose
// acceptance could not be saved at once; callers ask before they write
// anything (the organisation, a removal, a withdrawn invitation).
func (s *Service) checkCRMInvitationFits(ctx context.Context, p *auth.Principal, organisationID string, roles []domain.Role) error {
	return s.checkAcceptanceFits(ctx, p, s.crmInvitation(p, organisationID, "", "", nil), roles)
}

// crmInvite makes sure the contact has one open invitation to exactly the
// roles it lacks: an identical open one is kept (the CRM may repeat a
// call), others are withdrawn, a new one is created and, if mail is
// wanted, e-mailed. created reports whether a new invitation was made.
// The caller has sized the invitation (checkCRMInvitationFits).
func (s *Service) crmInvite(ctx context.Context, p *auth.Principal, org domain.CRMOrganisation, contactID, email string, roles []domain.Role, mail bool) (bool, error) {
	invs, err := s.Store.ListCRMInvitations(ctx, org.OrganisationID, contactID)
	if err != nil {
		return false, err
	}
	now := s.now()
	want := roleIDs(roles)
	var stale []domain.Invitation
	keep := false
	for _, inv := range invs {
		if inv.Status != domain.InvitationOpen {
			continue
		}
		if !keep && len(want) > 0 && !inv.Expired(now) && sameIDs(inv.RoleIDs, want) && strings.EqualFold(inv.Email, email) {
			keep = true
			continue
		}
		stale = append(stale, inv)
	}
	if err := s.Store.DeleteCRMInvitations(ctx, stale); err != nil {
		return false, err
	}
	s.recordInvitations(ctx, p, domain.AuditInvitationDeleted, stale, nil)
	if keep || len(roles) == 0 {
		return false, nil
	}
	// A CRM's invitations count against its daily cap like any inviter's.
	if err := s.reserveInvitations(ctx, p, 1); err != nil {
		return false, err
	}
	inv, secret, err := s.newCRMInvitation(ctx, p, org.OrganisationID, contactID, email, roles)
	if err != nil {
		return false, err
	}
	if err := s.Store.CreateCRMInvitation(ctx, inv); err != nil {
		return false, err
	}
	s.recordInvitations(ctx, p, domain.AuditInvitationCreated, []domain.Invitation{inv}, roles)
	if mail {
		if m, ok := s.queueInvitationMail(ctx, inv, roles, s.invitationURL(secret)); ok {
			s.flushMails(ctx, []domain.MailDelivery{m})
		}
	}
	return true, nil
}

func sameIDs(a, b []int64) bool {
	x, y := distinct(a), distinct(b)
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func distinct(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// CRMInviteInput is the CRM invite request of C3.
type CRMInviteInput struct {
	OrganisationID string
	ContactID      string
	Email          string
	Roles          []CRMRoleInput
}

// CRMSendInvitation invites a CRM contact of a known organisation to the
// service roles of its CRM roles (C3); repeating the call keeps the open
// invitation. Roles the contact's user already holds are left out.
func (s *Service) CRMSendInvitation(ctx context.Context, p *auth.Principal, in CRMInviteInput) (string, error) {
	if err := requireCRM(p); err != nil {
		return "", err
	}
	if err := validCRMIDs(in.OrganisationID, in.ContactID); err != nil {
		return "", err
	}
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return "", err
	}
	if len(in.Roles) == 0 {
		return "", domain.Invalidf("roles must name at least one CRM role")
	}
	org, err := s.Store.GetCRMOrganisation(ctx, in.OrganisationID)
	if err != nil {
		return "", err
	}
	roles, err := s.crmServiceRoles(ctx, org.OrganisationID, in.Roles)
	if err != nil {
		return "", err
	}
	if len(roles) == 0 {
		return "", domain.Invalidf("none of the CRM roles is linked to a role of organisation %q", org.OrganisationID)
	}
	user, found, err := s.crmUser(ctx, org.OrganisationID, in.ContactID)
	if err != nil {
		return "", err
	}
	if found {
		memberships, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
		if err != nil {
			return "", err
		}
		held := map[int64]bool{}
		for _, ur := range memberships {
			held[ur.RoleID] = true
		}
		roles = notHeld(roles, held)
	}
	// Refused before any invitation is withdrawn, as an invitation to
	// the roles could not be accepted.
	if err := s.checkCRMInvitationFits(ctx, p, org.OrganisationID, roles); err != nil {
		return "", err
	}
	if _, err := s.crmInvite(ctx, p, org, in.ContactID, email, roles, true); err != nil {
		return "", err
	}
	return CRMSent, nil
}

// CRMResendResult is C4's answer (spec 7): {timestamp, status, key, message}.
type CRMResendResult struct {
	Timestamp time.Time
	Status    int
	Key       string
	Message   string
}

// CRMResendInvitation renews the contact's open invitations (C4): 14 more
// days, a new link (only digests are stored, so the old link stops
// working), e-mailed again. No open invitation answers status 404 in the
// same shape.
func (s *Service) CRMResendInvitation(ctx context.Context, p *auth.Principal, organisationID, contactID string) (CRMResendResult, error) {
	if err := requireCRM(p); err != nil {
		return CRMResendResult{}, err
	}
	if err := validCRMIDs(organisationID, contactID); err != nil {
		return CRMResendResult{}, err
	}
	now := s.now()
	invs, err := s.Store.ListCRMInvitations(ctx, organisationID, contactID)
	if err != nil {
		return CRMResendResult{}, err
	}
	open := 0
	for _, inv := range invs {
		if inv.Status == domain.InvitationOpen {
			open++
		}
	}
	// Sending again mails a new link: it counts against the daily cap.
	if open > 0 {
		if err := s.reserveInvitations(ctx, p, open); err != nil {
			return CRMResendResult{}, err
		}
	}
	var mails []domain.MailDelivery
	resent := 0
	for _, inv := range invs {
		if inv.Status != domain.InvitationOpen {
			continue
		}
		secret, digest := newInvitationSecret()
		inv.HashDigest, inv.ExpiryDate = digest, now.Add(crmInvitationValidity)
		if err := s.Store.RenewCRMInvitation(ctx, inv); err != nil {
			return CRMResendResult{}, err
		}
		resent++
		roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
		if err != nil {
			return CRMResendResult{}, err
		}
		s.recordInvitations(ctx, p, domain.AuditInvitationResent, []domain.Invitation{inv}, roles)
		if m, ok := s.queueInvitationMail(ctx, inv, roles, s.invitationURL(secret)); ok {
			mails = append(mails, m)
		}
	}
	s.flushMails(ctx, mails)
	if resent == 0 {
		return CRMResendResult{Timestamp: now, Status: 404, Key: "invitation_not_found",
			Message: "no open invitation for this contact of this organisation"}, nil
	}
	return CRMResendResult{Timestamp: now, Status: 200, Key: "invitation_resent", Message: "invitation resent"}, nil
}
