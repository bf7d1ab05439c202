package web

import (
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// rolesPage is the role list.
type rolesPage struct {
	consolePage
	List      listState
	Headers   []sortHeader
	Roles     []roleRow
	Pager     pager
	MayCreate bool
}

type roleRow struct {
	ID           int64
	Name         string
	Href         string
	Applications string
	Members      int64
}

var roleSorts = []string{"name", "description", "createdAt"}

func (p *Pages) consoleRoles(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.consoleAllowed(w, r, service.MayListRoles)
	if !ok {
		return
	}
	st := listStateOf(r, roleSorts)
	res, _, err := p.cfg.Service.ListRoles(r.Context(), pr, st.request(), false)
	bound, broad := domain.IsSearchTooBroad(err)
	if err != nil && !broad {
		p.refuse(w, r, err)
		return
	}
	if broad {
		st.SearchError = i18n.T(lang, "console.roles.tooBroad", bound)
	}
	page := rolesPage{consolePage: p.consoleBase(r, pr, lang, "console.roles.title", "roles"), List: st,
		Headers: []sortHeader{st.header(lang, "console.roles.name", "name"), st.header(lang, "console.roles.description", "description"),
			st.header(lang, "console.roles.created", "createdAt")},
		Pager: st.pager(lang, res.Total), MayCreate: service.MayCreateRoles(pr)}
	for _, role := range res.Items {
		page.Roles = append(page.Roles, roleRow{ID: role.ID, Name: role.Name, Href: "/console/roles/" + strconv.FormatInt(role.ID, 10),
			Applications: applicationNames(role), Members: role.UserRoleCount})
	}
	p.render(w, r, http.StatusOK, "console/roles", page)
}

func applicationNames(role domain.Role) string {
	var names []string
	for _, u := range role.ApplicationUsages {
		names = append(names, firstNonEmpty(u.Application.Name, u.Application.ManageID))
	}
	sort.Strings(names)
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// rolePage is one role: its settings, members with their state at each
// application, and its invitations; the actions the person may take.
type rolePage struct {
	consolePage
	Role      domain.Role
	RoleID    string
	Apps      []string
	Details   []detail
	Rights    service.RoleRights
	MayInvite bool
	Members   []memberRow
	// Group is the role's own group at each SP of its applications.
	Group []statusView
	// MemberCount is every member of the role; Members is a page of them,
	// by name, continued from MembersAfter (MembersFirst is the first page).
	MemberCount  int64
	MembersAfter string // the next page's position, posted as "after"
	MembersFirst string
	invitationList
	Today string
}

type detail struct{ Label, Value string }

type memberRow struct {
	UserRoleID  int64
	UserID      int64
	Name, Email string
	Authority   string
	Ends        string
	EndValue    string // yyyy-mm-dd for the date field
	Statuses    []statusView
	MayExtend   bool
	MayRemove   bool
	PersonHref  string
}

type statusView struct {
	SP, Status, Text string
	// Reason and Todo say, for a failure, what happened and what to do;
	// DeadLetters and Technical are for super users.
	Reason, Todo, DeadLetters, DeadLettersLabel, Technical string
}

func (p *Pages) consoleRole(w http.ResponseWriter, r *http.Request) {
	pr, lang, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	// The position of the next members is posted (it holds a member's
	// name): never in an address.
	after := r.PostFormValue("after")
	view, err := p.cfg.Service.RolePage(r.Context(), pr, id, after)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	role, members, statuses, invs := view.Role, view.Members, view.Statuses, view.Invitations
	now := p.now()
	page := rolePage{consolePage: p.consoleBase(r, pr, lang, "console.role.title", "roles", role.Name), Role: role,
		RoleID: strconv.FormatInt(role.ID, 10), Rights: service.RightsOn(pr, role), Today: now.UTC().Format(time.DateOnly)}
	page.MayInvite = len(page.Rights.Grantable) > 0
	for _, u := range role.ApplicationUsages {
		page.Apps = append(page.Apps, firstNonEmpty(u.Application.Name, u.Application.ManageID))
	}
	page.Details = roleDetails(lang, role, p.cfg.Service.OrganizationName(r.Context(), role.OrganizationGUID, lang))
	for _, st := range view.Group {
		page.Group = append(page.Group, p.statusView(lang, pr, st))
	}
	page.MemberCount = view.MemberCount
	page.MembersAfter = view.Next
	if after != "" {
		page.MembersFirst = "/console/roles/" + page.RoleID
	}
	for _, m := range members {
		row := memberRow{UserRoleID: m.UserRole.ID, UserID: m.User.ID, Name: personName(m.User), Email: m.User.Email,
			Authority: i18n.T(lang, "console.authority."+string(m.UserRole.Authority)), Ends: endsText(lang, m.UserRole.EndDate, now),
			MayExtend: service.MayChangeEndDate(pr, role, m.UserRole), MayRemove: service.MayRemove(pr, role, m.UserRole)}
		if m.UserRole.EndDate != nil {
			row.EndValue = m.UserRole.EndDate.UTC().Format(time.DateOnly)
		}
		if service.MaySearchUsers(pr) || pr.CanSeeUser(m.User, []domain.Role{role}) {
			row.PersonHref = "/console/people/" + strconv.FormatInt(m.User.ID, 10)
		}
		for _, st := range statuses[m.User.ID] {
			row.Statuses = append(row.Statuses, p.statusView(lang, pr, st))
		}
		page.Members = append(page.Members, row)
	}
	page.invitationList = p.invitations(lang, pr, invs, now, hiddenField{"role", page.RoleID}, false)
	p.render(w, r, http.StatusOK, "console/role", page)
}

// statusView words where a person or group stands at an SP. A failure
// says, in plain words, what the application answered and what to do;
// super users also get the technical reason and the way to the dead
// letters of that SP.
func (p *Pages) statusView(lang string, pr *auth.Principal, st service.ProvisioningStatus) statusView {
	v := statusView{SP: p.cfg.Service.SPName(st.SP), Status: string(st.Status)}
	switch st.Status {
	case domain.StatusFailed:
		v.Text = i18n.T(lang, "console.status.failedShort")
		v.Reason = failureReason(lang, st.LastError)
		if st.GroupFailed {
			v.Reason = i18n.T(lang, "console.status.groupFailed", v.Reason)
		}
		if pr != nil && pr.SuperUser {
			v.Todo = i18n.T(lang, "console.status.todoSuper")
			v.DeadLetters = "/console/operations#sp-" + st.SP
			v.DeadLettersLabel = i18n.T(lang, "console.status.deadLetters")
			v.Technical = st.LastError
		} else {
			v.Todo = i18n.T(lang, "console.status.todo")
		}
	case domain.StatusPending:
		v.Text = i18n.T(lang, "status.pending")
	case domain.StatusDeprovisioned:
		v.Text = i18n.T(lang, "status.deprovisioned")
	default:
		v.Text = i18n.T(lang, "status.provisioned")
	}
	return v
}

// failureReason is an SP's refusal in plain words, by the kind of answer
// (the HTTP status the delivery recorded).
func failureReason(lang, lastError string) string {
	code := 0
	if m := httpStatusOf.FindStringSubmatch(lastError); m != nil {
		code, _ = strconv.Atoi(m[1])
	}
	switch {
	case code == 401 || code == 403:
		return i18n.T(lang, "failure.credentials")
	case code == 404:
		return i18n.T(lang, "failure.notFound")
	case code == 429 || code >= 500:
		return i18n.T(lang, "failure.unavailable")
	case code >= 400:
		return i18n.T(lang, "failure.refused")
	}
	return i18n.T(lang, "failure.unreachable")
}

// httpStatusOf finds the SP's HTTP status in a recorded reason, also one
// passed on from the delivery it waited for ("member.add at sp: ... its
// creation failed: group.create at sp: scim POST /Groups: 401 Unauthorized").
var httpStatusOf = regexp.MustCompile(`(?:^|: )([1-5][0-9][0-9])(?: |$)`)

// roleDetails are a role's settings in words; organization is the name of
// its organization (its GUID when the registry does not name it).
func roleDetails(lang string, role domain.Role, organization string) []detail {
	yes := func(b bool) string {
		if b {
			return i18n.T(lang, "console.yes")
		}
		return i18n.T(lang, "console.no")
	}
	expiry := i18n.T(lang, "inv.noEnd")
	switch {
	case role.DefaultExpiryDate != nil:
		expiry = i18n.Date(lang, *role.DefaultExpiryDate)
	case role.DefaultExpiryDays > 0:
		expiry = i18n.T(lang, "console.role.days", role.DefaultExpiryDays)
	}
	d := []detail{
		{i18n.T(lang, "console.role.defaultExpiry"), expiry},
		{i18n.T(lang, "console.role.emailEquality"), yes(role.EnforceEmailEquality)},
		{i18n.T(lang, "console.role.fedIDOnly"), yes(role.FedIDOnly)},
	}
	if role.RequestedAuthnContext != "" {
		d = append(d, detail{i18n.T(lang, "console.role.acr"), role.RequestedAuthnContext})
	}
	if role.InviterDisplayName != "" {
		d = append(d, detail{i18n.T(lang, "console.role.inviterName"), role.InviterDisplayName})
	}
	if role.OrganizationGUID != "" {
		d = append(d, detail{i18n.T(lang, "console.role.organization"), organization})
	}
	return d
}
