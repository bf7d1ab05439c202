package service

import (
	"context"
	"maps"
	"slices"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// catalogue is what the metadata operations need of the registry beyond
// Registry: every config.Lookup has it.
type catalogue interface {
	Applications() []domain.Application
	ProvisioningMetadata(id string) (map[string]any, bool)
}

func (s *Service) registryCatalogue() catalogue {
	c, _ := s.Registry.(catalogue)
	return c
}

// UnknownRoles is S2: roles using an application that the registry does
// not know (removed from the configuration, or never configured). It reads
// every role: a maintenance operation, not a request path.
func (s *Service) UnknownRoles(ctx context.Context, p *auth.Principal) ([]domain.Role, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	roles, err := s.Store.ListAllRoles(ctx)
	if err != nil {
		return nil, err
	}
	var unknown []domain.Role
	for _, r := range roles {
		if slices.ContainsFunc(r.ManageIDs(), func(mid string) bool { _, ok := s.Registry.Application(mid); return !ok }) {
			unknown = append(unknown, r)
		}
	}
	return unknown, nil
}

// LandingPageFix is the result of S3.
type LandingPageFix struct {
	// Roles changed, and application usages given a landing page.
	Roles             int `json:"roles"`
	ApplicationUsages int `json:"applicationUsages"`
}

// FixLandingPages is S3: application usages without a landing page get the
// landing page of their application in the registry. A landing page is not
// sent to SPs, so no delivery is written.
func (s *Service) FixLandingPages(ctx context.Context, p *auth.Principal) (LandingPageFix, error) {
	var res LandingPageFix
	if err := requireSuperUser(p); err != nil {
		return res, err
	}
	roles, err := s.Store.ListAllRoles(ctx)
	if err != nil {
		return res, err
	}
	for _, r := range roles {
		fixed := 0
		for i, u := range r.ApplicationUsages {
			if u.LandingPage != "" {
				continue
			}
			if app, ok := s.Registry.Application(u.Application.ManageID); ok && app.LandingPage != "" {
				r.ApplicationUsages[i].LandingPage = app.LandingPage
				fixed++
			}
		}
		if fixed == 0 {
			continue
		}
		r.Auditable.UpdatedAt, r.Auditable.UpdatedBy = s.now(), p.Name
		if err := s.Store.UpdateRole(ctx, r, nil); err != nil {
			if err == domain.ErrVersionConflict {
				continue // changed meanwhile; the next run fixes it
			}
			return res, err
		}
		res.Roles++
		res.ApplicationUsages += fixed
	}
	return res, nil
}

// ProviderMetadata is S7: what the registry knows of an application
// (SAML20_SP, OIDC10_RP) or a SCIM target (PROVISIONING). Identity
// providers and policies are not kept by this service: 404.
func (s *Service) ProviderMetadata(p *auth.Principal, manageType, id string) (map[string]any, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	if !domain.ValidManageType(manageType) {
		return nil, domain.Invalidf("type must be one of %v", domain.ManageTypes)
	}
	c := s.registryCatalogue()
	if manageType == "PROVISIONING" {
		if c != nil {
			if md, ok := c.ProvisioningMetadata(id); ok {
				return md, nil
			}
		}
		return nil, domain.NotFoundf("no provisioning %q", id)
	}
	app, ok := s.Registry.Application(id)
	if !ok || app.ManageType != manageType {
		return nil, domain.NotFoundf("no %s with id %q", manageType, id)
	}
	return s.applicationMetadata(app), nil
}

func (s *Service) applicationMetadata(app domain.Application) map[string]any {
	provisionings := append([]string{}, app.ProvisioningIDs...)
	return map[string]any{"id": app.ManageID, "manageId": app.ManageID, "type": app.ManageType, "entityid": app.ManageID,
		"name": app.Name, "url": app.LandingPage, "provisionings": provisionings,
		"name:en": app.Name, "name:nl": app.NameNL, "OrganizationName:en": app.OrganizationName,
		"OrganizationName:nl": app.OrganizationNameNL, "logo": app.LogoURL, "institutionGuid": app.OrganizationGUID}
}

// ApplicationsOverview is the answer of GET /api/v1/manage/applications:
// the applications (with how many roles use each) and their SCIM targets.
type ApplicationsOverview struct {
	Providers     []map[string]any `json:"providers"`
	Provisionings []map[string]any `json:"provisionings"`
}

// Applications lists the registry's applications for super users, and for
// institution admins and organization tokens the applications their
// organization's roles use; roleCount counts the roles (of the
// organization) using each.
func (s *Service) Applications(ctx context.Context, p *auth.Principal) (ApplicationsOverview, error) {
	out := ApplicationsOverview{Providers: []map[string]any{}, Provisionings: []map[string]any{}}
	if p == nil {
		return out, domain.Unauthenticatedf("authentication required")
	}
	orgScoped := p.OrganizationGUID != "" && (p.IsProgram() || (p.User != nil && p.User.InstitutionAdmin))
	if !p.SuperUser && !orgScoped {
		return out, domain.Forbiddenf("super users and institution admins only")
	}
	var roles []domain.Role
	var err error
	if p.SuperUser {
		roles, err = s.Store.ListAllRoles(ctx)
	} else {
		roles, err = s.Store.ListRolesByOrganization(ctx, p.OrganizationGUID)
	}
	if err != nil {
		return out, err
	}
	roleCount := map[string]int{}
	for _, r := range roles {
		for _, mid := range r.ManageIDs() {
			roleCount[mid]++
		}
	}
	var apps []domain.Application
	if c := s.registryCatalogue(); c != nil && p.SuperUser {
		apps = c.Applications()
	} else {
		for _, mid := range slices.Sorted(maps.Keys(roleCount)) {
			if app, ok := s.Registry.Application(mid); ok {
				apps = append(apps, app)
			}
		}
	}
	seen := map[string]bool{}
	for _, app := range apps {
		md := s.applicationMetadata(app)
		md["roleCount"] = roleCount[app.ManageID]
		out.Providers = append(out.Providers, md)
		for _, pid := range app.ProvisioningIDs {
			if seen[pid] {
				continue
			}
			seen[pid] = true
			if c := s.registryCatalogue(); c != nil {
				if md, ok := c.ProvisioningMetadata(pid); ok {
					out.Provisionings = append(out.Provisionings, md)
				}
			}
		}
	}
	return out, nil
}

// RepairDates lists (apply false) or repairs (apply true) the stored dates
// that were written before dates were bounded on input: super users only.
func (s *Service) RepairDates(ctx context.Context, p *auth.Principal, apply bool) ([]domain.DateRepair, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	repairs, err := s.Store.RepairDates(ctx, apply)
	if err == nil && apply {
		s.log().InfoContext(ctx, "stored dates repaired", "items", len(repairs), "by", p.LogID())
	}
	return repairs, err
}
