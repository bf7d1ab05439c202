package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// auditPage is the audit log with its filters: person or role (q), one
// role (role), action, period (from, to), all in the query string.
type auditPage struct {
	consolePage
	List     listState
	Headers  []sortHeader
	Entries  []auditRow
	Pager    pager
	Role     string
	Actions  []choice
	From, To string
	Error    string
}

type auditRow struct {
	When, Action, Person, Role, Authority, By, Detail string
}

var auditActions = domain.AuditActions // every kind of change, each a filter entry

func (p *Pages) consoleAudit(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	st := listStateOf(r, service.AuditSorts)
	st.Private = true
	st.TableID, st.SearchLabel = "audit", i18n.T(lang, "console.audit.search")
	q := r.Form
	if q.Get("sort") == "" && q.Get("order") == "" {
		st.Sort, st.Desc = "createdAt", true
	}
	page := auditPage{consolePage: p.consoleBase(r, pr, lang, "console.audit.title", "audit"), Role: q.Get("role"), From: q.Get("from"), To: q.Get("to")}
	st.extra = url.Values{"role": {page.Role}, "action": {q.Get("action")}, "from": {page.From}, "to": {page.To}}
	var roleID int64
	if page.Role != "" {
		id, err := strconv.ParseInt(page.Role, 10, 64)
		if err != nil || id <= 0 {
			p.notFound(w, r)
			return
		}
		roleID = id
	}
	var f domain.AuditFilter
	for _, a := range auditActions {
		if q.Get("action") == string(a) {
			f.Actions = []domain.AuditAction{a}
		}
		page.Actions = append(page.Actions, choice{Value: string(a), Label: i18n.T(lang, "console.audit.action."+string(a)), Selected: q.Get("action") == string(a)})
	}
	if page.From != "" {
		if d, err := time.Parse(time.DateOnly, page.From); err == nil {
			f.From = d
		} else {
			page.Error = i18n.T(lang, "console.audit.err.date")
		}
	}
	if page.To != "" {
		if d, err := parseDay(page.To); err == nil {
			f.To = d
		} else {
			page.Error = i18n.T(lang, "console.audit.err.date")
		}
	}
	f.RoleID = roleID
	res, err := p.cfg.Service.SearchAuditFiltered(r.Context(), pr, f, st.request())
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page.List, page.Pager = st, st.pager(lang, res.Total)
	page.Headers = []sortHeader{st.header(lang, "console.audit.when", "createdAt"), st.header(lang, "console.audit.actionCol", "action"),
		st.header(lang, "console.audit.person", "userEmail"), st.header(lang, "console.audit.role", "roleName")}
	for _, e := range res.Items {
		row := auditRow{When: i18n.Date(lang, e.CreatedAt) + " " + e.CreatedAt.UTC().Format("15:04") + " UTC",
			Action: i18n.T(lang, "console.audit.action."+string(e.Action)), Person: e.UserEmail, Role: e.RoleName, By: auditBy(lang, e.CreatedBy)}
		if e.Authority != "" {
			row.Authority = i18n.T(lang, "console.authority."+string(e.Authority))
		}
		switch {
		case e.SP != "":
			row.Detail = p.cfg.Service.SPName(e.SP)
		case e.Subject != "":
			row.Detail = auditSubject(lang, e)
		}
		if strings.HasPrefix(row.Action, "console.") {
			row.Action = string(e.Action)
		}
		page.Entries = append(page.Entries, row)
	}
	p.render(w, r, http.StatusOK, "console/audit", page)
}

// auditBy is who made an audit entry in words: the outcomes at the
// applications are the service's own ("provisioner" in the entry).
func auditBy(lang, createdBy string) string {
	if createdBy == "provisioner" {
		return i18n.T(lang, "console.audit.byService")
	}
	return createdBy
}

// auditSubject says what a change of a role, invitation, registry item or
// organization was about, in the page's language.
func auditSubject(lang string, e domain.AuditEntry) string {
	switch e.Action {
	case domain.AuditRoleRenamed:
		return i18n.T(lang, "console.audit.formerly", e.Subject)
	case domain.AuditInvitationCreated, domain.AuditInvitationResent, domain.AuditInvitationDeleted:
		return i18n.T(lang, "console.audit.invitation", e.Subject)
	}
	return e.Subject
}
