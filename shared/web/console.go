package web

import (
	"context"
	"embed"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// The console: the pages of inviters, managers, institution admins and
// super users under /console. Every page and form action calls
// shared/service with the signed-in person's principal; what a page offers
// comes from the service's rights queries (service.RightsOn and friends),
// and the use case refuses anything else anyway.

//go:embed templates/console/*.html
var consoleTemplateFiles embed.FS

// consolePageNames are the templates under templates/console/.
var consolePageNames = []string{"roles", "role", "roleform", "roledelete", "invite", "invited", "people", "person", "operations", "home", "audit", "tokens", "applications", "connection", "registryform", "registrydelete", "admins",
	"organizations", "organization", "reconcile"}

// addConsoleTemplates parses the console pages onto the layout, each as
// "console/<name>", once at start-up.
func addConsoleTemplates(layout *template.Template, t templates) error {
	for _, name := range consolePageNames {
		clone, err := layout.Clone()
		if err != nil {
			return err
		}
		if _, err := clone.ParseFS(consoleTemplateFiles, "templates/console/_parts.html"); err != nil {
			return err
		}
		if t["console/"+name], err = clone.ParseFS(consoleTemplateFiles, "templates/console/"+name+".html"); err != nil {
			return err
		}
	}
	return nil
}

// consoleRoutes are the console's pages and form actions, one line each.
func (p *Pages) consoleRoutes() []route {
	return []route{
		{"GET /console", http.HandlerFunc(p.consoleHome)},                                         // what this person can do here
		{"GET /console/roles", http.HandlerFunc(p.consoleRoles)},                                  // roles: search, sort, pages
		{"GET /console/roles/new", http.HandlerFunc(p.consoleRoleNew)},                            // create a role
		{"POST /console/roles/new", http.HandlerFunc(p.consoleRoleCreate)},                        //
		{"GET /console/roles/{id}", http.HandlerFunc(p.consoleRole)},                              // a role: members, provisioning, invitations
		{"POST /console/roles/{id}", http.HandlerFunc(p.consoleRole)},                             // its next members: the position (a name) stays out of the address
		{"GET /console/roles/{id}/edit", http.HandlerFunc(p.consoleRoleEdit)},                     // change a role
		{"POST /console/roles/{id}/edit", http.HandlerFunc(p.consoleRoleUpdate)},                  //
		{"GET /console/roles/{id}/delete", http.HandlerFunc(p.consoleRoleDeletePreview)},          // what deleting would do
		{"POST /console/roles/{id}/delete", http.HandlerFunc(p.consoleRoleDelete)},                //
		{"GET /console/invite", http.HandlerFunc(p.consoleInviteForm)},                            // invite to one or more roles
		{"POST /console/invite", http.HandlerFunc(p.consoleInvite)},                               // the result: every recipient's link
		{"POST /console/memberships/{id}/end-date", http.HandlerFunc(p.consoleMembershipEndDate)}, // extend or set an end date
		{"POST /console/memberships/{id}/remove", http.HandlerFunc(p.consoleMembershipRemove)},    // remove a member
		{"POST /console/invitations/{id}/resend", http.HandlerFunc(p.consoleInvitationResend)},    // new link, e-mailed again
		{"POST /console/invitations/{id}/delete", http.HandlerFunc(p.consoleInvitationDelete)},    // withdraw
		{"GET /console/people", http.HandlerFunc(p.consolePeople)},
		{"POST /console/people", http.HandlerFunc(p.consolePeople)},                  // a search: the words stay out of the address                                // user search within reach
		{"GET /console/people/{id}", http.HandlerFunc(p.consolePerson)},              // a person: memberships, provisioning
		{"GET /console/admins", http.HandlerFunc(p.consoleAdmins)},                   // an organization's institution admins and application managers
		{"POST /console/admins/invite", http.HandlerFunc(p.consoleAdminInvite)},      // invite an institution admin
		{"POST /console/admins/{id}/remove", http.HandlerFunc(p.consoleAdminRemove)}, // take institution admin rights away
		{"GET /console/operations", http.HandlerFunc(p.consoleOperations)},           // dead letters (super users)
		{"POST /console/operations/replay", http.HandlerFunc(p.consoleReplay)},       // replay dead letters
		{"POST /console/operations/discard", http.HandlerFunc(p.consoleDiscard)},     // discard dead letters

		// A reconcile of one SP started from the operations page (a job),
		// and its state and counts.
		{"POST /console/operations/reconcile", http.HandlerFunc(p.consoleReconcileStart)},
		{"GET /console/operations/reconcile/{id}", http.HandlerFunc(p.consoleReconcileJob)},

		{"GET /console/audit", http.HandlerFunc(p.consoleAudit)},
		{"POST /console/audit", http.HandlerFunc(p.consoleAudit)},                    // filtered: the person's words stay out of the address                                  // audit log: person, role, action, period
		{"GET /console/tokens", http.HandlerFunc(p.consoleTokens)},                   // API tokens
		{"POST /console/tokens", http.HandlerFunc(p.consoleTokenCreate)},             // a new token, its value shown once
		{"POST /console/tokens/{id}/delete", http.HandlerFunc(p.consoleTokenDelete)}, // delete a token
		{"GET /console/applications", http.HandlerFunc(p.consoleApplications)},       // applications and SCIM connections (console_applications.go)
		{"GET /console/connections/{id}", http.HandlerFunc(p.consoleConnection)},
		{"GET /console/applications/new", http.HandlerFunc(p.consoleApplicationForm)},            // create an application (console_applications_forms.go)
		{"POST /console/applications/new", http.HandlerFunc(p.consoleApplicationForm)},           //
		{"GET /console/applications/{id}/edit", http.HandlerFunc(p.consoleApplicationForm)},      // change an application
		{"POST /console/applications/{id}/edit", http.HandlerFunc(p.consoleApplicationForm)},     //
		{"GET /console/applications/{id}/delete", http.HandlerFunc(p.consoleApplicationDelete)},  // confirm, or why not (a role uses it)
		{"POST /console/applications/{id}/delete", http.HandlerFunc(p.consoleApplicationDelete)}, //
		{"GET /console/connections/new", http.HandlerFunc(p.consoleConnectionForm)},              // create a connection; the secret write-only
		{"POST /console/connections/new", http.HandlerFunc(p.consoleConnectionForm)},             //
		{"GET /console/connections/{id}/edit", http.HandlerFunc(p.consoleConnectionForm)},        // change a connection; empty secret keeps it
		{"POST /console/connections/{id}/edit", http.HandlerFunc(p.consoleConnectionForm)},       //
		{"GET /console/connections/{id}/delete", http.HandlerFunc(p.consoleConnectionDelete)},    // confirm, or why not (an application uses it)
		{"POST /console/connections/{id}/delete", http.HandlerFunc(p.consoleConnectionDelete)},   //
		{"POST /console/connections/{id}/test", http.HandlerFunc(p.consoleConnectionTest)},       // runs the SCIM probe, shows its report
		{"GET /console/organizations", http.HandlerFunc(p.consoleOrganizations)},                 // organizations and their names (super users; console_organizations.go)
		{"POST /console/organizations", http.HandlerFunc(p.consoleOrganizationCreate)},           // name a new organization
		{"GET /console/organizations/{guid}/edit", http.HandlerFunc(p.consoleOrganizationEdit)},  // rename an organization
		{"POST /console/organizations/{guid}/edit", http.HandlerFunc(p.consoleOrganizationEdit)}, //
	}
}

// consolePage is the part every console page shares: the base page and
// the console's own navigation, which offers only what the person may use.
type consolePage struct {
	basePage
	Nav     []navLink
	Flash   string
	Section string
}

type navLink struct {
	Label, Href string
	Current     bool
}

// console is the request's signed-in principal and language; anybody else
// is sent to sign in first (ok false: the answer is written).
func (p *Pages) console(w http.ResponseWriter, r *http.Request) (*auth.Principal, string, bool) {
	v := visitOf(r)
	if v.principal == nil || v.principal.Person == nil {
		if r.Method == http.MethodGet {
			http.Redirect(w, r, signInURL(r.URL.RequestURI(), ""), http.StatusSeeOther)
		} else {
			// A form posted after the session ended: nothing was done, and
			// signing in again leads back to the console.
			p.problem(w, r, http.StatusForbidden, "", stateSessionEnded, "/console")
		}
		return nil, "", false
	}
	return v.principal, v.language(""), true
}

// consoleAllowed is console for a page only some may use: a signed-in
// person for whom may is false gets the 403 page (deny by default, the
// service refuses the action anyway).
func (p *Pages) consoleAllowed(w http.ResponseWriter, r *http.Request, may func(*auth.Principal) bool) (*auth.Principal, string, bool) {
	pr, lang, ok := p.console(w, r)
	if ok && !may(pr) {
		p.forbidden(w, r)
		return nil, "", false
	}
	return pr, lang, ok
}

// superUserOnly is the rule of the operations pages.
func superUserOnly(pr *auth.Principal) bool { return pr.SuperUser }

func (p *Pages) consoleBase(r *http.Request, pr *auth.Principal, lang, titleKey, section string, args ...any) consolePage {
	b := p.base(r, lang, titleKey)
	if len(args) > 0 {
		b.Title = i18n.T(lang, titleKey, args...)
	}
	cp := consolePage{basePage: b, Section: section}
	add := func(key, href, sec string) {
		cp.Nav = append(cp.Nav, navLink{Label: i18n.T(lang, key), Href: href, Current: sec == section})
	}
	if service.MayListRoles(pr) {
		add("console.nav.roles", "/console/roles", "roles")
	}
	if service.MaySearchUsers(pr) {
		add("console.nav.people", "/console/people", "people")
	}
	if service.MayAdministerOrganization(pr) {
		add("console.nav.admins", "/console/admins", "admins")
	}
	if pr.SuperUser {
		add("console.nav.operations", "/console/operations", "operations")
		add("console.nav.audit", "/console/audit", "audit")
		add("console.nav.organizations", "/console/organizations", "organizations")
	}
	if service.MayAdministerTokens(pr) {
		add("console.nav.tokens", "/console/tokens", "tokens")
	}
	if pr.SuperUser || (pr.User != nil && pr.User.InstitutionAdmin) {
		add("console.nav.applications", "/console/applications", "applications")
	}
	if f := r.URL.Query().Get("done"); f != "" && flashKeys[f] {
		cp.Flash = i18n.T(lang, "console.done."+f)
	}
	return cp
}

// flashKeys are the "done" messages a redirect after a form may name.
var flashKeys = map[string]bool{"created": true, "updated": true, "deleted": true, "extended": true, "removed": true,
	"resent": true, "withdrawn": true, "badDate": true, "replayed": true, "discarded": true, "tokenDeleted": true, "connectionSaved": true,
	"applicationSaved": true, "applicationDeleted": true, "connectionDeleted": true, "adminRemoved": true,
	"organizationSaved": true}

// refuse answers a use case's error: 403 and 404 as pages, anything else
// as a server error. (Invalid input is shown on its form, never here.)
func (p *Pages) refuse(w http.ResponseWriter, r *http.Request, err error) {
	switch domain.KindOf(err) {
	case domain.KindForbidden, domain.KindUnauthenticated:
		p.problem(w, r, http.StatusForbidden, "", stateForbidden, "/console")
	case domain.KindNotFound:
		p.problem(w, r, http.StatusNotFound, "", stateNotFound, "/console")
	case domain.KindInvalid, domain.KindConflict, domain.KindGone:
		p.problem(w, r, http.StatusConflict, "", stateConflict, "/console")
	default:
		p.serverError(w, r, err)
	}
}

// forbidden is the 403 page for what the person may not do.
func (p *Pages) forbidden(w http.ResponseWriter, r *http.Request) {
	p.problem(w, r, http.StatusForbidden, "", stateForbidden, "/console")
}

// pathID is the numeric {id} of the path; ok false (a 404 written) when it
// is not one.
func (p *Pages) pathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		p.notFound(w, r)
		return 0, false
	}
	return id, true
}

