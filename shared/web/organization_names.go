package web

import "github.com/edu-invite/invite/shared/domain"

// namedByOrganization gives an application the names of its organization
// as the service keeps them (a super user's, else its applications'), so
// that a page names an organization one way wherever it appears.
func namedByOrganization(orgs []domain.Organization, a domain.Application) domain.Application {
	if a.OrganizationGUID == "" {
		return a
	}
	if o, known := domain.OrganizationOf(orgs, a.OrganizationGUID); known && o.DisplayName("en") != o.GUID {
		a.OrganizationName, a.OrganizationNameNL = o.Name, o.NameNL
	}
	return a
}

// rolesNamedByOrganization is roles with each application named by its
// organization (copies: the roles given are not changed).
func rolesNamedByOrganization(orgs []domain.Organization, roles []domain.Role) []domain.Role {
	out := make([]domain.Role, len(roles))
	for i, r := range roles {
		r.ApplicationUsages = append([]domain.ApplicationUsage(nil), r.ApplicationUsages...)
		for j := range r.ApplicationUsages {
			r.ApplicationUsages[j].Application = namedByOrganization(orgs, r.ApplicationUsages[j].Application)
		}
		out[i] = r
	}
	return out
}
