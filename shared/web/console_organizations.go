package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// Super users name organizations: the list (named here, or by their
// applications until then), a form for a new one, and a rename form per
// organization. Every other page offers these names to choose from.

type organizationsPage struct {
	consolePage
	Organizations []organizationRow
	// The new organization's form, as typed.
	GUID, Name, NameNL string
	Errors             map[string]string
}

type organizationRow struct {
	GUID, Name, NameNL, Source, EditHref, EditLabel string
}

// organizationFormPage renames one organization.
type organizationFormPage struct {
	consolePage
	GUID, Name, NameNL string
	Action             string
	Errors             map[string]string
}

func organizationHref(guid string) string {
	return "/console/organizations/" + url.PathEscape(guid) + "/edit"
}

func (p *Pages) organizationsPage(w http.ResponseWriter, r *http.Request, lang string) (organizationsPage, bool) {
	pr := visitOf(r).principal
	page := organizationsPage{consolePage: p.consoleBase(r, pr, lang, "console.organizations.title", "organizations"), Errors: map[string]string{}}
	orgs, err := p.cfg.Service.ListOrganizations(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return page, false
	}
	for _, o := range orgs {
		row := organizationRow{GUID: o.GUID, Name: o.Name, NameNL: o.NameNL, EditHref: organizationHref(o.GUID),
			EditLabel: i18n.T(lang, "console.organizations.renameWhich", organizationLabel(lang, o.Organization)),
			Source:    i18n.T(lang, "console.organizations.byApplications")}
		if o.Stored {
			row.Source = i18n.T(lang, "console.organizations.byService")
		}
		page.Organizations = append(page.Organizations, row)
	}
	return page, true
}

func (p *Pages) consoleOrganizations(w http.ResponseWriter, r *http.Request) {
	_, lang, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	if page, ok := p.organizationsPage(w, r, lang); ok {
		p.render(w, r, http.StatusOK, "console/organizations", page)
	}
}

// readOrganization reads the posted names; errs says what is missing.
func readOrganization(r *http.Request, lang string) (service.OrganizationInput, map[string]string) {
	in := service.OrganizationInput{GUID: strings.TrimSpace(r.PostFormValue("guid")), Name: strings.TrimSpace(r.PostFormValue("name")),
		NameNL: strings.TrimSpace(r.PostFormValue("nameNl"))}
	errs := map[string]string{}
	if in.Name == "" {
		errs["name"] = i18n.T(lang, "console.organizations.err.name")
	}
	return in, errs
}

// organizationRefusal puts the service's refusal of a form beside its
// field: a taken GUID or a bad one beside the GUID, anything else beside
// the name. ok false: not a refusal of the input (answered otherwise).
func organizationRefusal(lang string, err error, errs map[string]string) (status int, ok bool) {
	switch domain.KindOf(err) {
	case domain.KindConflict:
		errs["guid"] = i18n.T(lang, "console.organizations.err.taken")
		return http.StatusConflict, true
	case domain.KindInvalid:
		field := "name"
		if strings.Contains(err.Error(), "organizationGUID") {
			field = "guid"
		}
		errs[field] = i18n.T(lang, "console.invite.err.refused", err.Error())
		return http.StatusBadRequest, true
	}
	return 0, false
}

func (p *Pages) consoleOrganizationCreate(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	in, errs := readOrganization(r, lang)
	status := http.StatusBadRequest
	if len(errs) == 0 {
		_, err := p.cfg.Service.CreateOrganization(r.Context(), pr, in)
		if err == nil {
			back(w, r, "/console/organizations", "organizationSaved")
			return
		}
		var refused bool
		if status, refused = organizationRefusal(lang, err, errs); !refused {
			p.refuse(w, r, err)
			return
		}
	}
	page, ok := p.organizationsPage(w, r, lang)
	if !ok {
		return
	}
	page.GUID, page.Name, page.NameNL, page.Errors = in.GUID, in.Name, in.NameNL, errs
	p.render(w, r, status, "console/organizations", page)
}

// consoleOrganizationEdit shows (GET) and saves (POST) an organization's
// names.
func (p *Pages) consoleOrganizationEdit(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, superUserOnly)
	if !ok {
		return
	}
	guid := r.PathValue("guid")
	orgs, err := p.cfg.Service.ListOrganizations(r.Context(), pr)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	var current *service.NamedOrganization
	for i := range orgs {
		if orgs[i].GUID == guid {
			current = &orgs[i]
		}
	}
	if current == nil {
		p.notFound(w, r)
		return
	}
	page := organizationFormPage{consolePage: p.consoleBase(r, pr, lang, "console.organizations.rename", "organizations"),
		GUID: guid, Name: current.Name, NameNL: current.NameNL, Action: organizationHref(guid), Errors: map[string]string{}}
	if r.Method != http.MethodPost {
		p.render(w, r, http.StatusOK, "console/organization", page)
		return
	}
	in, errs := readOrganization(r, lang)
	page.Name, page.NameNL, page.Errors = in.Name, in.NameNL, errs
	status := http.StatusBadRequest
	if len(errs) == 0 {
		_, err := p.cfg.Service.RenameOrganization(r.Context(), pr, guid, in)
		if err == nil {
			back(w, r, "/console/organizations", "organizationSaved")
			return
		}
		var refused bool
		if status, refused = organizationRefusal(lang, err, errs); !refused {
			p.refuse(w, r, err)
			return
		}
	}
	p.render(w, r, status, "console/organization", page)
}
