package service

import (
	"context"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// MaxCRMOrganisationsListed bounds the CRM's organisation list; a CRM with
// more is told so rather than answered in part.
const MaxCRMOrganisationsListed = 10000

// CRMOrganisations lists every CRM organisation, by id, to CRM callers.
func (s *Service) CRMOrganisations(ctx context.Context, p *auth.Principal) ([]domain.CRMOrganisation, error) {
	if err := requireCRM(p); err != nil {
		return nil, err
	}
	orgs, more, err := s.Store.ListCRMOrganisations(ctx, MaxCRMOrganisationsListed)
	if err != nil {
		return nil, err
	}
	if more {
		return nil, domain.Invalidf("more than %d CRM organisations: more than one request lists", MaxCRMOrganisationsListed)
	}
	return orgs, nil
}

// CRMDeleteOrganisation deletes a CRM organisation as the reference does:
// the organisation only; its contacts' users and memberships stay (C2 and
// C5 remove those). An unknown organisation is refused (400), as there.
func (s *Service) CRMDeleteOrganisation(ctx context.Context, p *auth.Principal, organisationID string) error {
	if err := requireCRM(p); err != nil {
		return err
	}
	if strings.TrimSpace(organisationID) == "" {
		return domain.Invalidf("organisationId is required")
	}
	err := s.Store.DeleteCRMOrganisation(ctx, organisationID)
	if domain.IsNotFound(err) {
		return domain.Invalidf("Organisation with crmOrganisationId %s not found", organisationID)
	}
	return err
}
