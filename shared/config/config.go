// Package config is the registry of applications and their SCIM
// connections (provisioning targets): the validated shapes, an immutable
// snapshot (Registry), the table-backed registry with its cache (Live) and
// the applications document that the import loads (Parse). Connections
// hold secret references, never secret values.
package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// Document is the configuration document as written by operators.
type Document struct {
	Applications  []ApplicationDoc  `json:"applications"`
	Provisionings []ProvisioningDoc `json:"provisionings"`
}

// ApplicationDoc is one application of the metadata registry.
type ApplicationDoc struct {
	ID                 int64    `json:"id,omitempty"`
	ManageID           string   `json:"manageId"`
	ManageType         string   `json:"manageType"`
	Name               string   `json:"name"`
	NameNL             string   `json:"nameNl,omitempty"`
	OrganizationName   string   `json:"organizationName,omitempty"`
	OrganizationNameNL string   `json:"organizationNameNl,omitempty"`
	LogoURL            string   `json:"logoUrl,omitempty"`
	LandingPage        string   `json:"landingPage"`
	OrganizationGUID   string   `json:"organizationGUID,omitempty"`
	Provisionings      []string `json:"provisionings"`
}

// ProvisioningDoc is one SCIM target (SP).
type ProvisioningDoc struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	BaseURL        string  `json:"baseUrl"`
	Version        string  `json:"version,omitempty"`
	Auth           AuthDoc `json:"auth"`
	Membership     string  `json:"membership,omitempty"`
	UserIdentifier string  `json:"userIdentifier,omitempty"`
	RatePerSecond  float64 `json:"ratePerSecond,omitempty"`
	TimeoutSeconds int     `json:"timeoutSeconds,omitempty"`
	// MaxPatchMembers bounds the members of one PATCH request (default 100).
	MaxPatchMembers int `json:"maxPatchMembers,omitempty"`
	// OrganizationGUID is the institution the connection belongs to; its
	// institution admins manage it. Empty: super users only.
	OrganizationGUID string `json:"organizationGUID,omitempty"`
}

// AuthDoc names how the service authenticates at the SP: basic, bearer or
// oauth2 (OAuth 2.0 client credentials). Secret fields hold references
// ("secretsmanager:<name-or-arn>[?versionId=<id>][#json-key]" or "env:<VAR>").
type AuthDoc struct {
	Method   string `json:"method"`
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	Token    string `json:"token,omitempty"`
	// TokenURL, ClientID, ClientSecret and Scopes are the oauth2 settings.
	TokenURL     string   `json:"tokenUrl,omitempty"`
	ClientID     string   `json:"clientId,omitempty"`
	ClientSecret string   `json:"clientSecret,omitempty"`
	Scopes       []string `json:"scopes,omitempty"`
}

// SecretField names the one secret field of an auth method, the field a
// write-only credential is stored in.
func SecretField(method string) string {
	switch strings.ToLower(method) {
	case "basic":
		return "password"
	case "bearer":
		return "token"
	case "oauth2":
		return "clientSecret"
	}
	return ""
}

// SecretRef returns the reference in the method's secret field.
func (a AuthDoc) SecretRef() string {
	switch strings.ToLower(a.Method) {
	case "basic":
		return a.Password
	case "bearer":
		return a.Token
	case "oauth2":
		return a.ClientSecret
	}
	return ""
}

// WithSecretRef returns the auth settings with ref in the method's secret
// field and the other secret fields cleared.
func (a AuthDoc) WithSecretRef(ref string) AuthDoc {
	a.Password, a.Token, a.ClientSecret = "", "", ""
	switch strings.ToLower(a.Method) {
	case "basic":
		a.Password = ref
	case "bearer":
		a.Token = ref
	case "oauth2":
		a.ClientSecret = ref
	}
	return a
}

// Registry is the validated, indexed configuration.
type Registry struct {
	// doc holds the valid items as written, for the registry's own API.
	doc          Document
	applications []domain.Application
	byManageID   map[string]domain.Application
	targets      map[string]Target
	targetIDs    []string
}

// Target is a validated SCIM target: the domain view plus how to reach it.
type Target struct {
	SP              domain.ServiceProvider
	BaseURL         string
	Version         string
	Auth            AuthDoc
	RatePerSecond   float64
	TimeoutSeconds  int
	MaxPatchMembers int
	// OrganizationGUID is the institution the connection belongs to.
	OrganizationGUID string
}

// Parse decodes and validates a document; unknown fields are rejected so that
// a typo in a key is an error at start-up rather than a silent default.
func Parse(b []byte) (*Registry, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("applications config: %w", err)
	}
	return New(doc)
}

var versionPattern = regexp.MustCompile(`^v[0-9]+$`)

// New validates a document and builds the registry. All problems are
// reported together so that an operator fixes them in one go.
func New(doc Document) (*Registry, error) {
	reg, problems := build(doc)
	if len(problems) > 0 {
		return nil, fmt.Errorf("applications config is invalid:\n  %s", strings.Join(problems, "\n  "))
	}
	return reg, nil
}

