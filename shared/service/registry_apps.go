package service

import (
	"context"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
)

// ApplicationView is an application as the API shows it.
type ApplicationView = config.ApplicationDoc

func (s *Service) registryAdmin() (*RegistryAdmin, error) {
	if s.RegistryAdmin == nil || s.RegistryAdmin.Store == nil {
		return nil, domain.Unavailablef("the registry is not managed in this deployment")
	}
	return s.RegistryAdmin, nil
}

// registryScope authorizes a registry operation: "" and all for super
// users, the institution for its admins.
func registryScope(p *auth.Principal) (string, bool, error) {
	if p == nil {
		return "", false, domain.Unauthenticatedf("authentication required")
	}
	org, all, ok := p.RegistryScope()
	if !ok {
		return "", false, domain.Forbiddenf("only super users and institution admins manage applications and SCIM connections")
	}
	return org, all, nil
}

func invalid(problems []string) error {
	return domain.Invalidf("%s", strings.Join(problems, "; "))
}

// applicationDoc is the view of an application of the registry.
func applicationDoc(a domain.Application) config.ApplicationDoc {
	return config.ApplicationDoc{ID: a.ID, ManageID: a.ManageID, ManageType: a.ManageType, Name: a.Name, NameNL: a.NameNL,
		OrganizationName: a.OrganizationName, OrganizationNameNL: a.OrganizationNameNL, LogoURL: a.LogoURL,
		LandingPage: a.LandingPage, OrganizationGUID: a.OrganizationGUID, Provisionings: append([]string{}, a.ProvisioningIDs...)}
}

// ListApplications lists the applications the caller manages, by manage
// id, from the cached registry (a change made here is seen at once).
func (s *Service) ListApplications(ctx context.Context, p *auth.Principal) ([]ApplicationView, error) {
	org, all, err := registryScope(p)
	if err != nil {
		return nil, err
	}
	c := s.registryCatalogue()
	out := []ApplicationView{}
	if c == nil {
		return out, nil
	}
	for _, a := range c.Applications() {
		if all || a.OrganizationGUID == org {
			out = append(out, applicationDoc(a))
		}
	}
	slices.SortFunc(out, func(a, b ApplicationView) int { return strings.Compare(a.ManageID, b.ManageID) })
	return out, nil
}

// GetApplication reads one application (strongly consistent).
func (s *Service) GetApplication(ctx context.Context, p *auth.Principal, manageID string) (ApplicationView, error) {
	if _, _, err := registryScope(p); err != nil {
		return ApplicationView{}, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return ApplicationView{}, err
	}
	a, found, err := ra.Store.LoadApplication(ctx, manageID)
	if err != nil {
		return a, err
	}
	if !found || !p.CanManageRegistryItem(a.OrganizationGUID) {
		return a, domain.NotFoundf("no application %q", manageID)
	}
	if a.Provisionings == nil {
		a.Provisionings = []string{}
	}
	return a, nil
}

// CreateApplication adds an application. An institution admin's
// application belongs to their institution, whatever the body says, and
// may use only their institution's connections.
func (s *Service) CreateApplication(ctx context.Context, p *auth.Principal, in ApplicationView) (ApplicationView, error) {
	return s.saveApplication(ctx, p, in, nil)
}

// UpdateApplication replaces an application's fields; its manage id and id
// stay.
func (s *Service) UpdateApplication(ctx context.Context, p *auth.Principal, manageID string, in ApplicationView) (ApplicationView, error) {
	if in.ManageID != "" && in.ManageID != manageID {
		return in, domain.Invalidf("manageId %q differs from the path's %q: a manage id cannot change", in.ManageID, manageID)
	}
	in.ManageID = manageID
	old, err := s.GetApplication(ctx, p, manageID)
	if err != nil {
		return in, err
	}
	return s.saveApplication(ctx, p, in, &old)
}

func (s *Service) saveApplication(ctx context.Context, p *auth.Principal, in ApplicationView, old *ApplicationView) (ApplicationView, error) {
	org, all, err := registryScope(p)
	if err != nil {
		return in, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return in, err
	}
	if !all {
		in.OrganizationGUID = org
	}
	in.ID = 0
	if old != nil {
		in.ID = old.ID
	}
	if in.Provisionings == nil {
		in.Provisionings = []string{}
	}
	problems := config.ValidateApplication(in)
	for _, pid := range in.Provisionings {
		conn, found, err := ra.Store.LoadConnection(ctx, pid)
		if err != nil {
			return in, err
		}
		// Another institution's connection is as unknown as a missing one.
		if !found || (!all && conn.OrganizationGUID != org) {
			problems = append(problems, "provisionings: no SCIM connection "+quote(pid))
		}
	}
	if old == nil {
		if existing, exists, err := ra.Store.LoadApplication(ctx, in.ManageID); err != nil {
			return in, err
		} else if exists && !p.CanManageRegistryItem(existing.OrganizationGUID) {
			return in, domain.NotFoundf("no application %q", in.ManageID)
		}
	}
	if len(problems) > 0 {
		return in, invalid(problems)
	}
	ch := config.Change{Kind: config.KindApplication, ID: in.ManageID, Action: config.ActionCreate, By: p.Name, At: s.now(),
		OrganizationGUID: in.OrganizationGUID, Fields: changedFields(old, in)}
	if old != nil {
		ch.Action = config.ActionUpdate
	}
	saved, err := ra.Store.SaveApplication(ctx, in, old == nil, ch)
	if err != nil {
		return in, err
	}
	s.registryChanged(ctx, p, ch)
	return saved, nil
}

// DeleteApplication removes an application no role uses.
func (s *Service) DeleteApplication(ctx context.Context, p *auth.Principal, manageID string) error {
	old, err := s.GetApplication(ctx, p, manageID)
	if err != nil {
		return err
	}
	ra, _ := s.registryAdmin()
	roles, err := s.Store.ListRolesByManageID(ctx, manageID)
	if err != nil {
		return err
	}
	if len(roles) > 0 {
		names := make([]string, 0, len(roles))
		for _, r := range roles {
			names = append(names, quote(r.Name))
		}
		return domain.Conflictf("application %q is used by %d role(s): %s; remove it from them first", manageID, len(roles), strings.Join(names, ", "))
	}
	ch := config.Change{Kind: config.KindApplication, ID: manageID, Action: config.ActionDelete, By: p.Name, At: s.now(), OrganizationGUID: old.OrganizationGUID}
	if err := ra.Store.DeleteApplication(ctx, manageID, ch); err != nil {
		return err
	}
	s.registryChanged(ctx, p, ch)
	return nil
}

// RegistryChanges is the audit trail of the registry, newest first; super
// users only.
func (s *Service) RegistryChanges(ctx context.Context, p *auth.Principal, limit int) ([]config.Change, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	ra, err := s.registryAdmin()
	if err != nil {
		return nil, err
	}
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	return ra.Store.RegistryChanges(ctx, limit)
}

// registryChanged makes the change visible in this process at once and
// logs it (names of fields, never values; who made it is in the change's
// record, not in the log: it may be a person's e-mail address).
func (s *Service) registryChanged(ctx context.Context, p *auth.Principal, ch config.Change) {
	if s.RegistryAdmin != nil && s.RegistryAdmin.Invalidate != nil {
		s.RegistryAdmin.Invalidate()
	}
	s.log().Info("registry changed", "kind", ch.Kind, "id", ch.ID, "action", ch.Action,
		"fields", ch.Fields, "secretChanged", ch.SecretChanged)
	s.recordRegistryChange(ctx, p, ch)
}

func quote(s string) string { return `"` + s + `"` }
