package service

import (
	"context"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// crmSubPrefix starts the sub of users the CRM provisions:
// <prefix>:<schacHomeOrganisation>:<uid>, the form the federation's IdP
// proxy asserts, so that the person is recognised at login.
const crmSubPrefix = "urn:collab:person"

// crmInvitationValidity is how long a CRM invitation (or a resent one) can
// be accepted: the reference's default of 14 days.
const crmInvitationValidity = 14 * 24 * time.Hour

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

// CRM answers of the string-valued operations, as the reference's.
const (
	CRMCreated = "created"
	CRMUpdated = "updated"
	CRMDeleted = "deleted"
	CRMSent    = "send"
	CRMRemoved = "removed"
)

func requireCRM(p *auth.Principal) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	if !p.IsCRM() {
		return domain.Forbiddenf("only CRM callers (API key) may use the CRM operations")
	}
	return nil
}

func validCRMIDs(organisationID, contactID string) error {
	for _, f := range []struct{ name, v string }{{"organisation id", organisationID}, {"contact id", contactID}} {
		if strings.TrimSpace(f.v) == "" || strings.Contains(f.v, "#") {
			return domain.Invalidf("%s is required and cannot contain '#'", f.name)
		}
	}
	return nil
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
	if err := s.Store.PutCRMOrganisation(ctx, org); err != nil {
		return "", err
	}
	if provision {
		return s.crmProvision(ctx, p, in, email, wanted)
	}
	user, found, err := s.crmUser(ctx, org.OrganisationID, in.ContactID)
	if err != nil {
		return "", err
	}
	held := map[int64]bool{}
	if found {
		if held, err = s.crmRemoveUnlisted(ctx, p, user, org.OrganisationID, wanted); err != nil {
			return "", err
		}
	}
	created, err := s.crmInvite(ctx, p, org, in.ContactID, email, notHeld(wanted, held), !in.SuppressInvitation)
	if err != nil {
		return "", err
	}
	if created && !found {
		return CRMCreated, nil
	}
	return CRMUpdated, nil
}

// crmServiceRoles maps CRM roles to the organisation's service roles by
// crmRoleId (case-insensitively, as the reference compares them).
func (s *Service) crmServiceRoles(ctx context.Context, organisationID string, crmRoles []CRMRoleInput) ([]domain.Role, error) {
	want := map[string]bool{}
	for _, r := range crmRoles {
		want[strings.ToLower(strings.TrimSpace(r.RoleID))] = true
	}
	if len(want) == 0 {
		return nil, nil
	}
	roles, err := s.Store.ListRolesByOrganization(ctx, organisationID)
	if err != nil {
		return nil, err
	}
	var out []domain.Role
	for _, r := range roles {
		if r.CRMRoleID != "" && want[strings.ToLower(r.CRMRoleID)] {
			out = append(out, r)
		}
	}
	return out, nil
}

// crmUser finds the user linked to a contact; a link to a user that is
// gone counts as no user.
func (s *Service) crmUser(ctx context.Context, organisationID, contactID string) (domain.User, bool, error) {
	c, err := s.Store.GetCRMContact(ctx, organisationID, contactID)
	if domain.IsNotFound(err) {
		return domain.User{}, false, nil
	}
	if err != nil {
		return domain.User{}, false, err
	}
	u, err := s.Store.GetUser(ctx, c.UserID)
	if domain.IsNotFound(err) {
		return domain.User{}, false, nil
	}
	return u, err == nil, err
}