// Build makes a registry of the valid parts of a document and reports the
// rest: the table-backed registry keeps serving the valid applications when
// one item is bad, rather than none.
func Build(doc Document) (*Registry, []string) { return build(doc) }

func build(doc Document) (*Registry, []string) {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	reg := &Registry{byManageID: map[string]domain.Application{}, targets: map[string]Target{}}
	for i, p := range doc.Provisionings {
		where := fmt.Sprintf("provisionings[%d]", i)
		t, errs := ValidateConnection(p)
		for _, e := range errs {
			fail("%s: %s", where, e)
		}
		if p.ID == "" || len(errs) > 0 {
			continue
		}
		if _, dup := reg.targets[p.ID]; dup {
			fail("%s: duplicate id %q", where, p.ID)
			continue
		}
		reg.targets[p.ID] = t
		reg.targetIDs = append(reg.targetIDs, p.ID)
		reg.doc.Provisionings = append(reg.doc.Provisionings, p)
	}
	for i, a := range doc.Applications {
		where := fmt.Sprintf("applications[%d]", i)
		errs := ValidateApplication(a)
		for _, e := range errs {
			fail("%s: %s", where, e)
		}
		if len(errs) > 0 {
			continue
		}
		if _, dup := reg.byManageID[a.ManageID]; dup {
			fail("%s: duplicate manageId %q", where, a.ManageID)
			continue
		}
		var pids []string
		for _, pid := range a.Provisionings {
			if _, ok := reg.targets[pid]; !ok {
				fail("%s: provisioning %q is not defined", where, pid)
				continue
			}
			pids = append(pids, pid)
		}
		id := a.ID
		if id == 0 {
			id = int64(i + 1)
		}
		app := domain.Application{ID: id, ManageID: a.ManageID, ManageType: a.ManageType, Name: a.Name, NameNL: a.NameNL,
			OrganizationName: a.OrganizationName, OrganizationNameNL: a.OrganizationNameNL, LogoURL: a.LogoURL,
			OrganizationGUID: a.OrganizationGUID, LandingPage: a.LandingPage, ProvisioningIDs: pids}
		reg.byManageID[a.ManageID] = app
		reg.applications = append(reg.applications, app)
		a.Provisionings = pids
		reg.doc.Applications = append(reg.doc.Applications, a)
	}
	return reg, problems
}

