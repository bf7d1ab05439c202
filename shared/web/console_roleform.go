package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// roleFormPage creates or edits a role.
type roleFormPage struct {
	consolePage
	Action       string
	RoleID       int64
	Name         string
	Description  string
	Days         string
	Date         string
	Equality     bool
	FedIDOnly    bool
	Override     bool
	ACR          string
	InviterName  string
	Organization string
	// ShowOrganization: super users choose the organization from a list
	// of names (OrganizationSelect).
	ShowOrganization bool
	organizations    orgField
	// ShowApplications: whether the person may change applications.
	ShowApplications bool
	Applications     []appChoice
	Errors           map[string]string
}

// OrganizationSelect is the organization list with what was chosen and
// what is wrong with it.
func (f roleFormPage) OrganizationSelect() orgField {
	return f.organizations.with(f.Organization, f.Errors["organization"])
}

type appChoice struct {
	Index       int
	ManageID    string
	ManageType  string
	Name        string
	Checked     bool
	LandingPage string
}

func (p *Pages) roleForm(r *http.Request, pr *auth.Principal, lang, titleKey string, role domain.Role, mayApps bool) roleFormPage {
	f := roleFormPage{consolePage: p.consoleBase(r, pr, lang, titleKey, "roles"), RoleID: role.ID, Name: role.Name,
		Description: role.Description, Equality: role.EnforceEmailEquality, FedIDOnly: role.FedIDOnly,
		Override: role.OverrideSettingsAllowed, ACR: role.RequestedAuthnContext, InviterName: role.InviterDisplayName,
		Organization: role.OrganizationGUID, ShowOrganization: pr.SuperUser, ShowApplications: mayApps, Errors: map[string]string{}}
	if f.ShowOrganization {
		f.organizations = p.organizationField(r.Context(), lang, "organization", "organization", "console.role.organization", "")
		f.organizations.Help, f.organizations.Required = i18n.T(lang, "console.roleform.organizationHelp"), true
	}
	if role.DefaultExpiryDays > 0 {
		f.Days = strconv.Itoa(role.DefaultExpiryDays)
	}
	if role.DefaultExpiryDate != nil {
		f.Date = role.DefaultExpiryDate.UTC().Format(time.DateOnly)
	}
	used := map[string]domain.ApplicationUsage{}
	for _, u := range role.ApplicationUsages {
		used[u.Application.ManageID] = u
	}
	for i, app := range p.cfg.Service.ApplicationChoicesFor(pr, role.OrganizationGUID) {
		c := appChoice{Index: i, ManageID: app.ManageID, ManageType: app.ManageType, Name: firstNonEmpty(app.Name, app.ManageID), LandingPage: app.LandingPage}
		if u, ok := used[app.ManageID]; ok {
			c.Checked, c.LandingPage = true, u.LandingPage
		}
		f.Applications = append(f.Applications, c)
	}
	if role.ID == 0 {
		f.Action = "/console/roles/new"
	} else {
		f.Action = "/console/roles/" + strconv.FormatInt(role.ID, 10) + "/edit"
	}
	return f
}

func (p *Pages) consoleRoleNew(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MayCreateRoles)
	if !ok {
		return
	}
	p.render(w, r, http.StatusOK, "console/roleform", p.roleForm(r, pr, lang, "console.roleform.new", domain.Role{DefaultExpiryDays: 365}, true))
}

func (p *Pages) consoleRoleEdit(w http.ResponseWriter, r *http.Request) {
	pr, lang, role, rights, ok := p.managedRole(w, r)
	if !ok {
		return
	}
	p.render(w, r, http.StatusOK, "console/roleform", p.roleForm(r, pr, lang, "console.roleform.edit", role, rights.ChangeApplications))
}