// consoleItem is console for a page or form of one item, named by the
// path's {id}: an id that is not a positive number is the 404 page.
func (p *Pages) consoleItem(w http.ResponseWriter, r *http.Request) (*auth.Principal, string, int64, bool) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return nil, "", 0, false
	}
	id, ok := p.pathID(w, r)
	return pr, lang, id, ok
}

// back redirects after a form to a local console address with a "done"
// message. Only /console addresses are followed: no open redirect.
func back(w http.ResponseWriter, r *http.Request, to, done string) {
	if !strings.HasPrefix(to, "/console") || strings.HasPrefix(to, "//") || strings.ContainsAny(to, "\\\r\n") {
		to = "/console"
	}
	u, err := url.Parse(to)
	if err != nil {
		u = &url.URL{Path: "/console"}
	}
	q := u.Query()
	q.Set("done", done)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// consoleHome lists what the person can do; somebody who can do nothing
// here (a guest) is told so with 403, and where their own access is.
func (p *Pages) consoleHome(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	page := homeConsolePage{consolePage: p.consoleBase(r, pr, lang, "console.home.title", "home")}
	if len(page.Nav) == 0 {
		p.problem(w, r, http.StatusForbidden, lang, stateNoConsole, "/")
		return
	}
	page.MayCreate = service.MayCreateRoles(pr)
	for _, l := range page.Nav {
		page.Sections = append(page.Sections, homeSection{navLink: l,
			About: i18n.T(lang, "console.home.about."+strings.TrimPrefix(l.Href, "/console/"))})
	}
	p.render(w, r, http.StatusOK, "console/home", page)
}

type homeConsolePage struct {
	consolePage
	MayCreate bool
	Sections  []homeSection // the navigation's sections, each with what it is for
}

type homeSection struct {
	navLink
	About string
}

// stateConflict is a console action that no longer fits what is stored
// (the invitation was accepted meanwhile, the role changed).
const stateConflict stateKind = "conflict"

// actOnPathID is a form action on the item of the path's id: the service
// does it as the signed-in person, or its refusal is shown; then back to
// the page it came from (to) with the flash that says what happened.
func (p *Pages) actOnPathID(w http.ResponseWriter, r *http.Request, to, flash string,
	act func(ctx context.Context, pr *auth.Principal, id int64) error) {
	pr, _, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	if err := act(r.Context(), pr, id); err != nil {
		p.refuse(w, r, err)
		return
	}
	back(w, r, to, flash)
}
