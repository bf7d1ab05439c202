package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// The forms that create, change and delete applications and SCIM
// connections. Each calls the same service methods as the registry API
// (service.CreateApplication and friends), which authorize and validate;
// the page only turns the service's problems into a plain-language message
// beside the field they name, and keeps what was typed.

// formField is one labelled input of a registry form, with its message.
type formField struct {
	Name, Label, Type, Value, Hint, Error string
	Required, ReadOnly                    bool
	Options                               []formOption
}

type formOption struct {
	Value, Label string
	Selected     bool
}

// registryFormPage is the application or connection form.
type registryFormPage struct {
	consolePage
	Action, Submit, Cancel string
	FormError              string
	Fields                 []formField
}

// registryDeletePage asks to confirm a deletion, or says why it cannot be
// done (Refusal: something still uses the item).
type registryDeletePage struct {
	consolePage
	Action, Name, Cancel, Refusal string
}

// applicationTypes are the spec's application types, as the select offers them.
var applicationTypes = []string{"SAML20_SP", "OIDC10_RP"}

// connectionMethods and userIdentifiers are the choices the service accepts.
var (
	connectionMethods = []string{"bearer", "basic", "oauth2"}
	userIdentifiers   = []string{"eduPersonPrincipalName", "sub", "email", "fedId"}
)

func options(lang, prefix string, values []string, selected string) []formOption {
	var out []formOption
	for _, v := range values {
		out = append(out, formOption{Value: v, Label: i18n.T(lang, prefix+v), Selected: strings.EqualFold(v, selected)})
	}
	return out
}

// problemFields assigns the service's problems ("; "-joined, each starting
// with the JSON field it is about) to the form's fields, in the person's
// language. It reports false when a problem names no field of the form.
func problemFields(lang string, err error, fields []formField) (string, bool) {
	index := map[string]int{}
	for i, f := range fields {
		index[f.Name] = i
	}
	formError := ""
	for _, problem := range strings.Split(err.Error(), "; ") {
		name := problemField(problem)
		if i, ok := index[name]; ok && !fields[i].ReadOnly {
			if fields[i].Error == "" {
				fields[i].Error = i18n.T(lang, problemMessage(name, problem))
			}
			continue
		}
		formError = i18n.T(lang, "console.reg.err.form")
	}
	return formError, formError == ""
}

// problemField is the form field a service problem names: its first word,
// with the secret fields of every auth method being the one secret field.
func problemField(problem string) string {
	word, _, _ := strings.Cut(problem, " ")
	word = strings.TrimRight(word, ":")
	switch word {
	case "auth.password", "auth.token", "auth.clientSecret", "secret":
		return "secret"
	}
	return strings.TrimPrefix(word, "auth.")
}

// problemMessage is the message key of a problem about the field name:
// the field's usual one, or the one of a refused address or of a credential
// that must be entered again because where it goes changed.
func problemMessage(name, problem string) string {
	switch {
	case strings.Contains(problem, " is not allowed: "):
		return "console.reg.err.addressRefused"
	case strings.HasPrefix(problem, "secret must be sent again"):
		return "console.reg.err.secretAgain"
	}
	return "console.reg.err." + name
}

func (f registryFormPage) value(name string) string {
	for _, x := range f.Fields {
		if x.Name == name {
			return x.Value
		}
	}
	return ""
}

// --- Applications ---