// managedRole is the signed-in person, the page's language, and the role of
// the path with the person's rights on it, for the edit form and its POST;
// it answers 404 or 403 itself (ok false) when the person may not manage it.
func (p *Pages) managedRole(w http.ResponseWriter, r *http.Request) (*auth.Principal, string, domain.Role, service.RoleRights, bool) {
	pr, lang, id, ok := p.consoleItem(w, r)
	if !ok {
		return nil, "", domain.Role{}, service.RoleRights{}, false
	}
	role, err := p.cfg.Service.GetRole(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return nil, "", domain.Role{}, service.RoleRights{}, false
	}
	rights := service.RightsOn(pr, role)
	if !rights.Manage {
		p.forbidden(w, r)
		return nil, "", domain.Role{}, service.RoleRights{}, false
	}
	return pr, lang, role, rights, true
}

// readRoleForm reads the posted role into the form (to show it again)
// and the service's input; field errors are set on the form.
func (p *Pages) readRoleForm(r *http.Request, f *roleFormPage, lang string) service.RoleInput {
	f.Name, f.Description = strings.TrimSpace(r.PostFormValue("name")), strings.TrimSpace(r.PostFormValue("description"))
	f.Days, f.Date = strings.TrimSpace(r.PostFormValue("days")), strings.TrimSpace(r.PostFormValue("date"))
	f.Equality, f.FedIDOnly, f.Override = r.PostFormValue("equality") != "", r.PostFormValue("fedidonly") != "", r.PostFormValue("override") != ""
	f.ACR, f.InviterName = strings.TrimSpace(r.PostFormValue("acr")), strings.TrimSpace(r.PostFormValue("inviterName"))
	if f.ShowOrganization {
		f.Organization = strings.TrimSpace(r.PostFormValue("organization"))
		if f.Organization == "" {
			// A role belongs to an organization: a super user, who has
			// none of their own, names it.
			f.Errors["organization"] = i18n.T(lang, "console.roleform.err.organization")
		}
	}
	in := service.RoleInput{Name: f.Name, Description: f.Description, EnforceEmailEquality: f.Equality, FedIDOnly: f.FedIDOnly,
		OverrideSettingsAllowed: f.Override, RequestedAuthnContext: f.ACR, InviterDisplayName: f.InviterName, OrganizationGUID: f.Organization}
	if f.Name == "" {
		f.Errors["name"] = i18n.T(lang, "console.roleform.err.name")
	}
	if f.Days != "" {
		n, err := strconv.Atoi(f.Days)
		if err != nil || n < 0 || n > 36500 {
			f.Errors["days"] = i18n.T(lang, "console.roleform.err.days")
		}
		in.DefaultExpiryDays = n
	}
	if f.Date != "" {
		d, err := parseDay(f.Date)
		if err != nil || !d.After(p.now()) {
			f.Errors["date"] = i18n.T(lang, "console.roleform.err.date")
		}
		in.DefaultExpiryDate = &d
	}
	for i := range f.Applications {
		a := &f.Applications[i]
		idx := strconv.Itoa(a.Index)
		a.Checked = r.PostFormValue("app"+idx) != ""
		a.LandingPage = strings.TrimSpace(r.PostFormValue("landing" + idx))
		if a.Checked {
			in.ApplicationUsages = append(in.ApplicationUsages, service.ApplicationUsageInput{ManageID: a.ManageID, ManageType: a.ManageType, LandingPage: a.LandingPage})
		}
	}
	if f.ShowApplications && len(in.ApplicationUsages) == 0 {
		// A role gives access to applications: beside the list, not as
		// the API's message above the form.
		f.Errors["applications"] = i18n.T(lang, "console.roleform.err.applications")
	}
	return in
}

