package domain

import (
	"sort"
	"strings"
)

// Organization is an institution: its GUID and the name its applications
// give it in the registry (Dutch when set, else the English). The registry
// is where organizations are named: super users and the institution's
// admins set the names with the applications.
type Organization struct {
	GUID, Name, NameNL string
}

// DisplayName is the organization's name in lang, else its GUID.
func (o Organization) DisplayName(lang string) string {
	if lang == "nl" && o.NameNL != "" {
		return o.NameNL
	}
	if o.Name != "" {
		return o.Name
	}
	if o.NameNL != "" {
		return o.NameNL
	}
	return o.GUID
}

// OrganizationsOf lists the organizations of apps, each once (the first
// application with a name names it), by name.
func OrganizationsOf(apps []Application) []Organization {
	byGUID := map[string]*Organization{}
	var out []*Organization
	for _, a := range apps {
		if a.OrganizationGUID == "" {
			continue
		}
		o, seen := byGUID[a.OrganizationGUID]
		if !seen {
			o = &Organization{GUID: a.OrganizationGUID}
			byGUID[a.OrganizationGUID] = o
			out = append(out, o)
		}
		if o.Name == "" {
			o.Name = a.OrganizationName
		}
		if o.NameNL == "" {
			o.NameNL = a.OrganizationNameNL
		}
	}
	list := make([]Organization, len(out))
	for i, o := range out {
		list[i] = *o
	}
	sort.SliceStable(list, func(i, j int) bool {
		return strings.ToLower(list[i].DisplayName("en")) < strings.ToLower(list[j].DisplayName("en"))
	})
	return list
}

// OrganizationOf finds guid among orgs; an unknown GUID is an organization
// named by its GUID (ok false).
func OrganizationOf(orgs []Organization, guid string) (Organization, bool) {
	for _, o := range orgs {
		if o.GUID == guid {
			return o, true
		}
	}
	return Organization{GUID: guid}, false
}
