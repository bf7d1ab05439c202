package service

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// RoleInput is what a caller may set on a role (R3, R6).
type RoleInput struct {
	Name                    string
	Description             string
	DefaultExpiryDays       int
	DefaultExpiryDate       *time.Time
	EnforceEmailEquality    bool
	FedIDOnly               bool
	OverrideSettingsAllowed bool
	OrganizationGUID        string
	InviterDisplayName      string
	RequestedAuthnContext   string
	ApplicationUsages       []ApplicationUsageInput
}

// ApplicationUsageInput links the role to a registered application.
type ApplicationUsageInput struct {
	ManageID    string
	ManageType  string
	LandingPage string
}

// CreateRole validates and stores a new role and sends its group to every SP
// of its applications.
func (s *Service) CreateRole(ctx context.Context, p *auth.Principal, in RoleInput) (domain.Role, error) {
	if p == nil {
		return domain.Role{}, domain.Unauthenticatedf("authentication required")
	}
	// As in the reference: a super user names the organization; anyone else
	// creates in their own, whatever the body says. Who may create is
	// decided before the input is read, so that a refused caller learns
	// nothing of which applications exist.
	if !p.SuperUser {
		in.OrganizationGUID = p.OrganizationGUID
		if !p.CanCreateRoleIn(in.OrganizationGUID) {
			return domain.Role{}, domain.Forbiddenf("not allowed to create roles in organization %q", in.OrganizationGUID)
		}
	}
	role, err := s.roleFromInput(in, nil)
	if err != nil {
		return domain.Role{}, err
	}
	if p.SuperUser && strings.TrimSpace(role.OrganizationGUID) == "" {
		return domain.Role{}, domain.Forbiddenf("super users must name the role's organizationGUID")
	}
	if err := checkApplicationsOfOrganization(role); err != nil {
		return domain.Role{}, err
	}
	id, err := s.Store.NextIDs(ctx, "role", 1)
	if err != nil {
		return domain.Role{}, err
	}
	now := s.now()
	role.ID = id
	role.ShortName = domain.ShortNameOf(role.Name)
	role.URN = fmt.Sprintf("%s:%d:%s", s.urnPrefix(), id, role.ShortName)
	role.Identifier = newIdentifier()
	if p.IsProgram() {
		role.RemoteAPIUser = p.Name
	}
	role.Auditable = domain.Auditable{CreatedAt: now, CreatedBy: p.Name, UpdatedAt: now, UpdatedBy: p.Name}
	for i := range role.ApplicationUsages {
		role.ApplicationUsages[i].ID = int64(i + 1)
	}
	var deliveries []domain.Delivery
	for _, sp := range s.Registry.SPsOfRole(role) {
		deliveries = append(deliveries, s.newDelivery(ctx, sp, domain.DeliverGroupCreate, 0, role.ID))
	}
	if err := s.Store.CreateRole(ctx, role, deliveries); err != nil {
		return domain.Role{}, err
	}
	role.Version = 1
	s.dispatch(ctx, deliveries)
	s.recordRoleChange(ctx, p, role, domain.AuditRoleCreated)
	return role, nil
}

