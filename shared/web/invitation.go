package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// invitationPage is an open invitation: what it gives, who sent it, and
// the one thing to do next (sign in, or accept).
type invitationPage struct {
	basePage
	Intro          string
	Roles          []roleView
	MessageHeading string
	Message        string
	Expires        string
	RoleEnd        string
	// Organization names the organization of an invitation without roles
	// (an institution admin's); empty otherwise.
	Organization string
	// Hash is posted back by the Accept form; empty until the person may
	// accept (signed in, nothing in the way).
	Hash string
}

type roleView struct {
	Name         string
	Description  string
	Applications []appView
}

type appView struct {
	Name string
	// Logo is the registry's logo address ("" when it has none: the name
	// stands alone); Organization is who offers the application.
	Logo         string
	Organization string
	LandingPage  string
	OpenLabel    string
	Status       string // provisioned, pending, failed (for tests and styling)
	StatusText   string
}

// invitationOfLink is the invitation behind a link's secret; where there
// is none it has answered with the page for an unknown link (and a server
// error for any other failure) and says so with ok false.
func (p *Pages) invitationOfLink(w http.ResponseWriter, r *http.Request, hash string) (link service.InvitationLink, ok bool) {
	link, err := p.cfg.Service.InvitationByLink(r.Context(), hash)
	if domain.IsNotFound(err) {
		p.problem(w, r, http.StatusNotFound, "", stateUnknown, "/")
		return link, false
	}
	if err != nil {
		p.serverError(w, r, err)
		return link, false
	}
	return link, true
}

// invitation is the page behind the link in the e-mail.
func (p *Pages) invitation(w http.ResponseWriter, r *http.Request) {
	hash := r.URL.Query().Get("hash")
	link, ok := p.invitationOfLink(w, r, hash)
	if !ok {
		return
	}
	p.showInvitation(w, r, hash, link)
}

// showInvitation renders the invitation in the state it is in for this
// visitor.
func (p *Pages) showInvitation(w http.ResponseWriter, r *http.Request, hash string, link service.InvitationLink) {
	v := visitOf(r)
	lang := v.language(string(link.Invitation.Language))
	switch link.State {
	case service.LinkExpired:
		page := statePage{basePage: p.base(r, lang, "state.expired.title"), State: stateExpired,
			Body:    i18n.T(lang, "state.expired.body"),
			Actions: []action{{Label: i18n.T(lang, "state.home"), Href: "/"}}}
		if inviter := p.inviter(r.Context(), link, lang); inviter != "" {
			page.Body = i18n.T(lang, "state.expired.bodyBy", inviter)
		}
		p.render(w, r, http.StatusGone, "state", page)
		return
	case service.LinkAccepted:
		p.problem(w, r, http.StatusConflict, lang, stateAccepted, "/")
		return
	}
	page := invitationPage{basePage: p.base(r, lang, "inv.title"), Roles: rolesView(lang, rolesNamedByOrganization(p.cfg.Service.OrganizationChoices(r.Context()), link.Roles))}
	page.SignInURL = signInURL(r.URL.RequestURI(), link.RequiredACR)
	inv := link.Invitation
	authority := i18n.Authority(lang, string(inv.IntendedAuthority))
	page.Intro = i18n.T(lang, "inv.invited", authority)
	page.MessageHeading = i18n.T(lang, "inv.messageAnon")
	if inviter := p.inviter(r.Context(), link, lang); inviter != "" {
		page.Intro = i18n.T(lang, "inv.invitedBy", inviter, authority)
		page.MessageHeading = i18n.T(lang, "inv.message", inviter)
	}
	if len(link.Roles) == 0 && inv.OrganizationGUID != "" {
		page.Organization = p.cfg.Service.OrganizationName(r.Context(), inv.OrganizationGUID, lang)
	}
	page.Message = inv.Message
	page.Expires = i18n.T(lang, "inv.expires", i18n.Date(lang, inv.ExpiryDate))
	if len(link.Roles) > 0 {
		page.RoleEnd = roleEnd(lang, inv, link.Roles) // an institution admin's right has no end date to speak of
	}
	if v.principal == nil || v.principal.Person == nil {
		p.render(w, r, http.StatusOK, "invitation", page)
		return
	}
	person := *v.principal.Person
	switch p.cfg.Service.AcceptanceBlock(link, person) {
	case service.BlockEmailMismatch:
		switchAccount := signInURL(r.URL.RequestURI(), link.RequiredACR) + "&switch=1"
		p.render(w, r, http.StatusForbidden, "state", statePage{basePage: p.base(r, lang, "state.mismatch.title"), State: stateMismatch,
			Body:    i18n.T(lang, "state.mismatch.body", maskEmail(inv.Email), firstNonEmpty(person.Email, person.EduPersonPrincipalName)),
			Actions: []action{{Label: i18n.T(lang, "state.switch"), Href: switchAccount, Primary: true}}})
	case service.BlockFederatedOnly:
		switchAccount := signInURL(r.URL.RequestURI(), link.RequiredACR) + "&switch=1"
		p.render(w, r, http.StatusForbidden, "state", statePage{basePage: p.base(r, lang, "state.fedonly.title"), State: stateFederated,
			Body:    i18n.T(lang, "state.fedonly.body"),
			Actions: []action{{Label: i18n.T(lang, "state.switch"), Href: switchAccount, Primary: true}}})
	case service.BlockStepUp:
		p.render(w, r, http.StatusForbidden, "state", statePage{basePage: p.base(r, lang, "state.stepup.title"), State: stateStepUp,
			Body:    i18n.T(lang, "state.stepup.body"),
			Actions: []action{{Label: i18n.T(lang, "state.stepup.action"), Href: signInURL(r.URL.RequestURI(), link.RequiredACR), Primary: true}}})
	default:
		page.Hash = hash
		p.render(w, r, http.StatusOK, "invitation", page)
	}
}

