package web

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// homePage is "my access" for a signed-in person, and what the service is
// for anybody else.
type homePage struct {
	basePage
	Access []accessView
}

// welcomePage is "you now have access to …" right after an acceptance.
type welcomePage struct {
	basePage
	Access  []accessView
	Pending bool
	// Admin names the organization the person just became institution
	// admin of; empty after accepting roles.
	Admin string
}

type accessView struct {
	Role      string
	Authority string
	Ends      string
	Apps      []appView
}

func (p *Pages) home(w http.ResponseWriter, r *http.Request) {
	v := visitOf(r)
	lang := v.language("")
	if v.principal == nil {
		p.render(w, r, http.StatusOK, "home", homePage{basePage: p.base(r, lang, "home.anon.title")})
		return
	}
	access, err := p.cfg.Service.MyAccess(r.Context(), v.principal)
	if err != nil {
		p.serverError(w, r, err)
		return
	}
	views, _ := p.accessViews(r.Context(), lang, access, nil)
	p.render(w, r, http.StatusOK, "home", homePage{basePage: p.base(r, lang, "home.title"), Access: views})
}

// welcome shows the memberships of the roles just accepted (roles=1,2) and
// their provisioning state; refresh.js updates it until all are ready.
func (p *Pages) welcome(w http.ResponseWriter, r *http.Request) {
	principal, ok := p.signedIn(w, r)
	if !ok {
		return
	}
	wanted := map[int64]bool{}
	for _, s := range strings.Split(r.URL.Query().Get("roles"), ",") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			wanted[id] = true
		}
	}
	access, err := p.cfg.Service.MyAccess(r.Context(), principal)
	if err != nil {
		p.serverError(w, r, err)
		return
	}
	lang := visitOf(r).language("")
	views, pending := p.accessViews(r.Context(), lang, access, wanted)
	page := welcomePage{basePage: p.base(r, lang, "welcome.title"), Access: views, Pending: pending}
	if org := r.URL.Query().Get("admin"); org != "" && principal.User != nil && principal.User.InstitutionAdmin && principal.User.OrganizationGUID == org {
		page.Admin = p.cfg.Service.OrganizationName(r.Context(), org, lang)
		page.Access, page.Pending, pending = nil, false, false
	}
	page.Refresh = pending
	p.render(w, r, http.StatusOK, "welcome", page)
}

// accessViews words the memberships (those of wanted roles when wanted is
// not nil) and reports whether any application is still being set up.
func (p *Pages) accessViews(ctx context.Context, lang string, access []service.Access, wanted map[int64]bool) ([]accessView, bool) {
	now := p.now()
	orgs := p.cfg.Service.OrganizationChoices(ctx)
	var out []accessView
	pending := false
	for _, a := range access {
		if wanted != nil && !wanted[a.Role.ID] {
			continue
		}
		av := accessView{Role: a.Role.Name, Authority: i18n.Authority(lang, string(a.UserRole.Authority)), Ends: endsText(lang, a.UserRole.EndDate, now)}
		for _, app := range a.Applications {
			reg := namedByOrganization(orgs, app.Application)
			reg.Name = firstNonEmpty(app.Name, reg.Name)
			view := applicationView(lang, reg, app.LandingPage)
			view.Status = string(app.Status)
			switch app.Status {
			case domain.StatusFailed:
				view.StatusText = i18n.T(lang, "status.failed", failureReason(lang, app.LastError))
			case domain.StatusPending:
				view.StatusText = i18n.T(lang, "status.pending")
				pending = true
			case domain.StatusDeprovisioned:
				view.StatusText = i18n.T(lang, "status.deprovisioned")
			default:
				view.StatusText = i18n.T(lang, "status.provisioned")
			}
			view.Status = strings.ToLower(view.Status)
			av.Apps = append(av.Apps, view)
		}
		out = append(out, av)
	}
	return out, pending
}

func endsText(lang string, end *time.Time, now time.Time) string {
	if end == nil {
		return i18n.T(lang, "home.noEnd")
	}
	days := int(math.Ceil(end.Sub(now).Hours() / 24))
	if days <= 0 {
		return i18n.T(lang, "home.endsToday")
	}
	return i18n.T(lang, "home.ends", i18n.Date(lang, *end), days)
}