var (
	idPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,254}$`)
	guidPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
)

// applicationTypes are the manage types an application may have: the
// spec's service types, not identity providers, policies or SCIM targets.
var applicationTypes = []string{"SAML20_SP", "OIDC10_RP"}

// ValidateApplication checks every field of an application; each message
// names its field. References to connections are checked by the caller,
// who knows which exist.
func ValidateApplication(a ApplicationDoc) []string {
	var errs []string
	if a.ManageID == "" {
		errs = append(errs, "manageId is required")
	} else if !idPattern.MatchString(a.ManageID) {
		errs = append(errs, fmt.Sprintf("manageId %q must be 1 to 255 letters, digits or . _ : / @ - (no spaces)", a.ManageID))
	}
	if !slices.Contains(applicationTypes, a.ManageType) {
		errs = append(errs, fmt.Sprintf("manageType %q must be one of %s", a.ManageType, strings.Join(applicationTypes, ", ")))
	}
	for _, f := range []struct{ name, value string }{{"name", a.Name}, {"nameNl", a.NameNL},
		{"organizationName", a.OrganizationName}, {"organizationNameNl", a.OrganizationNameNL}} {
		if len(f.value) > 255 || strings.ContainsAny(f.value, "\r\n\t") {
			errs = append(errs, f.name+" must be at most 255 characters on one line")
		}
	}
	// Shown to guests: https only (http on localhost), as a role's landing
	// pages are.
	for _, f := range []struct{ name, value string }{{"landingPage", a.LandingPage}, {"logoUrl", a.LogoURL}} {
		if err := domain.CheckWebURL(f.name, f.value); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if a.OrganizationGUID != "" && !guidPattern.MatchString(a.OrganizationGUID) {
		errs = append(errs, "organizationGUID must be 1 to 128 letters, digits or . _ -")
	}
	seen := map[string]bool{}
	for _, pid := range a.Provisionings {
		if seen[pid] {
			errs = append(errs, fmt.Sprintf("provisionings names %q twice", pid))
		}
		seen[pid] = true
	}
	return errs
}

// ValidateConnection checks every field of a SCIM connection, each message
// naming its field, and returns it with the defaults applied.
func ValidateConnection(p ProvisioningDoc) (Target, []string) {
	var errs []string
	if p.ID == "" {
		errs = append(errs, "id is required")
	} else if !idPattern.MatchString(p.ID) {
		errs = append(errs, fmt.Sprintf("id %q must be 1 to 255 letters, digits or . _ : / @ - (no spaces)", p.ID))
	}
	if len(p.Name) > 255 {
		errs = append(errs, "name must be at most 255 characters")
	}
	if !isHTTPURL(p.BaseURL) {
		errs = append(errs, "baseUrl must be an absolute http(s) URL")
	} else if u, _ := url.Parse(p.BaseURL); u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		errs = append(errs, "baseUrl must not hold credentials, a query or a fragment")
	}
	version := p.Version
	if version == "" {
		version = "v1"
	}
	if !versionPattern.MatchString(version) {
		errs = append(errs, fmt.Sprintf("version %q must look like v1", version))
	}
	mode := domain.MembershipMode(strings.ToUpper(p.Membership))
	if mode == "" {
		mode = domain.MembershipPatch
	}
	if mode != domain.MembershipPatch && mode != domain.MembershipPut {
		errs = append(errs, fmt.Sprintf("membership %q must be PUT or PATCH", p.Membership))
	}
	ident := domain.UserIdentifier(p.UserIdentifier)
	if ident == "" {
		ident = domain.IdentifierEPPN
	}
	switch ident {
	case domain.IdentifierEPPN, domain.IdentifierSubject, domain.IdentifierEmail, domain.IdentifierFedID:
	default:
		errs = append(errs, fmt.Sprintf("userIdentifier %q must be one of eduPersonPrincipalName, sub, email, fedId", p.UserIdentifier))
	}
	const refHint = "must be a secret reference (secretsmanager:... or env:...)"
	switch strings.ToLower(p.Auth.Method) {
	case "basic":
		if p.Auth.Username == "" {
			errs = append(errs, "auth.username is required for basic")
		}
		if !IsSecretRef(p.Auth.Password) {
			errs = append(errs, "auth.password "+refHint)
		}
	case "bearer":
		if !IsSecretRef(p.Auth.Token) {
			errs = append(errs, "auth.token "+refHint)
		}
	case "oauth2":
		if !isHTTPURL(p.Auth.TokenURL) {
			errs = append(errs, "auth.tokenUrl must be an absolute http(s) URL for oauth2")
		}
		if p.Auth.ClientID == "" {
			errs = append(errs, "auth.clientId is required for oauth2")
		}
		if !IsSecretRef(p.Auth.ClientSecret) {
			errs = append(errs, "auth.clientSecret "+refHint)
		}
	default:
		errs = append(errs, fmt.Sprintf("auth.method %q must be basic, bearer or oauth2", p.Auth.Method))
	}
	if p.RatePerSecond < 0 || p.RatePerSecond > 10000 {
		errs = append(errs, "ratePerSecond must be between 0 (the default, 20) and 10000")
	}
	if p.TimeoutSeconds < 0 || p.TimeoutSeconds > 60 {
		errs = append(errs, "timeoutSeconds must be between 0 (the default) and 60")
	}
	if p.MaxPatchMembers < 0 || p.MaxPatchMembers > 10000 {
		errs = append(errs, "maxPatchMembers must be between 0 (the default, 100) and 10000")
	}
	if p.OrganizationGUID != "" && !guidPattern.MatchString(p.OrganizationGUID) {
		errs = append(errs, "organizationGUID must be 1 to 128 letters, digits or . _ -")
	}
	auth := p.Auth
	auth.Method = strings.ToLower(auth.Method)
	return Target{
		SP:      domain.ServiceProvider{ID: p.ID, Name: p.Name, MembershipMode: mode, UserIdentifier: ident},
		BaseURL: strings.TrimRight(p.BaseURL, "/"), Version: version, Auth: auth,
		RatePerSecond: p.RatePerSecond, TimeoutSeconds: p.TimeoutSeconds, MaxPatchMembers: p.MaxPatchMembers,
		OrganizationGUID: p.OrganizationGUID,
	}, errs
}

// IsSecretRef reports whether s is a reference rather than a literal secret.
func IsSecretRef(s string) bool {
	return (strings.HasPrefix(s, "secretsmanager:") && len(s) > len("secretsmanager:")) ||
		(strings.HasPrefix(s, "env:") && len(s) > len("env:"))
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// Document returns the registry's valid items as written (connections
// with their secret references).
func (r *Registry) Document() Document { return r.doc }

// Applications lists the registry in document order.
func (r *Registry) Applications() []domain.Application { return r.applications }

// Application finds an application by manage id.
func (r *Registry) Application(manageID string) (domain.Application, bool) {
	a, ok := r.byManageID[manageID]
	return a, ok
}

// Target finds a SCIM target by id.
func (r *Registry) Target(id string) (Target, bool) {
	t, ok := r.targets[id]
	return t, ok
}

// ServiceProvider finds a SCIM target's settings by id.
func (r *Registry) ServiceProvider(id string) (domain.ServiceProvider, bool) {
	t, ok := r.targets[id]
	return t.SP, ok
}

// TargetIDs lists the SCIM targets in document order.
func (r *Registry) TargetIDs() []string { return r.targetIDs }

// SPsOfRole returns the SCIM targets of a role's applications, each once, in
// a stable order.
func (r *Registry) SPsOfRole(role domain.Role) []domain.ServiceProvider {
	seen := map[string]bool{}
	var sps []domain.ServiceProvider
	for _, mid := range role.ManageIDs() {
		app, ok := r.byManageID[mid]
		if !ok {
			continue
		}
		for _, pid := range app.ProvisioningIDs {
			if !seen[pid] {
				seen[pid] = true
				sps = append(sps, r.targets[pid].SP)
			}
		}
	}
	return sps
}