func (p *Pages) consoleRoleCreate(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MayCreateRoles)
	if !ok {
		return
	}
	f := p.roleForm(r, pr, lang, "console.roleform.new", domain.Role{}, true)
	in := p.readRoleForm(r, &f, lang)
	if len(f.Errors) > 0 {
		p.render(w, r, http.StatusBadRequest, "console/roleform", f)
		return
	}
	role, err := p.cfg.Service.CreateRole(r.Context(), pr, in)
	if p.roleFormFailed(w, r, lang, &f, err) {
		return
	}
	back(w, r, "/console/roles/"+strconv.FormatInt(role.ID, 10), "created")
}

func (p *Pages) consoleRoleUpdate(w http.ResponseWriter, r *http.Request) {
	pr, lang, role, rights, ok := p.managedRole(w, r)
	if !ok {
		return
	}
	f := p.roleForm(r, pr, lang, "console.roleform.edit", role, rights.ChangeApplications)
	in := p.readRoleForm(r, &f, lang)
	if !rights.ChangeApplications {
		in.ApplicationUsages = nil
		for _, u := range role.ApplicationUsages {
			in.ApplicationUsages = append(in.ApplicationUsages, service.ApplicationUsageInput{ManageID: u.Application.ManageID, ManageType: u.Application.ManageType, LandingPage: u.LandingPage})
		}
	}
	if !f.ShowOrganization {
		in.OrganizationGUID = role.OrganizationGUID
	}
	if len(f.Errors) > 0 {
		p.render(w, r, http.StatusBadRequest, "console/roleform", f)
		return
	}
	_, err := p.cfg.Service.UpdateRole(r.Context(), pr, role.ID, in)
	if p.roleFormFailed(w, r, lang, &f, err) {
		return
	}
	back(w, r, "/console/roles/"+strconv.FormatInt(role.ID, 10), "updated")
}

// roleFormFailed shows the service's refusal on the form; true when it
// did (or wrote another answer).
func (p *Pages) roleFormFailed(w http.ResponseWriter, r *http.Request, lang string, f *roleFormPage, err error) bool {
	switch domain.KindOf(err) {
	case 0:
		if err != nil {
			p.serverError(w, r, err)
			return true
		}
		return false
	case domain.KindInvalid:
		f.Errors["form"] = i18n.T(lang, "console.roleform.err.invalid", err.Error())
		p.render(w, r, http.StatusBadRequest, "console/roleform", *f)
	case domain.KindConflict:
		f.Errors["name"] = i18n.T(lang, "console.roleform.err.taken")
		p.render(w, r, http.StatusConflict, "console/roleform", *f)
	case domain.KindForbidden:
		// Refused by the rules: said on the form, which keeps what was typed.
		f.Errors["form"] = i18n.T(lang, "console.roleform.err.forbidden")
		p.render(w, r, http.StatusForbidden, "console/roleform", *f)
	default:
		p.refuse(w, r, err)
	}
	return true
}

// roleDeletePage previews what deleting a role does.
type roleDeletePage struct {
	consolePage
	RoleID      int64
	Name        string
	Members     int
	Invitations int
	SPs         []string
}

func (p *Pages) consoleRoleDeletePreview(w http.ResponseWriter, r *http.Request) {
	pr, lang, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	role, members, err := p.cfg.Service.MemberCountOfRole(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	if !service.RightsOn(pr, role).Manage {
		p.forbidden(w, r)
		return
	}
	invs, err := p.cfg.Service.RoleInvitations(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page := roleDeletePage{consolePage: p.consoleBase(r, pr, lang, "console.roledelete.title", "roles", role.Name), RoleID: id, Name: role.Name,
		Members: int(members), Invitations: len(invs)}
	for _, sp := range p.cfg.Service.Registry.SPsOfRole(role) {
		page.SPs = append(page.SPs, firstNonEmpty(sp.Name, sp.ID))
	}
	p.render(w, r, http.StatusOK, "console/roledelete", page)
}

func (p *Pages) consoleRoleDelete(w http.ResponseWriter, r *http.Request) {
	p.actOnPathID(w, r, "/console/roles", "deleted", p.cfg.Service.DeleteRole)
}
