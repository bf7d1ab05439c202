package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// The administrators of an organization: its institution admins (appointed
// by an invitation without roles, removed when they became one that way)
// and its application managers (members of its roles with that authority;
// appointed by inviting to a role, removed by ending the membership).
// Institution admins see their own organization; super users choose one.

// adminInvitationDays is how long an institution admin invitation from
// this page stays open.
const adminInvitationDays = 14

type adminsPage struct {
	consolePage
	Super        bool   // may choose the organization
	Organization string // empty: a super user has not chosen yet
	// OrganizationName names Organization; Choice is a super user's list.
	OrganizationName string
	Choice           orgField
	Admins           []adminRow
	Managers         []managerRow
	Email            string
	EmailError       string
}

// Name is the person's name, else their e-mail address; Address is the
// address shown beside a name, empty when Name already is the address.
type adminRow struct {
	ID                int64
	Name, Email       string
	Address           string
	PersonHref        string
	MayRemove         bool
	Actions           []rowAction // remove, when MayRemove
	AppointedOtherway string
}

type managerRow struct {
	UserRoleID  int64
	Name, Email string
	Address     string // as in adminRow
	RoleHref    string
	Role        string
	MayRemove   bool
	Actions     []rowAction // remove, when MayRemove
}

func (p *Pages) consoleAdmins(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	p.renderAdmins(w, r, pr, lang, adminsOrganization(r, pr), "", "", http.StatusOK)
}

// adminsOrganization is the organization the page is about: the
// institution admin's own; for super users the one chosen (org).
func adminsOrganization(r *http.Request, pr *auth.Principal) string {
	if pr.SuperUser {
		return strings.TrimSpace(r.FormValue("org"))
	}
	return pr.OrganizationGUID
}

func (p *Pages) renderAdmins(w http.ResponseWriter, r *http.Request, pr *auth.Principal, lang, org, email, emailError string, status int) {
	if !service.MayAdministerOrganization(pr) {
		p.forbidden(w, r)
		return
	}
	page := adminsPage{consolePage: p.consoleBase(r, pr, lang, "console.admins.title", "admins"), Super: pr.SuperUser,
		Organization: org, Email: email, EmailError: emailError}
	if pr.SuperUser {
		page.Choice = p.organizationField(r.Context(), lang, "org", "org", "console.admins.organization", org)
	}
	if org != "" {
		page.OrganizationName = p.cfg.Service.OrganizationName(r.Context(), org, lang)
		admins, err := p.cfg.Service.InstitutionAdmins(r.Context(), pr, org)
		if err != nil {
			p.refuse(w, r, err)
			return
		}
		for _, u := range admins {
			row := adminRow{ID: u.ID, Name: personName(u), Email: u.Email, Address: addressBesideName(u.DisplayName(), u.Email),
				PersonHref: "/console/people/" + strconv.FormatInt(u.ID, 10), MayRemove: u.InstitutionAdminByInvite}
			if row.MayRemove {
				row.Actions = []rowAction{{Action: "/console/admins/" + strconv.FormatInt(u.ID, 10) + "/remove", Hidden: []hiddenField{{"org", org}},
					Button: i18n.T(lang, "console.role.remove"), ButtonAL: i18n.T(lang, "console.admins.removeWho", row.Name)}}
			} else {
				row.AppointedOtherway = i18n.T(lang, "console.admins.notByInvitation")
			}
			page.Admins = append(page.Admins, row)
		}
		managers, err := p.cfg.Service.OrganizationApplicationManagers(r.Context(), pr, org)
		if err != nil {
			p.refuse(w, r, err)
			return
		}
		for _, m := range managers {
			row := managerRow{UserRoleID: m.Member.UserRole.ID, Name: personName(m.Member.User),
				Email: m.Member.User.Email, Address: addressBesideName(m.Member.User.DisplayName(), m.Member.User.Email), RoleHref: "/console/roles/" + strconv.FormatInt(m.Role.ID, 10), Role: m.Role.Name,
				MayRemove: service.MayRemove(pr, m.Role, m.Member.UserRole)}
			if row.MayRemove {
				row.Actions = []rowAction{{Action: "/console/memberships/" + strconv.FormatInt(row.UserRoleID, 10) + "/remove",
					Hidden: []hiddenField{{"from", "admins"}, {"org", org}}, Button: i18n.T(lang, "console.role.remove"),
					ButtonAL: i18n.T(lang, "console.admins.removeManager", row.Name, row.Role)}}
			}
			page.Managers = append(page.Managers, row)
		}
	}
	p.render(w, r, status, "console/admins", page)
}

// consoleAdminInvite invites one address to become institution admin of
// the organization; the result page shows the link, as for any invitation.
func (p *Pages) consoleAdminInvite(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MayAdministerOrganization)
	if !ok {
		return
	}
	org := adminsOrganization(r, pr)
	email := strings.TrimSpace(r.PostFormValue("email"))
	if _, err := service.CheckRecipient(email); err != nil || email == "" {
		p.renderAdmins(w, r, pr, lang, org, email, i18n.T(lang, "console.admins.err.email"), http.StatusUnprocessableEntity)
		return
	}
	expiry := p.now().Add(adminInvitationDays * 24 * time.Hour)
	res, err := p.cfg.Service.Invite(r.Context(), pr, service.InvitationInput{IntendedAuthority: string(domain.InstitutionAdmin),
		Invites: []string{email}, OrganizationGUID: org, ExpiryDate: &expiry, Language: lang})
	if err != nil {
		if k := domain.KindOf(err); k == domain.KindInvalid && org == "" {
			p.renderAdmins(w, r, pr, lang, org, email, i18n.T(lang, "console.admins.err.organization"), http.StatusUnprocessableEntity)
			return
		}
		p.refuse(w, r, err)
		return
	}
	out := invitedPage{consolePage: p.consoleBase(r, pr, lang, "console.invited.title", "admins"), RoleHref: adminsHref(org), BackKey: "console.invited.backAdmins"}
	for _, u := range res.URLs {
		out.Recipients = append(out.Recipients, newInvitedRow(lang, len(out.Recipients), u.Recipient, u.InvitationURL, i18n.T(lang, "console.invited.mailQueued")))
	}
	p.render(w, r, http.StatusCreated, "console/invited", out)
}

// consoleAdminRemove takes institution admin rights away (the service
// decides whether the person may, and whether the rights were invited).
func (p *Pages) consoleAdminRemove(w http.ResponseWriter, r *http.Request) {
	pr, _, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	if err := p.cfg.Service.RemoveInstitutionAdmin(r.Context(), pr, id); err != nil {
		p.refuse(w, r, err)
		return
	}
	back(w, r, adminsHref(adminsOrganization(r, pr)), "adminRemoved")
}

func adminsHref(org string) string {
	if org == "" {
		return "/console/admins"
	}
	return "/console/admins?org=" + url.QueryEscape(org)
}

// addressBesideName is the e-mail address to show beside a person's name:
// none when the person has no name, because the address stands in for it.
func addressBesideName(name, email string) string {
	if name == "" || name == email {
		return ""
	}
	return email
}

// Address is the member's e-mail address to show under their name: none
// when the name shown is already the address (a person without a name).
func (m memberRow) Address() string {
	if m.Name == m.Email {
		return ""
	}
	return m.Email
}