func notHeld(roles []domain.Role, held map[int64]bool) []domain.Role {
	var out []domain.Role
	for _, r := range roles {
		if !held[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// crmProvision is C1 without invitation: the user is found by sub or
// created, linked to the contact, and gets the memberships it lacks through
// the acceptance path (user, memberships, audit and SCIM deliveries in one
// transaction). That path needs an invitation: a CRM invitation is recorded
// and accepted at once, which also keeps who granted what.
func (s *Service) crmProvision(ctx context.Context, p *auth.Principal, in CRMProfileInput, email string, wanted []domain.Role) (string, error) {
	org := in.Organisation
	now := s.now()
	sub := crmSubPrefix + ":" + strings.TrimSpace(in.SchacHomeOrganisation) + ":" + strings.TrimSpace(in.UID)
	user, err := s.Store.GetUserBySub(ctx, sub)
	isNew := domain.IsNotFound(err)
	if err != nil && !isNew {
		return "", err
	}
	held := map[int64]bool{}
	if isNew {
		id, err := s.Store.NextIDs(ctx, "user", 1)
		if err != nil {
			return "", err
		}
		family := strings.TrimSpace(in.Surname)
		if m := strings.TrimSpace(in.Middlename); m != "" && m != "." {
			family = m + " " + family
		}
		user = domain.User{ID: id, Sub: sub, GivenName: strings.TrimSpace(in.Firstname), MiddleName: strings.TrimSpace(in.Middlename),
			FamilyName: family, UID: strings.TrimSpace(in.UID), SchacHomeOrganization: strings.TrimSpace(in.SchacHomeOrganisation),
			Email: email, CreatedAt: now, LastActivity: now}
	} else if held, err = s.crmRemoveUnlisted(ctx, p, user, org.OrganisationID, wanted); err != nil {
		return "", err
	}
	// The link first: should the user's transaction fail, a link to a user
	// that does not exist reads as no user, and the next call repairs it.
	if err := s.Store.PutCRMContact(ctx, domain.CRMContact{OrganisationID: org.OrganisationID, ContactID: in.ContactID, UserID: user.ID}); err != nil {
		return "", err
	}
	adds := notHeld(wanted, held)
	contactChanged := user.CRMContactID != in.ContactID
	user.CRMContactID = in.ContactID
	switch {
	case isNew || len(adds) > 0:
		if err := s.crmGrant(ctx, p, user, isNew, org, in.ContactID, adds); err != nil {
			return "", err
		}
	case contactChanged:
		if err := s.Store.UpdateUser(ctx, user, nil); err != nil {
			return "", err
		}
	}
	if isNew {
		return CRMCreated, nil
	}
	return CRMUpdated, nil
}

// crmGrant gives a user GUEST memberships of roles as an accepted CRM
// invitation: the user creation (when new) and the memberships reach each
// SP exactly as on acceptance.
func (s *Service) crmGrant(ctx context.Context, p *auth.Principal, user domain.User, isNew bool, org domain.CRMOrganisation, contactID string, roles []domain.Role) error {
	now := s.now()
	inv, _, err := s.newCRMInvitation(ctx, p, org.OrganisationID, contactID, user.Email, roles)
	if err != nil {
		return err
	}
	if err := s.Store.CreateCRMInvitation(ctx, inv); err != nil {
		return err
	}
	inv.Version = 1
	acceptedAt := now
	inv.Status, inv.AcceptedAt = domain.InvitationAccepted, &acceptedAt
	acc := domain.Acceptance{Invitation: inv, User: user, NewUser: isNew}
	for _, role := range roles {
		acc.NewUserRoles = append(acc.NewUserRoles, domain.UserRole{UserID: user.ID, RoleID: role.ID, Inviter: p.Name,
			EndDate: membershipEnd(inv, role, now), CreatedAt: now, Authority: domain.Guest, Language: domain.English})
	}
	if err := s.assignIDs(ctx, &acc); err != nil {
		return err
	}
	for i, ur := range acc.NewUserRoles {
		acc.Audit = append(acc.Audit, s.auditEntry(ctx, p, ur, roles[i], user.Email, domain.AuditAdd))
	}
	if err := s.assignAuditIDs(ctx, acc.Audit); err != nil {
		return err
	}
	if acc.Deliveries, err = s.acceptanceDeliveries(ctx, user, isNew, roles); err != nil {
		return err
	}
	if err := s.Store.SaveAcceptance(ctx, acc); err != nil {
		// Withdraw the invitation nobody can accept (its secret is gone),
		// so that it does not read as a pending CRM invitation.
		open := inv
		open.Status, open.AcceptedAt = domain.InvitationOpen, nil
		if derr := s.Store.DeleteCRMInvitations(ctx, []domain.Invitation{open}); derr != nil {
			s.log().WarnContext(ctx, "CRM invitation of a failed grant left behind", "invitation", inv.ID, "error", derr)
		}
		return err
	}
	s.dispatch(ctx, acc.Deliveries)
	return nil
}

// newCRMInvitation builds a GUEST invitation of a CRM contact, as the
// reference makes them: e-mail equality enforced, English, 14 days.
func (s *Service) newCRMInvitation(ctx context.Context, p *auth.Principal, organisationID, contactID, email string, roles []domain.Role) (domain.Invitation, string, error) {
	id, err := s.Store.NextIDs(ctx, "invitation", 1)
	if err != nil {
		return domain.Invitation{}, "", err
	}
	now := s.now()
	secret, digest := newInvitationSecret()
	return domain.Invitation{ID: id, IntendedAuthority: domain.Guest, Language: domain.English, Status: domain.InvitationOpen,
		Email: email, EnforceEmailEquality: true, CreatedAt: now, ExpiryDate: now.Add(crmInvitationValidity),
		OrganizationGUID: organisationID, RemoteAPIUser: p.Name, CRMContactID: contactID, CRMOrganisationID: organisationID,
		RoleIDs: roleIDs(roles), InviterName: p.Name, InviterAuthority: auth.CRMInviterAuthority, HashDigest: digest}, secret, nil
}

// crmInvite makes sure the contact has one open invitation to exactly the
// roles it lacks: an identical open one is kept (the CRM may repeat a
// call), others are withdrawn, a new one is created and, if mail is
// wanted, e-mailed. created reports whether a new invitation was made.
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
	if keep || len(roles) == 0 {
		return false, nil
	}
	inv, secret, err := s.newCRMInvitation(ctx, p, org.OrganisationID, contactID, email, roles)
	if err != nil {
		return false, err
	}
	if err := s.Store.CreateCRMInvitation(ctx, inv); err != nil {
		return false, err
	}
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

// crmRemoveUnlisted removes the user's memberships of the organisation's CRM
// roles that are not wanted any more, and returns the roles the user still
// holds. Non-CRM memberships and CRM roles of other organisations stay.
func (s *Service) crmRemoveUnlisted(ctx context.Context, p *auth.Principal, user domain.User, organisationID string, wanted []domain.Role) (map[int64]bool, error) {
	keep := map[int64]bool{}
	for _, r := range wanted {
		keep[r.ID] = true
	}
	memberships, roles, err := s.membershipsWithRoles(ctx, user.ID)
	if err != nil {
		return nil, err
	}
	held := map[int64]bool{}
	var gone []domain.UserRole
	for _, ur := range memberships {
		role := roles[ur.RoleID]
		if role.CRMRoleID != "" && role.OrganizationGUID == organisationID && !keep[ur.RoleID] {
			gone = append(gone, ur)
			continue
		}
		held[ur.RoleID] = true
	}
	return held, s.crmRemove(ctx, p, user, gone, roles, false)
}

func (s *Service) membershipsWithRoles(ctx context.Context, userID int64) ([]domain.UserRole, map[int64]domain.Role, error) {
	memberships, err := s.Store.ListUserRolesOfUser(ctx, userID)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, 0, len(memberships))
	for _, ur := range memberships {
		ids = append(ids, ur.RoleID)
	}
	roles := map[int64]domain.Role{}
	if len(ids) > 0 {
		rs, err := s.Store.GetRoles(ctx, ids)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rs {
			roles[r.ID] = r
		}
	}
	for _, ur := range memberships {
		if _, ok := roles[ur.RoleID]; !ok {
			roles[ur.RoleID] = domain.Role{ID: ur.RoleID} // deleted meanwhile
		}
	}
	return memberships, roles, nil
}

// crmRemove ends memberships (audited, group removals queued) like the
// lifecycle's removal; with deleteUser the user goes too, after the
// removals, at every SP where it was created.
func (s *Service) crmRemove(ctx context.Context, p *auth.Principal, user domain.User, gone []domain.UserRole, roles map[int64]domain.Role, deleteUser bool) error {
	if len(gone) == 0 && !deleteUser {
		return nil
	}
	_, err := s.removeMemberships(ctx, membershipRemoval{by: p, user: user, memberships: gone, roles: roles, deleteUser: deleteUser})
	return err
}

// CRMDeleteProfile deletes a CRM profile (C2), as the reference: the
// contact's invitations are withdrawn and its user is deleted, in the
// service and at every SP, with all memberships.
func (s *Service) CRMDeleteProfile(ctx context.Context, p *auth.Principal, organisationID, contactID string) (string, error) {
	if err := requireCRM(p); err != nil {
		return "", err
	}
	if err := validCRMIDs(organisationID, contactID); err != nil {
		return "", err
	}
	invs, err := s.Store.ListCRMInvitations(ctx, organisationID, contactID)
	if err != nil {
		return "", err
	}
	if err := s.Store.DeleteCRMInvitations(ctx, invs); err != nil {
		return "", err
	}
	user, found, err := s.crmUser(ctx, organisationID, contactID)
	if err != nil {
		return "", err
	}
	if found {
		memberships, roles, err := s.membershipsWithRoles(ctx, user.ID)
		if err != nil {
			return "", err
		}
		if err := s.crmRemove(ctx, p, user, memberships, roles, true); err != nil {
			return "", err
		}
	}
	if err := s.Store.DeleteCRMContact(ctx, organisationID, contactID); err != nil {
		return "", err
	}
	return CRMDeleted, nil
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

// CRMRemoveRoles removes the memberships of the organisation's CRM roles
// from the contact's user (C5); the user and other memberships stay. An
// unknown contact or organisation changes nothing and answers the same.
func (s *Service) CRMRemoveRoles(ctx context.Context, p *auth.Principal, organisationID, contactID string) (string, error) {
	if err := requireCRM(p); err != nil {
		return "", err
	}
	if err := validCRMIDs(organisationID, contactID); err != nil {
		return "", err
	}
	user, found, err := s.crmUser(ctx, organisationID, contactID)
	if err != nil || !found {
		return CRMRemoved, err
	}
	if _, err := s.crmRemoveUnlisted(ctx, p, user, organisationID, nil); err != nil {
		return "", err
	}
	return CRMRemoved, nil
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