// roleFromInput checks and converts a role's input. storedDate is the
// stored defaultExpiryDate of an updated role: sent back unchanged (clients
// send whole objects back), it is kept even when it has passed.
func (s *Service) roleFromInput(in RoleInput, storedDate *time.Time) (domain.Role, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" {
		return domain.Role{}, domain.Invalidf("name is required")
	}
	if err := checkTexts(line("name", name), prose("description", in.Description), line("inviterDisplayName", in.InviterDisplayName),
		line("requestedAuthnContext", in.RequestedAuthnContext), line("organizationGUID", in.OrganizationGUID)); err != nil {
		return domain.Role{}, err
	}
	if len(in.ApplicationUsages) > maxApplicationUsages {
		return domain.Role{}, domain.Invalidf("applicationUsages holds more than %d applications", maxApplicationUsages)
	}
	if in.DefaultExpiryDays != 0 && in.DefaultExpiryDate != nil {
		return domain.Role{}, domain.Invalidf("use defaultExpiryDays or defaultExpiryDate, not both")
	}
	// Day counts and dates are bounded so that every membership end
	// computed from them can be stored; a default date in the past (or
	// 0, -1, 0001-01-01) is refused: null or absent means "none".
	if err := domain.CheckExpiryDays("defaultExpiryDays", in.DefaultExpiryDays); err != nil {
		return domain.Role{}, err
	}
	if err := domain.CheckDate("defaultExpiryDate", in.DefaultExpiryDate); err != nil {
		return domain.Role{}, err
	}
	if unchanged := in.DefaultExpiryDate != nil && storedDate != nil && in.DefaultExpiryDate.Equal(*storedDate); !unchanged {
		if err := domain.CheckFutureDate("defaultExpiryDate", in.DefaultExpiryDate, s.now()); err != nil {
			return domain.Role{}, err
		}
	}
	if len(in.ApplicationUsages) == 0 {
		return domain.Role{}, domain.Invalidf("applicationUsages must name at least one application")
	}
	role := domain.Role{
		Name: name, Description: in.Description, DefaultExpiryDays: in.DefaultExpiryDays, DefaultExpiryDate: in.DefaultExpiryDate,
		EnforceEmailEquality: in.EnforceEmailEquality, FedIDOnly: in.FedIDOnly, OverrideSettingsAllowed: in.OverrideSettingsAllowed,
		OrganizationGUID: in.OrganizationGUID, InviterDisplayName: in.InviterDisplayName, RequestedAuthnContext: in.RequestedAuthnContext,
	}
	seen := map[string]bool{}
	for _, u := range in.ApplicationUsages {
		app, ok := s.Registry.Application(u.ManageID)
		if !ok {
			return domain.Role{}, applicationNotInRegistry(u.ManageID)
		}
		if u.ManageType != "" && u.ManageType != app.ManageType {
			return domain.Role{}, domain.Invalidf("application %q is of type %s, not %s", u.ManageID, app.ManageType, u.ManageType)
		}
		if seen[u.ManageID] {
			return domain.Role{}, domain.Invalidf("application %q is listed twice", u.ManageID)
		}
		seen[u.ManageID] = true
		if err := domain.CheckWebURL("landingPage", u.LandingPage); err != nil {
			return domain.Role{}, err
		}
		landing := u.LandingPage
		if landing == "" {
			landing = app.LandingPage
		}
		role.ApplicationUsages = append(role.ApplicationUsages, domain.ApplicationUsage{LandingPage: landing, Application: app})
	}
	return role, nil
}

// checkApplicationsOfOrganization refuses a role that uses an application
// of another organization: a role uses only its own organization's
// applications and platform ones (without an organization), so that one
// institution's guests are never provisioned into another's SP. Another
// organization's application answers as one that is not in the registry.
func checkApplicationsOfOrganization(role domain.Role) error {
	for _, u := range role.ApplicationUsages {
		if org := u.Application.OrganizationGUID; org != "" && org != role.OrganizationGUID {
			return applicationNotInRegistry(u.Application.ManageID)
		}
	}
	return nil
}

func applicationNotInRegistry(manageID string) error {
	return domain.Invalidf("application %q is not in the registry", manageID)
}

// GetRole returns a role the caller may see, with its member count read
// as the listings read it (one count everywhere).
func (s *Service) GetRole(ctx context.Context, p *auth.Principal, id int64) (domain.Role, error) {
	role, err := s.Store.GetRole(ctx, id)
	if err != nil {
		return domain.Role{}, err
	}
	if !p.CanManageRole(role) && p.Memberships[id] == "" {
		return domain.Role{}, s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to role %d", id))
	}
	one := []domain.Role{role}
	if err := s.countMembers(ctx, one); err != nil {
		return domain.Role{}, err
	}
	return one[0], nil
}

func (s *Service) urnPrefix() string {
	if s.GroupURNPrefix != "" {
		return s.GroupURNPrefix
	}
	return "urn:collab:group:invite"
}

// callerIsInOrganization reports whether a caller belongs to an
// organization: its own (institution admins, organization tokens) or that
// of a role it holds. It tells a refusal within the caller's organization
// (400 on role deletion, as the reference) from another organization's
// object, which answers as a missing one (tenant.go).
func (s *Service) callerIsInOrganization(ctx context.Context, p *auth.Principal, organizationGUID string) (bool, error) {
	if p.OrganizationGUID != "" {
		return p.OrganizationGUID == organizationGUID, nil
	}
	if len(p.Memberships) == 0 {
		return false, nil
	}
	ids := make([]int64, 0, len(p.Memberships))
	for id := range p.Memberships {
		ids = append(ids, id)
	}
	roles, err := s.Store.GetRoles(ctx, ids)
	if err != nil {
		return false, err
	}
	for _, r := range roles {
		if r.OrganizationGUID == organizationGUID {
			return true, nil
		}
	}
	return false, nil
}
