package service

import (
	"context"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

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
	s.recordInvitations(ctx, p, domain.AuditInvitationDeleted, openOnly(invs), nil)
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
