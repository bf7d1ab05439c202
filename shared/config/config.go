// Package config loads and validates the configuration document that lists
// the applications (the metadata registry) and their SCIM provisioning
// targets. The document holds secret references, never secret values.
package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
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
	ID            int64    `json:"id,omitempty"`
	ManageID      string   `json:"manageId"`
	ManageType    string   `json:"manageType"`
	Name          string   `json:"name"`
	LandingPage   string   `json:"landingPage"`
	Provisionings []string `json:"provisionings"`
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
}

// AuthDoc names how the service authenticates at the SP. Secret fields hold
// references ("secretsmanager:<name-or-arn>[#json-key]" or "env:<VAR>").
type AuthDoc struct {
	Method   string `json:"method"`
	Username string `json:"username,omitempty"`
	Password string `json:"password,omitempty"`
	Token    string `json:"token,omitempty"`
}

// Registry is the validated, indexed configuration.
type Registry struct {
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
}

// Load reads the document from APPLICATIONS_CONFIG (inline JSON) or
// APPLICATIONS_CONFIG_FILE (a path); an absent document is an empty registry.
func Load() (*Registry, error) {
	if inline := strings.TrimSpace(os.Getenv("APPLICATIONS_CONFIG")); inline != "" {
		return Parse([]byte(inline))
	}
	if path := os.Getenv("APPLICATIONS_CONFIG_FILE"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read applications config: %w", err)
		}
		return Parse(b)
	}
	return Parse([]byte(`{}`))
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
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	reg := &Registry{byManageID: map[string]domain.Application{}, targets: map[string]Target{}}
	for i, p := range doc.Provisionings {
		where := fmt.Sprintf("provisionings[%d]", i)
		t, errs := validateTarget(p)
		for _, e := range errs {
			fail("%s: %s", where, e)
		}
		if p.ID == "" {
			continue
		}
		if _, dup := reg.targets[p.ID]; dup {
			fail("%s: duplicate id %q", where, p.ID)
			continue
		}
		reg.targets[p.ID] = t
		reg.targetIDs = append(reg.targetIDs, p.ID)
	}
	for i, a := range doc.Applications {
		where := fmt.Sprintf("applications[%d]", i)
		if a.ManageID == "" {
			fail("%s: manageId is required", where)
			continue
		}
		if !domain.ValidManageType(a.ManageType) {
			fail("%s: manageType %q is not one of %s", where, a.ManageType, strings.Join(domain.ManageTypes, ", "))
		}
		if _, dup := reg.byManageID[a.ManageID]; dup {
			fail("%s: duplicate manageId %q", where, a.ManageID)
			continue
		}
		if a.LandingPage != "" && !isHTTPURL(a.LandingPage) {
			fail("%s: landingPage must be an http(s) URL", where)
		}
		for _, pid := range a.Provisionings {
			if _, ok := reg.targets[pid]; !ok {
				fail("%s: provisioning %q is not defined", where, pid)
			}
		}
		id := a.ID
		if id == 0 {
			id = int64(i + 1)
		}
		app := domain.Application{ID: id, ManageID: a.ManageID, ManageType: a.ManageType, Name: a.Name,
			LandingPage: a.LandingPage, ProvisioningIDs: append([]string(nil), a.Provisionings...)}
		reg.byManageID[a.ManageID] = app
		reg.applications = append(reg.applications, app)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("applications config is invalid:\n  %s", strings.Join(problems, "\n  "))
	}
	return reg, nil
}

func validateTarget(p ProvisioningDoc) (Target, []string) {
	var errs []string
	if p.ID == "" {
		errs = append(errs, "id is required")
	}
	if !isHTTPURL(p.BaseURL) {
		errs = append(errs, "baseUrl must be an absolute http(s) URL")
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
	switch strings.ToLower(p.Auth.Method) {
	case "basic":
		if p.Auth.Username == "" {
			errs = append(errs, "auth.username is required for basic")
		}
		if !IsSecretRef(p.Auth.Password) {
			errs = append(errs, "auth.password must be a secret reference (secretsmanager:... or env:...)")
		}
	case "bearer":
		if !IsSecretRef(p.Auth.Token) {
			errs = append(errs, "auth.token must be a secret reference (secretsmanager:... or env:...)")
		}
	default:
		errs = append(errs, fmt.Sprintf("auth.method %q must be basic or bearer", p.Auth.Method))
	}
	if p.RatePerSecond < 0 || p.TimeoutSeconds < 0 || p.MaxPatchMembers < 0 {
		errs = append(errs, "ratePerSecond, timeoutSeconds and maxPatchMembers must not be negative")
	}
	auth := p.Auth
	auth.Method = strings.ToLower(auth.Method)
	return Target{
		SP:      domain.ServiceProvider{ID: p.ID, Name: p.Name, MembershipMode: mode, UserIdentifier: ident},
		BaseURL: strings.TrimRight(p.BaseURL, "/"), Version: version, Auth: auth,
		RatePerSecond: p.RatePerSecond, TimeoutSeconds: p.TimeoutSeconds, MaxPatchMembers: p.MaxPatchMembers,
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
