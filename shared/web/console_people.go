package web

import (
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// peoplePage is the user search, within the person's reach.
type peoplePage struct {
	consolePage
	List    listState
	Headers []sortHeader
	People  []personRow
	Pager   pager
}

type personRow struct {
	Href, Name, Email, Organization string
}

var peopleSorts = []string{"name", "email", "schac_home_organization"}

func (p *Pages) consolePeople(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MaySearchUsers)
	if !ok {
		return
	}
	st := listStateOf(r, peopleSorts)
	st.Private = true
	st.TableID, st.SearchLabel = "people", i18n.T(lang, "console.people.search")
	res, err := p.cfg.Service.SearchPeople(r.Context(), pr, st.request())
	bound, broad := domain.IsSearchTooBroad(err)
	if err != nil && !broad {
		p.refuse(w, r, err)
		return
	}
	if broad {
		// The query kept, and next to it what to do instead of a list that
		// would not be the true one.
		st.SearchError = i18n.T(lang, "console.people.tooBroad", bound)
	}
	page := peoplePage{consolePage: p.consoleBase(r, pr, lang, "console.people.title", "people"), List: st, Pager: st.pager(lang, res.Total),
		Headers: []sortHeader{st.header(lang, "console.people.name", "name"), st.header(lang, "console.people.email", "email"),
			st.header(lang, "console.people.organization", "schac_home_organization")}}
	for _, u := range res.Items {
		row := personRow{Href: "/console/people/" + strconv.FormatInt(u.ID, 10), Name: personName(u),
			Email: u.Email, Organization: u.SchacHomeOrganization}
		page.People = append(page.People, row)
	}
	p.render(w, r, http.StatusOK, "console/people", page)
}

// personPage is one person: their memberships and where they stand at
// each application.
type personPage struct {
	consolePage
	Name, Email, Organization string
	Placeholder               string
	Memberships               []personMembership
	Statuses                  []statusView
	Audit                     []auditRow
	invitationList
}

type personMembership struct {
	RoleHref, Role, Authority, Ends string
}

func (p *Pages) consolePerson(w http.ResponseWriter, r *http.Request) {
	pr, lang, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	u, err := p.cfg.Service.OtherUser(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	sts, err := p.cfg.Service.UserProvisioning(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	name := personName(u.User)
	page := personPage{consolePage: p.consoleBase(r, pr, lang, "console.person.title", "people", name), Name: name, Email: u.User.Email,
		Organization: u.User.SchacHomeOrganization, Placeholder: u.User.InternalPlaceholderIdentifier}
	now := p.now()
	for _, ur := range u.UserRoles {
		role := u.Roles[ur.RoleID]
		page.Memberships = append(page.Memberships, personMembership{RoleHref: "/console/roles/" + strconv.FormatInt(ur.RoleID, 10),
			Role: role.Name, Authority: i18n.T(lang, "console.authority."+string(ur.Authority)), Ends: endsText(lang, ur.EndDate, now)})
	}
	for _, st := range sts {
		page.Statuses = append(page.Statuses, p.statusView(lang, pr, st))
	}
	invs, err := p.cfg.Service.PersonInvitations(r.Context(), pr, u)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page.invitationList = p.invitations(lang, pr, invs, now, hiddenField{"person", strconv.FormatInt(id, 10)}, true)
	roleIDs := make([]int64, 0, len(u.UserRoles))
	for _, ur := range u.UserRoles {
		roleIDs = append(roleIDs, ur.RoleID)
	}
	entries, err := p.cfg.Service.PersonAudit(r.Context(), pr, id, roleIDs, 50)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	for _, e := range entries {
		row := auditRow{When: i18n.Date(lang, e.CreatedAt) + " " + e.CreatedAt.UTC().Format("15:04") + " UTC",
			Action: i18n.T(lang, "console.audit.action."+string(e.Action)), Role: e.RoleName, By: auditBy(lang, e.CreatedBy)}
		if e.SP != "" {
			row.Detail = p.cfg.Service.SPName(e.SP)
		}
		page.Audit = append(page.Audit, row)
	}
	p.render(w, r, http.StatusOK, "console/person", page)
}

// personName is how every console page names a person: their name (else
// given and family name), else their e-mail address; the same on the
// people list, a role's members and the administrators.
func personName(u domain.User) string { return firstNonEmpty(u.DisplayName(), u.Email) }
