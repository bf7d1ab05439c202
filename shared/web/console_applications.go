package web

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/i18n"
)

// applicationsPage lists the applications and SCIM connections the person
// may manage (the service decides: super users all, institution admins
// their own institution's). A connection's credential is never shown,
// only whether one is configured.
type applicationsPage struct {
	consolePage
	Applications []applicationRow
	Connections  []connectionRow
}

type applicationRow struct {
	Name, Type, LandingPage, Organization, Connections string
}

type connectionRow struct {
	ID, Name, BaseURL, Auth, Membership, Credential string
}

func (p *Pages) consoleApplications(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	apps, err := p.cfg.Service.ListApplications(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	conns, err := p.cfg.Service.ListConnections(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page := applicationsPage{consolePage: p.consoleBase(r, pr, lang, "console.apps.title", "applications")}
	names := map[string]string{}
	for _, c := range conns {
		names[c.ID] = c.Name
	}
	for _, a := range apps {
		name := a.Name
		if lang == "nl" && a.NameNL != "" {
			name = a.NameNL
		}
		org := a.OrganizationName
		if lang == "nl" && a.OrganizationNameNL != "" {
			org = a.OrganizationNameNL
		}
		var cs []string
		for _, id := range a.Provisionings {
			if n := names[id]; n != "" {
				cs = append(cs, n)
			} else {
				cs = append(cs, id)
			}
		}
		page.Applications = append(page.Applications, applicationRow{Name: name, Type: a.ManageType, LandingPage: a.LandingPage,
			Organization: org, Connections: strings.Join(cs, ", ")})
	}
	for _, c := range conns {
		row := connectionRow{ID: c.ID, Name: c.Name, BaseURL: c.BaseURL, Auth: c.Auth.Method,
			Membership: i18n.T(lang, "console.apps.patch"), Credential: i18n.T(lang, "console.apps.noCredential")}
		if strings.EqualFold(c.Membership, "put") {
			row.Membership = i18n.T(lang, "console.apps.put")
		}
		if c.Credential.Configured {
			row.Credential = i18n.T(lang, "console.apps.credential")
		}
		page.Connections = append(page.Connections, row)
	}
	p.render(w, r, http.StatusOK, "console/applications", page)
}
