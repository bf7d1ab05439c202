package service

import (
	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// RequestedAuthnContextValues are the ACR values a role or invitation may
// ask for, by name (the reference's RequestedAuthnContext).
var RequestedAuthnContextValues = map[string]string{
	"EduIDLinkedInstitution":         "https://eduid.nl/trust/linked-institution",
	"EduIDValidatedName":             "https://eduid.nl/trust/validate-names",
	"ValidateNamesExternal":          "https://eduid.nl/trust/validate-names-external",
	"EduIDRequireStudentAffiliation": "https://eduid.nl/trust/affiliation-student",
	"TransparentAuthnContext":        "transparent_authn_context",
}

// ManageProviders is GET /manage/providers: every application (SAML20_SP
// and OIDC10_RP) of the registry; super users only.
func (s *Service) ManageProviders(p *auth.Principal) ([]map[string]any, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	return s.allProviders(), nil
}

// AllApplications is GET /manage/all-applications: every application, for
// super users and institution admins (who pick applications for their
// institution's roles from it).
func (s *Service) AllApplications(p *auth.Principal) ([]map[string]any, error) {
	if _, _, err := registryScope(p); err != nil {
		return nil, err
	}
	return s.allProviders(), nil
}

func (s *Service) allProviders() []map[string]any {
	out := []map[string]any{}
	if c := s.registryCatalogue(); c != nil {
		for _, a := range c.Applications() {
			out = append(out, s.applicationMetadata(a))
		}
	}
	return out
}

// IdentityProviders is GET /manage/identity-providers. This service keeps
// no identity providers (people sign in through one OIDC provider), so the
// list is empty; super users only, as in the reference.
func (s *Service) IdentityProviders(p *auth.Principal) ([]map[string]any, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	return []map[string]any{}, nil
}

// ApplicationHasProvisioning is GET /manage/provisionings/{id}: whether
// the application with that manage id is provisioned to a SCIM SP; super
// users and institution admins (of their institution's and platform
// applications).
func (s *Service) ApplicationHasProvisioning(p *auth.Principal, manageID string) (bool, error) {
	org, all, err := registryScope(p)
	if err != nil {
		return false, err
	}
	// Another institution's application answers as an unknown one: false.
	app, ok := s.Registry.Application(manageID)
	ok = ok && (all || app.OrganizationGUID == "" || app.OrganizationGUID == org)
	return ok && len(app.ProvisioningIDs) > 0, nil
}

// AuthnContextValues is GET /manage/requested-authn-context-values, for
// every signed-in caller.
func (s *Service) AuthnContextValues(p *auth.Principal) (map[string]string, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	return RequestedAuthnContextValues, nil
}
