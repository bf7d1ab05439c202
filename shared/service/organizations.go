package service

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// Organizations have names kept by the service: super users create and
// rename them. An organization no super user has named yet is named by its
// registry applications, as before there were organization items; the
// stored name wins.

// OrganizationInput is an organization as a super user types it; an empty
// GUID on creation gets a new one.
type OrganizationInput struct {
	GUID, Name, NameNL string
}

// organizationGUIDPattern keeps GUIDs to what keys, URLs and forms carry
// without escaping surprises.
var organizationGUIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$`)

// knownOrganizations merges the stored organizations with those the
// registry names, by name; stored is true for the GUIDs of stored items.
func (s *Service) knownOrganizations(ctx context.Context) (orgs []domain.Organization, stored map[string]bool, err error) {
	items, err := s.storedOrganizations(ctx)
	stored = map[string]bool{}
	byGUID := map[string]domain.Organization{}
	for _, o := range items {
		stored[o.GUID] = true
		byGUID[o.GUID] = o
	}
	if c := s.registryCatalogue(); c != nil {
		for _, o := range domain.OrganizationsOf(c.Applications()) {
			if !stored[o.GUID] {
				byGUID[o.GUID] = o
			}
		}
	}
	for _, o := range byGUID {
		orgs = append(orgs, o)
	}
	sort.SliceStable(orgs, func(i, j int) bool {
		a, b := strings.ToLower(orgs[i].DisplayName("en")), strings.ToLower(orgs[j].DisplayName("en"))
		return a < b || (a == b && orgs[i].GUID < orgs[j].GUID)
	})
	return orgs, stored, err
}

// OrganizationChoices are the organizations a super user chooses from, by
// name. A store that cannot be read leaves the registry's names (logged),
// so that a page still shows what it can.
func (s *Service) OrganizationChoices(ctx context.Context) []domain.Organization {
	orgs, _, err := s.knownOrganizations(ctx)
	if err != nil {
		s.log().Warn("organizations not read; the registry's names stand in", "error", err)
	}
	return orgs
}

// OrganizationName is an organization's name in lang, its GUID when no
// one has named it.
func (s *Service) OrganizationName(ctx context.Context, guid, lang string) string {
	o, _ := domain.OrganizationOf(s.OrganizationChoices(ctx), guid)
	return o.DisplayName(lang)
}

// NamedOrganization is an organization as the console lists it: Stored
// when a super user named it (else the registry does).
type NamedOrganization struct {
	domain.Organization
	Stored bool
}

// ListOrganizations lists the organizations the caller may choose from or
// sees: super users all, institution admins and organization tokens their
// own (named by its GUID when no one has named it).
func (s *Service) ListOrganizations(ctx context.Context, p *auth.Principal) ([]NamedOrganization, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	own, all, ok := p.OrganizationScope()
	if !ok {
		return nil, domain.Forbiddenf("only super users, institution admins and organization tokens see organizations")
	}
	orgs, stored, err := s.knownOrganizations(ctx)
	if err != nil {
		return nil, err
	}
	var out []NamedOrganization
	for _, o := range orgs {
		if all || o.GUID == own {
			out = append(out, NamedOrganization{Organization: o, Stored: stored[o.GUID]})
		}
	}
	if !all && len(out) == 0 {
		out = append(out, NamedOrganization{Organization: domain.Organization{GUID: own}})
	}
	return out, nil
}

// organizationOf checks a super user's input.
func organizationOf(in OrganizationInput) (domain.Organization, error) {
	o := domain.Organization{GUID: strings.TrimSpace(in.GUID), Name: strings.TrimSpace(in.Name), NameNL: strings.TrimSpace(in.NameNL)}
	if o.Name == "" {
		return o, domain.Invalidf("name is required")
	}
	if err := checkTexts(line("name", o.Name), line("nameNl", o.NameNL)); err != nil {
		return o, err
	}
	if o.GUID != "" && !organizationGUIDPattern.MatchString(o.GUID) {
		return o, domain.Invalidf("organizationGUID must be letters, digits and . _ : - (at most 100), starting with a letter or digit")
	}
	return o, nil
}

// CreateOrganization names a new organization (super users only); an
// empty GUID gets a new one. KindConflict when a super user already named
// the GUID.
func (s *Service) CreateOrganization(ctx context.Context, p *auth.Principal, in OrganizationInput) (domain.Organization, error) {
	if !p.CanNameOrganizations() {
		return domain.Organization{}, refuseNaming(p)
	}
	o, err := organizationOf(in)
	if err != nil {
		return o, err
	}
	if o.GUID == "" {
		o.GUID = newIdentifier()
	}
	err = s.Store.CreateOrganization(ctx, o)
	s.organizationsChanged()
	if err != nil {
		return o, err
	}
	s.recordOrganization(ctx, p, domain.AuditOrganizationCreated, o)
	return o, nil
}

// RenameOrganization sets the names of an organization (super users
// only). One that only the registry names so far gets its item now; one
// nobody knows is KindNotFound.
func (s *Service) RenameOrganization(ctx context.Context, p *auth.Principal, guid string, in OrganizationInput) (domain.Organization, error) {
	if !p.CanNameOrganizations() {
		return domain.Organization{}, refuseNaming(p)
	}
	in.GUID = guid
	o, err := organizationOf(in)
	if err != nil {
		return o, err
	}
	// The stored item first (read no snapshot that may be stale); one
	// only the registry names gets its item now.
	err = s.Store.RenameOrganization(ctx, o)
	if domain.IsNotFound(err) {
		orgs, _, lerr := s.knownOrganizations(ctx)
		if lerr != nil {
			return o, lerr
		}
		if _, known := domain.OrganizationOf(orgs, o.GUID); !known {
			return o, domain.NotFoundf("no organization %s", o.GUID)
		}
		err = s.Store.CreateOrganization(ctx, o)
	}
	s.organizationsChanged()
	if err != nil {
		return o, err
	}
	s.recordOrganization(ctx, p, domain.AuditOrganizationRenamed, o)
	return o, nil
}

func refuseNaming(p *auth.Principal) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	return domain.Forbiddenf("only super users name organizations")
}
