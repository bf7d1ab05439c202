package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/scimprobe"
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
	Href, Name, Type, LandingPage, Organization, Connections string
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
		if a.OrganizationGUID != "" {
			// The organization's one name, as every page shows it.
			org = p.cfg.Service.OrganizationName(r.Context(), a.OrganizationGUID, lang)
		}
		var cs []string
		for _, id := range a.Provisionings {
			if n := names[id]; n != "" {
				cs = append(cs, n)
			} else {
				cs = append(cs, id)
			}
		}
		page.Applications = append(page.Applications, applicationRow{Href: "/console/applications/" + url.PathEscape(a.ManageID), Name: name, Type: a.ManageType, LandingPage: a.LandingPage,
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

// connectionPage is one SCIM connection, with the "Test connection"
// button; after a test it shows the probe's report in plain words.
type connectionPage struct {
	consolePage
	Connection connectionRow
	Apps       []string
	Tested     bool
	Report     *reportView
}

// reportView is a scimprobe.Report for people: each line a question and
// its answer (yes, no or unknown), the recommendation and the warnings.
type reportView struct {
	OK             bool
	Summary        string
	Lines          []detail
	Recommendation string
	Warnings       []string
}

func (p *Pages) connectionPageOf(w http.ResponseWriter, r *http.Request) (connectionPage, bool) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return connectionPage{}, false
	}
	c, err := p.cfg.Service.GetConnection(r.Context(), pr, r.PathValue("id"))
	if err != nil {
		p.refuse(w, r, err)
		return connectionPage{}, false
	}
	// The applications by name where the person may see them.
	apps, _ := p.cfg.Service.ListApplications(r.Context(), pr)
	var names []string
	for _, id := range c.Applications {
		name := id
		for _, a := range apps {
			if a.ManageID == id && a.Name != "" {
				name = a.Name
			}
		}
		names = append(names, name)
	}
	page := connectionPage{consolePage: p.consoleBase(r, pr, lang, "console.conn.title", "applications", c.Name), Apps: names,
		Connection: connectionRow{ID: c.ID, Name: c.Name, BaseURL: c.BaseURL, Auth: c.Auth.Method,
			Membership: i18n.T(lang, "console.apps.patch"), Credential: i18n.T(lang, "console.apps.noCredential")}}
	if strings.EqualFold(c.Membership, "put") {
		page.Connection.Membership = i18n.T(lang, "console.apps.put")
	}
	if c.Credential.Configured {
		page.Connection.Credential = i18n.T(lang, "console.apps.credential")
	}
	return page, true
}

func (p *Pages) consoleConnection(w http.ResponseWriter, r *http.Request) {
	if page, ok := p.connectionPageOf(w, r); ok {
		p.render(w, r, http.StatusOK, "console/connection", page)
	}
}

// consoleConnectionTest runs the probe (POST: it calls the SP) and shows
// the report on the connection's page.
func (p *Pages) consoleConnectionTest(w http.ResponseWriter, r *http.Request) {
	page, ok := p.connectionPageOf(w, r)
	if !ok {
		return
	}
	rep, err := p.cfg.Service.TestConnection(r.Context(), visitOf(r).principal, r.PathValue("id"))
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page.Tested, page.Report = true, reportOf(page.Lang, rep)
	p.render(w, r, http.StatusOK, "console/connection", page)
}

func reportOf(lang string, rep scimprobe.Report) *reportView {
	yn := func(b *bool) string {
		switch {
		case b == nil:
			return i18n.T(lang, "console.conn.unknown")
		case *b:
			return i18n.T(lang, "console.conn.yes")
		default:
			return i18n.T(lang, "console.conn.no")
		}
	}
	reach := rep.Reachable
	v := &reportView{OK: rep.OK, Summary: rep.Summary, Warnings: rep.Warnings, Lines: []detail{
		{i18n.T(lang, "console.conn.reachable"), yn(&reach)},
		{i18n.T(lang, "console.conn.tls"), yn(rep.TLSValid)},
		{i18n.T(lang, "console.conn.credentials"), yn(rep.CredentialsAccepted)},
		{i18n.T(lang, "console.conn.patch"), yn(rep.Capabilities.Patch)},
		{i18n.T(lang, "console.conn.filter"), yn(rep.Capabilities.Filter)},
	}}
	if rep.RecommendedMembership != "" {
		v.Recommendation = i18n.T(lang, "console.conn.recommend", rep.RecommendedMembership, rep.ConfiguredMembership)
	}
	return v
}
