package service

import (
	"context"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The CRM operations, one file each: crm_profile.go (add and remove CRM
// memberships of a contact), crm_invite.go (send and resend a contact's
// invitation), crm_delete.go (delete a profile, remove its roles),
// crm_lookup.go (the reads). This file holds the checks and steps they
// share.

// crmSubPrefix starts the sub of users the CRM provisions:
// <prefix>:<schacHomeOrganisation>:<uid>, the form the federation's IdP
// proxy asserts, so that the person is recognised at login.
const crmSubPrefix = "urn:collab:person"

// crmInvitationValidity is how long a CRM invitation (or a resent one) can
// be accepted: the reference's default of 14 days.
const crmInvitationValidity = 14 * 24 * time.Hour

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

// crmRemoveUnlisted removes the user's memberships of the organisation's CRM
// roles that are not wanted any more, and returns the roles the user still
// holds. Non-CRM memberships and CRM roles of other organisations stay.
func (s *Service) crmRemoveUnlisted(ctx context.Context, p *auth.Principal, user domain.User, organisationID string, wanted []domain.Role) (map[int64]bool, error) {
	u, err := s.crmUnlisted(ctx, user, organisationID, wanted)
	if err != nil {
		return nil, err
	}
	return u.held, s.crmRemove(ctx, p, user, u.gone, u.roles, false)
}

// crmUnlistedMemberships are a user's memberships split by a CRM profile:
// those of the organisation's CRM roles it no longer lists (gone) and the
// roles the user holds after they are removed (held).
type crmUnlistedMemberships struct {
	held  map[int64]bool
	gone  []domain.UserRole
	roles map[int64]domain.Role
}

// crmUnlisted reads which of the user's memberships a CRM profile listing
// wanted removes, writing nothing, so that a request can be refused
// before any of them goes.
func (s *Service) crmUnlisted(ctx context.Context, user domain.User, organisationID string, wanted []domain.Role) (crmUnlistedMemberships, error) {
	keep := map[int64]bool{}
	for _, r := range wanted {
		keep[r.ID] = true
	}
	memberships, roles, err := s.membershipsWithRoles(ctx, user.ID)
	if err != nil {
		return crmUnlistedMemberships{}, err
	}
	out := crmUnlistedMemberships{held: map[int64]bool{}, roles: roles}
	for _, ur := range memberships {
		role := roles[ur.RoleID]
		if role.CRMRoleID != "" && role.OrganizationGUID == organisationID && !keep[ur.RoleID] {
			out.gone = append(out.gone, ur)
			continue
		}
		out.held[ur.RoleID] = true
	}
	return out, nil
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