func (p *Pages) applicationFields(ctx context.Context, lang string, pr *auth.Principal, a config.ApplicationDoc, create bool, conns []service.ConnectionView) []formField {
	_, all, _ := pr.RegistryScope()
	fields := []formField{
		{Name: "manageId", Type: "text", Value: a.ManageID, Required: true, ReadOnly: !create, Hint: i18n.T(lang, "console.reg.hint.manageId")},
		{Name: "manageType", Type: "select", Value: a.ManageType, Options: options(lang, "console.reg.type.", applicationTypes, a.ManageType)},
		{Name: "name", Type: "text", Value: a.Name, Required: true},
		{Name: "nameNl", Type: "text", Value: a.NameNL},
		{Name: "organizationName", Type: "text", Value: a.OrganizationName},
		{Name: "organizationNameNl", Type: "text", Value: a.OrganizationNameNL},
		{Name: "logoUrl", Type: "url", Value: a.LogoURL},
		{Name: "landingPage", Type: "url", Value: a.LandingPage, Required: true},
		p.organizationFormField(ctx, lang, all, a.OrganizationGUID),
	}
	links := formField{Name: "provisionings", Type: "checkboxes"}
	for _, c := range conns {
		links.Options = append(links.Options, formOption{Value: c.ID, Label: c.Name + " (" + c.BaseURL + ")", Selected: contains(a.Provisionings, c.ID)})
	}
	if len(links.Options) > 0 {
		fields = append(fields, links)
	}
	for i := range fields {
		fields[i].Label = i18n.T(lang, "console.reg.field."+fields[i].Name)
	}
	return fields
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func applicationOfForm(r *http.Request) config.ApplicationDoc {
	v := func(k string) string { return strings.TrimSpace(r.PostFormValue(k)) }
	_ = r.ParseForm()
	provs := r.PostForm["provisionings"]
	if provs == nil {
		provs = []string{}
	}
	return config.ApplicationDoc{ManageID: v("manageId"), ManageType: v("manageType"), Name: v("name"), NameNL: v("nameNl"),
		OrganizationName: v("organizationName"), OrganizationNameNL: v("organizationNameNl"), LogoURL: v("logoUrl"),
		LandingPage: v("landingPage"), OrganizationGUID: v("organizationGUID"), Provisionings: provs}
}

// consoleApplicationForm is GET and POST /console/applications/new and
// /console/applications/{id}/edit.
func (p *Pages) consoleApplicationForm(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	id, create := r.PathValue("id"), r.PathValue("id") == ""
	conns, err := p.cfg.Service.ListConnections(r.Context(), pr) // refuses all but super users and institution admins
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	a := config.ApplicationDoc{ManageType: applicationTypes[0]}
	if _, all, _ := pr.RegistryScope(); !all {
		a.OrganizationGUID = pr.OrganizationGUID
	}
	if !create {
		if a, err = p.cfg.Service.GetApplication(r.Context(), pr, id); err != nil {
			p.refuse(w, r, err)
			return
		}
	}
	page := registryFormPage{Action: r.URL.EscapedPath(), Cancel: "/console/applications"}
	if create {
		page.consolePage = p.consoleBase(r, pr, lang, "console.reg.newApplication", "applications")
		page.Submit = i18n.T(lang, "console.reg.create")
	} else {
		page.consolePage = p.consoleBase(r, pr, lang, "console.reg.editApplication", "applications", a.Name)
		page.Submit = i18n.T(lang, "console.conn.save")
	}
	if r.Method == http.MethodPost {
		in := applicationOfForm(r)
		if !create {
			in.ManageID = id
		}
		if _, all, _ := pr.RegistryScope(); !all {
			in.OrganizationGUID = a.OrganizationGUID
		}
		if create {
			_, err = p.cfg.Service.CreateApplication(r.Context(), pr, in)
		} else {
			_, err = p.cfg.Service.UpdateApplication(r.Context(), pr, id, in)
		}
		if err == nil {
			back(w, r, "/console/applications", "applicationSaved")
			return
		}
		page.Fields = p.applicationFields(r.Context(), lang, pr, in, create, conns)
		p.formRefusal(w, r, lang, err, &page, "manageId")
		return
	}
	page.Fields = p.applicationFields(r.Context(), lang, pr, a, create, conns)
	p.render(w, r, http.StatusOK, "console/registryform", page)
}

// formRefusal shows the form again with the service's problems beside
// their fields (400), or a taken id beside the id field (409); any other
// refusal is the refusal page.
func (p *Pages) formRefusal(w http.ResponseWriter, r *http.Request, lang string, err error, page *registryFormPage, idField string) {
	switch domain.KindOf(err) {
	case domain.KindInvalid:
		page.FormError, _ = problemFields(lang, err, page.Fields)
		p.render(w, r, http.StatusBadRequest, "console/registryform", page)
	case domain.KindConflict:
		for i := range page.Fields {
			if page.Fields[i].Name == idField {
				page.Fields[i].Error = i18n.T(lang, "console.reg.err.taken")
			}
		}
		p.render(w, r, http.StatusConflict, "console/registryform", page)
	default:
		p.refuse(w, r, err)
	}
}

// consoleApplicationDelete is GET (confirm) and POST (delete)
// /console/applications/{id}/delete; a role still using the application
// makes the service refuse (409), said in words on the same page.
func (p *Pages) consoleApplicationDelete(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	a, err := p.cfg.Service.GetApplication(r.Context(), pr, r.PathValue("id"))
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page := registryDeletePage{consolePage: p.consoleBase(r, pr, lang, "console.reg.deleteApplication", "applications", a.Name),
		Action: r.URL.EscapedPath(), Name: a.Name, Cancel: "/console/applications"}
	if r.Method == http.MethodPost {
		err := p.cfg.Service.DeleteApplication(r.Context(), pr, a.ManageID)
		if err == nil {
			back(w, r, "/console/applications", "applicationDeleted")
			return
		}
		if domain.KindOf(err) != domain.KindConflict {
			p.refuse(w, r, err)
			return
		}
		page.Refusal = i18n.T(lang, "console.reg.inUseApplication")
		p.render(w, r, http.StatusConflict, "console/registrydelete", page)
		return
	}
	p.render(w, r, http.StatusOK, "console/registrydelete", page)
}

// --- SCIM connections ---

func (p *Pages) connectionFields(ctx context.Context, lang string, pr *auth.Principal, c config.ProvisioningDoc, create bool) []formField {
	_, all, _ := pr.RegistryScope()
	num := func(n float64) string {
		if n == 0 {
			return ""
		}
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	fields := []formField{
		{Name: "id", Type: "text", Value: c.ID, Required: true, ReadOnly: !create, Hint: i18n.T(lang, "console.reg.hint.id")},
		{Name: "name", Type: "text", Value: c.Name, Required: true},
		{Name: "baseUrl", Type: "url", Value: c.BaseURL, Required: true},
		{Name: "version", Type: "text", Value: c.Version, Hint: i18n.T(lang, "console.reg.hint.version")},
		{Name: "method", Type: "select", Value: c.Auth.Method, Options: options(lang, "console.reg.method.", connectionMethods, c.Auth.Method)},
		{Name: "username", Type: "text", Value: c.Auth.Username, Hint: i18n.T(lang, "console.reg.hint.username")},
		{Name: "tokenUrl", Type: "url", Value: c.Auth.TokenURL, Hint: i18n.T(lang, "console.reg.hint.oauth2")},
		{Name: "clientId", Type: "text", Value: c.Auth.ClientID, Hint: i18n.T(lang, "console.reg.hint.oauth2")},
		{Name: "scopes", Type: "text", Value: strings.Join(c.Auth.Scopes, " "), Hint: i18n.T(lang, "console.reg.hint.scopes")},
		{Name: "secret", Type: "password", Hint: i18n.T(lang, "console.reg.hint.secret")}, // write-only: never filled in
		{Name: "membership", Type: "select", Value: c.Membership, Options: []formOption{
			{Value: "PATCH", Label: i18n.T(lang, "console.apps.patch"), Selected: !strings.EqualFold(c.Membership, "PUT")},
			{Value: "PUT", Label: i18n.T(lang, "console.apps.put"), Selected: strings.EqualFold(c.Membership, "PUT")}}},
		{Name: "userIdentifier", Type: "select", Value: c.UserIdentifier, Options: options(lang, "console.reg.ident.", userIdentifiers, c.UserIdentifier)},
		{Name: "ratePerSecond", Type: "text", Value: num(c.RatePerSecond), Hint: i18n.T(lang, "console.reg.hint.ratePerSecond")},
		{Name: "timeoutSeconds", Type: "text", Value: num(float64(c.TimeoutSeconds)), Hint: i18n.T(lang, "console.reg.hint.timeoutSeconds")},
		{Name: "maxPatchMembers", Type: "text", Value: num(float64(c.MaxPatchMembers)), Hint: i18n.T(lang, "console.reg.hint.maxPatchMembers")},
		p.organizationFormField(ctx, lang, all, c.OrganizationGUID),
	}
	if create {
		fields[9].Hint = i18n.T(lang, "console.reg.hint.secretNew")
	}
	for i := range fields {
		fields[i].Label = i18n.T(lang, "console.reg.field."+fields[i].Name)
	}
	return fields
}

// connectionOfForm reads the form. A number that does not parse is sent
// as -1, so that the service's range check names the field.
func connectionOfForm(r *http.Request) (config.ProvisioningDoc, string) {
	v := func(k string) string { return strings.TrimSpace(r.PostFormValue(k)) }
	number := func(k string) float64 {
		if v(k) == "" {
			return 0
		}
		n, err := strconv.ParseFloat(v(k), 64)
		if err != nil || n != n {
			return -1
		}
		return n
	}
	whole := func(k string) int {
		n := number(k)
		if n != float64(int(n)) {
			return -1
		}
		return int(n)
	}
	c := config.ProvisioningDoc{ID: v("id"), Name: v("name"), BaseURL: v("baseUrl"), Version: v("version"),
		Auth: config.AuthDoc{Method: v("method"), Username: v("username"), TokenURL: v("tokenUrl"), ClientID: v("clientId"),
			Scopes: strings.Fields(v("scopes"))},
		Membership: v("membership"), UserIdentifier: v("userIdentifier"), RatePerSecond: number("ratePerSecond"),
		TimeoutSeconds: whole("timeoutSeconds"), MaxPatchMembers: whole("maxPatchMembers"), OrganizationGUID: v("organizationGUID")}
	// Only the chosen method's settings are kept.
	switch strings.ToLower(c.Auth.Method) {
	case "bearer":
		c.Auth.Username, c.Auth.TokenURL, c.Auth.ClientID, c.Auth.Scopes = "", "", "", nil
	case "basic":
		c.Auth.TokenURL, c.Auth.ClientID, c.Auth.Scopes = "", "", nil
	case "oauth2":
		c.Auth.Username = ""
	}
	return c, r.PostFormValue("secret")
}

// consoleConnectionForm is GET and POST /console/connections/new and
// /console/connections/{id}/edit. The secret is write-only: the field is
// always empty, and left empty on a change it keeps the stored one.
func (p *Pages) consoleConnectionForm(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	id, create := r.PathValue("id"), r.PathValue("id") == ""
	c := config.ProvisioningDoc{Auth: config.AuthDoc{Method: "bearer"}, Membership: "PATCH"}
	if create {
		if _, _, may := pr.RegistryScope(); !may {
			p.forbidden(w, r)
			return
		}
		if _, all, _ := pr.RegistryScope(); !all {
			c.OrganizationGUID = pr.OrganizationGUID
		}
	} else {
		v, err := p.cfg.Service.GetConnection(r.Context(), pr, id)
		if err != nil {
			p.refuse(w, r, err)
			return
		}
		c = v.ProvisioningDoc // the view holds no secret
	}
	page := registryFormPage{Action: r.URL.EscapedPath(), Cancel: "/console/applications"}
	if create {
		page.consolePage = p.consoleBase(r, pr, lang, "console.reg.newConnection", "applications")
		page.Submit = i18n.T(lang, "console.reg.create")
	} else {
		page.consolePage = p.consoleBase(r, pr, lang, "console.conn.edit", "applications", c.Name)
		page.Submit = i18n.T(lang, "console.conn.save")
		page.Cancel = "/console/connections/" + url.PathEscape(id)
	}
	if r.Method == http.MethodPost {
		doc, secret := connectionOfForm(r)
		if !create {
			doc.ID = id
		}
		if _, all, _ := pr.RegistryScope(); !all {
			doc.OrganizationGUID = c.OrganizationGUID
		}
		in := service.ConnectionInput{ProvisioningDoc: doc, Secret: secret}
		var err error
		if create {
			_, err = p.cfg.Service.CreateConnection(r.Context(), pr, in)
		} else {
			_, err = p.cfg.Service.UpdateConnection(r.Context(), pr, id, in)
		}
		if err == nil {
			back(w, r, "/console/connections/"+url.PathEscape(doc.ID), "connectionSaved")
			return
		}
		page.Fields = p.connectionFields(r.Context(), lang, pr, doc, create)
		for i, f := range page.Fields { // numbers as typed, not as read
			if f.Name == "ratePerSecond" || f.Name == "timeoutSeconds" || f.Name == "maxPatchMembers" {
				page.Fields[i].Value = strings.TrimSpace(r.PostFormValue(f.Name))
			}
		}
		p.formRefusal(w, r, lang, err, &page, "id")
		return
	}
	page.Fields = p.connectionFields(r.Context(), lang, pr, c, create)
	p.render(w, r, http.StatusOK, "console/registryform", page)
}

// consoleConnectionDelete is GET (confirm) and POST (delete)
// /console/connections/{id}/delete; an application still using the
// connection makes the service refuse (409), said in words.
func (p *Pages) consoleConnectionDelete(w http.ResponseWriter, r *http.Request) {
	pr, lang, ok := p.console(w, r)
	if !ok {
		return
	}
	c, err := p.cfg.Service.GetConnection(r.Context(), pr, r.PathValue("id"))
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	page := registryDeletePage{consolePage: p.consoleBase(r, pr, lang, "console.reg.deleteConnection", "applications", c.Name),
		Action: r.URL.EscapedPath(), Name: c.Name, Cancel: "/console/connections/" + url.PathEscape(c.ID)}
	if r.Method == http.MethodPost {
		err := p.cfg.Service.DeleteConnection(r.Context(), pr, c.ID)
		if err == nil {
			back(w, r, "/console/applications", "connectionDeleted")
			return
		}
		if domain.KindOf(err) != domain.KindConflict {
			p.refuse(w, r, err)
			return
		}
		page.Refusal = i18n.T(lang, "console.reg.inUseConnection")
		p.render(w, r, http.StatusConflict, "console/registrydelete", page)
		return
	}
	p.render(w, r, http.StatusOK, "console/registrydelete", page)
}
