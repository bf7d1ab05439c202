package service

import (
	"context"
	"sort"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// The reference's manage and CRM lookups that depend on systems this
// service does not have (SURFconext Manage's identity providers, a CRM
// application configuration); each answers what the reference answers
// when that system has nothing to say (README, decisions).

// EduIDIdentityProvider is GET /manage/eduid-identity-provider: the
// reference reads the eduID IdP's metadata from Manage for people who
// invite (INVITER or more). People sign in here through one OIDC provider
// and no identity provider is registered, so the answer is the reference's
// own "not found" for a missing eduID IdP.
func (s *Service) EduIDIdentityProvider(p *auth.Principal) (map[string]any, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	if auth.RoleListScopeOf(p) == auth.RolesNone {
		return nil, domain.Forbiddenf("only people who invite (INVITER or more) may read the eduID identity provider")
	}
	return nil, domain.NotFoundf("eduID identity provider not found: this service registers no identity providers (people sign in through its OIDC provider)")
}

// OrganizationGUIDValidation is GET
// /manage/organization-guid-validation/{organizationGUID}: the identity
// provider whose institution GUID it is, for super users. No identity
// providers are registered here (IdentityProviders is empty), so no GUID
// names one: 404, where the reference means to answer 404 too.
func (s *Service) OrganizationGUIDValidation(p *auth.Principal, organizationGUID string) (map[string]any, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	if strings.TrimSpace(organizationGUID) == "" {
		return nil, domain.Invalidf("organizationGUID is required")
	}
	return nil, domain.NotFoundf("no identity provider with organizationGUID %s: this service registers no identity providers", organizationGUID)
}

// CRM sync report categories, as the reference names them.
const (
	crmApplicationsMissingInInvite = "applications_missing_in_invite"
	crmApplicationsMissingInCRM    = "applications_missing_in_crm"
	crmApplicationsMissingInManage = "crm_applications_missing_in_manage"
)

// CRMSyncReport is GET /api/external/v1/system/crm/sync, for super users:
// per CRM role (a role with a crmRoleId), by role name, the applications
// that are out of step, in the reference's three lists; roles with nothing
// to report are left out. A CRM role's applications are the role's own
// here (there is no separate CRM application configuration to drift from
// it), so the first two lists stay empty and the third names every
// application of a CRM role that the registry no longer knows. It reads
// every role: an operator's report, not a request path.
func (s *Service) CRMSyncReport(ctx context.Context, p *auth.Principal) (map[string]map[string][]map[string]string, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	roles, err := s.Store.ListAllRoles(ctx)
	if err != nil {
		return nil, err
	}
	report := map[string]map[string][]map[string]string{}
	for _, r := range roles {
		if r.CRMRoleID == "" {
			continue
		}
		var missing []map[string]string
		seen := map[string]bool{}
		for _, use := range r.ApplicationUsages {
			app := use.Application
			if seen[app.ManageID] {
				continue
			}
			seen[app.ManageID] = true
			if _, ok := s.Registry.Application(app.ManageID); !ok {
				missing = append(missing, map[string]string{"manageId": app.ManageID, "type": app.ManageType})
			}
		}
		if len(missing) == 0 {
			continue
		}
		sort.Slice(missing, func(i, j int) bool { return missing[i]["manageId"] < missing[j]["manageId"] })
		report[r.Name] = map[string][]map[string]string{
			crmApplicationsMissingInInvite: {},
			crmApplicationsMissingInCRM:    {},
			crmApplicationsMissingInManage: missing,
		}
	}
	return report, nil
}