// inviter names who invites: a person or a program, else the
// organization the invitation comes from.
func (p *Pages) inviter(ctx context.Context, link service.InvitationLink, lang string) string {
	return firstNonEmpty(link.Inviter, p.cfg.Service.InvitingOrganization(ctx, link.Invitation, link.Roles, lang))
}

// accept is the Accept button: the service creates the memberships with
// the signed-in person's principal, then the person sees what they now
// have. Whatever stands in the way shows as the invitation's page would.
func (p *Pages) accept(w http.ResponseWriter, r *http.Request) {
	hash := r.PostFormValue("hash")
	pageURL := "/invitation/accept?" + url.Values{"hash": {hash}}.Encode()
	v := visitOf(r)
	if v.principal == nil || v.principal.Person == nil {
		http.Redirect(w, r, pageURL, http.StatusSeeOther)
		return
	}
	link, ok := p.invitationOfLink(w, r, hash)
	if !ok {
		return
	}
	if link.State != service.LinkOpen || p.cfg.Service.AcceptanceBlock(link, *v.principal.Person) != service.BlockNone {
		http.Redirect(w, r, pageURL, http.StatusSeeOther) // the page explains what stands in the way
		return
	}
	result, err := p.cfg.Service.Accept(r.Context(), v.principal, hash, link.Invitation.ID)
	switch domain.KindOf(err) {
	case 0:
		if err != nil {
			p.serverError(w, r, err)
			return
		}
	case domain.KindNotFound:
		p.problem(w, r, http.StatusNotFound, "", stateUnknown, "/")
		return
	case domain.KindConflict, domain.KindGone, domain.KindForbidden:
		// Changed since the read above (accepted in another tab, expired):
		// the page shows the invitation as it is now.
		http.Redirect(w, r, pageURL, http.StatusSeeOther)
		return
	default:
		p.serverError(w, r, err)
		return
	}
	lang := v.language(string(link.Invitation.Language))
	if len(result.UserRoles) == 0 && link.Invitation.IntendedAuthority == domain.InstitutionAdmin {
		// An institution admin now: the welcome page names the organization
		// and leads to the console.
		http.Redirect(w, r, "/my/welcome?"+url.Values{"admin": {link.Invitation.OrganizationGUID}, "lang": {lang}}.Encode(), http.StatusSeeOther)
		return
	}
	ids := make([]string, 0, len(result.UserRoles))
	for _, ur := range result.UserRoles {
		ids = append(ids, strconv.FormatInt(ur.RoleID, 10))
	}
	http.Redirect(w, r, "/my/welcome?"+url.Values{"roles": {strings.Join(ids, ",")}, "lang": {lang}}.Encode(), http.StatusSeeOther)
}

func rolesView(lang string, roles []domain.Role) []roleView {
	out := make([]roleView, 0, len(roles))
	for _, role := range roles {
		rv := roleView{Name: role.Name, Description: role.Description}
		for _, u := range role.ApplicationUsages {
			rv.Applications = append(rv.Applications, applicationView(lang, u.Application, u.LandingPage))
		}
		out = append(out, rv)
	}
	return out
}

// applicationView is an application as a page names it: its name and its
// organization's in the page's language (English when there is no Dutch),
// and its logo when the registry has a web address for one.
func applicationView(lang string, a domain.Application, landingPage string) appView {
	name := firstNonEmpty(a.Name, a.ManageID)
	org := a.OrganizationName
	if lang == "nl" {
		name = firstNonEmpty(a.NameNL, name)
		org = firstNonEmpty(a.OrganizationNameNL, org)
	}
	v := appView{Name: name, Organization: org, LandingPage: landingPage, OpenLabel: i18n.T(lang, "app.open", name)}
	if u, err := url.Parse(a.LogoURL); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
		v.Logo = a.LogoURL
	}
	return v
}

// roleEnd says when the access ends: the invitation's end date, else the
// roles' fixed date or length, else that it does not end.
func roleEnd(lang string, inv domain.Invitation, roles []domain.Role) string {
	if inv.RoleExpiryDate != nil {
		return i18n.T(lang, "inv.roleEnds", i18n.Date(lang, *inv.RoleExpiryDate))
	}
	for _, r := range roles {
		switch {
		case r.DefaultExpiryDate != nil:
			return i18n.T(lang, "inv.roleEnds", i18n.Date(lang, *r.DefaultExpiryDate))
		case r.DefaultExpiryDays > 0:
			return i18n.T(lang, "inv.roleDays", r.DefaultExpiryDays)
		}
	}
	return i18n.T(lang, "inv.noEnd")
}

// maskEmail shows enough of the invited address to recognise it, not
// enough to learn it: "a•••e@example.org".
func maskEmail(email string) string {
	local, domainPart, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		return "•••"
	}
	r := []rune(local)
	if len(r) <= 2 {
		return string(r[0]) + "•••@" + domainPart
	}
	return string(r[0]) + "•••" + string(r[len(r)-1]) + "@" + domainPart
}
