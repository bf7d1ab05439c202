package auth

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// CRMKeyHeader carries the API key of CRM callers, as in the reference
// service (its CrmApiKeyAuthFilter reads "API-KEY").
const CRMKeyHeader = "API-KEY"

// Kinds of machine callers.
const (
	// KindCRM is a CRM system calling the CRM paths with an API key.
	KindCRM Kind = "crm"
	// KindMachine is a configured machine caller using HTTP Basic on the
	// internal invite API.
	KindMachine Kind = "machine"
)

// Scopes of Basic machine callers: which paths they may call.
const (
	// ScopeInvite allows the internal invite API (/api/external/v1/internal/invite/...).
	ScopeInvite = "invite"
	// ScopeCRM allows the CRM profile search at /api/external/v1/invite/crm/...
	// (the reference lets Basic callers with the crm scope call it).
	ScopeCRM = "crm"
	// ScopeVoot allows the VOOT group memberships (/api/external/v1/voot/...),
	// for applications that read groups instead of receiving SCIM.
	ScopeVoot = "voot"
	// ScopeAttributeAggregation allows /api/external/v1/aa/... (the
	// platform's attribute aggregator).
	ScopeAttributeAggregation = "aa"
	// ScopeLifecycle allows the user lifecycle API
	// (/api/external/v1/deprovision/...): GDPR export and erasure.
	ScopeLifecycle = "lifecycle"
	// ScopeProfile allows the user profile (/api/external/v1/profile): the
	// roles a person is a guest of, with their applications.
	ScopeProfile = "profile"
)

// scopePaths are the path prefixes each scope of a Basic caller admits.
var scopePaths = map[string]string{
	ScopeInvite:               "/api/external/v1/internal/invite/",
	ScopeCRM:                  "/api/external/v1/invite/crm/",
	ScopeVoot:                 "/api/external/v1/voot/",
	ScopeAttributeAggregation: "/api/external/v1/aa/",
	ScopeLifecycle:            "/api/external/v1/deprovision/",
	ScopeProfile:              "/api/external/v1/profile",
}

// MachineCallersConfig is the JSON of the machine-callers secret
// (invite/machine-callers). Credentials may be given in clear or, better,
// as the hex SHA-256 of the value; either way only hashes are kept in memory.
//
//	{"crm":   [{"name": "SURF CRM", "apiKeySha256": "…"}],
//	 "basic": [{"user": "pdp", "passwordSha256": "…", "displayName": "PDP",
//	            "organizationGUID": "org-a", "scopes": ["invite", "crm"]},
//	           {"user": "ops", "password": "…", "superUser": true}]}
type MachineCallersConfig struct {
	CRM   []CRMCallerConfig   `json:"crm"`
	Basic []BasicCallerConfig `json:"basic"`
	// OAuthClients are clients of the identity provider calling with their
	// own access token (client credentials grant), by client id; their
	// rights are those of a Basic caller (password fields unused).
	OAuthClients []OAuthClientConfig `json:"oauthClients"`
}

// OAuthClientConfig is one client-credentials caller.
type OAuthClientConfig struct {
	ClientID         string   `json:"clientId"`
	DisplayName      string   `json:"displayName"`
	OrganizationGUID string   `json:"organizationGUID"`
	SuperUser        bool     `json:"superUser"`
	Scopes           []string `json:"scopes"`
}

// CRMCallerConfig is one CRM API key.
type CRMCallerConfig struct {
	Name         string `json:"name"`
	APIKey       string `json:"apiKey"`
	APIKeySHA256 string `json:"apiKeySha256"`
}

// BasicCallerConfig is one HTTP Basic machine caller. Without scopes it may
// call the internal invite API only.
type BasicCallerConfig struct {
	User             string   `json:"user"`
	Password         string   `json:"password"`
	PasswordSHA256   string   `json:"passwordSha256"`
	DisplayName      string   `json:"displayName"`
	OrganizationGUID string   `json:"organizationGUID"`
	SuperUser        bool     `json:"superUser"`
	Scopes           []string `json:"scopes"`
}

// MachineCallers holds the hashed credentials of machine callers.
type MachineCallers struct {
	crm     []crmCaller
	basic   []basicCaller
	clients map[string]basicCaller
}

type crmCaller struct {
	name    string
	keyHash []byte
}

type basicCaller struct {
	user         string
	passwordHash []byte
	principal    Principal
	scopes       map[string]bool
}

// ParseMachineCallers reads the secret's JSON. Errors never quote values.
func ParseMachineCallers(raw []byte) (*MachineCallers, error) {
	var cfg MachineCallersConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("machine callers: not the expected JSON object")
	}
	return NewMachineCallers(cfg)
}

// NewMachineCallers checks a configuration and hashes its credentials.
func NewMachineCallers(cfg MachineCallersConfig) (*MachineCallers, error) {
	m := &MachineCallers{}
	for i, c := range cfg.CRM {
		h, err := credentialHash(c.APIKey, c.APIKeySHA256)
		if err != nil {
			return nil, fmt.Errorf("machine callers: crm[%d]: %w", i, err)
		}
		name := strings.TrimSpace(c.Name)
		if name == "" {
			name = "CRM"
		}
		m.crm = append(m.crm, crmCaller{name: name, keyHash: h})
	}
	users := map[string]bool{}
	for i, b := range cfg.Basic {
		if strings.TrimSpace(b.User) == "" || strings.Contains(b.User, ":") {
			return nil, fmt.Errorf("machine callers: basic[%d]: user is required and cannot contain ':'", i)
		}
		if users[b.User] {
			return nil, fmt.Errorf("machine callers: basic[%d]: user %q is listed twice", i, b.User)
		}
		users[b.User] = true
		h, err := credentialHash(b.Password, b.PasswordSHA256)
		if err != nil {
			return nil, fmt.Errorf("machine callers: basic[%d]: %w", i, err)
		}
		if !b.SuperUser && strings.TrimSpace(b.OrganizationGUID) == "" {
			return nil, fmt.Errorf("machine callers: basic[%d]: organizationGUID is required unless superUser", i)
		}
		scopes := map[string]bool{}
		for _, s := range b.Scopes {
			if _, known := scopePaths[s]; !known {
				return nil, fmt.Errorf("machine callers: basic[%d]: unknown scope %q (want invite, crm, voot, aa, lifecycle or profile)", i, s)
			}
			scopes[s] = true
		}
		if len(scopes) == 0 {
			scopes[ScopeInvite] = true
		}
		m.basic = append(m.basic, basicCaller{user: b.User, passwordHash: h, scopes: scopes, principal: Principal{
			Kind: KindMachine, SuperUser: b.SuperUser, OrganizationGUID: strings.TrimSpace(b.OrganizationGUID),
			Name: firstNonEmpty(strings.TrimSpace(b.DisplayName), b.User),
		}})
	}
	for i, c := range cfg.OAuthClients {
		id := strings.TrimSpace(c.ClientID)
		if id == "" {
			return nil, fmt.Errorf("machine callers: oauthClients[%d]: clientId is required", i)
		}
		if _, dup := m.clients[id]; dup {
			return nil, fmt.Errorf("machine callers: oauthClients[%d]: client %q is listed twice", i, id)
		}
		if !c.SuperUser && strings.TrimSpace(c.OrganizationGUID) == "" {
			return nil, fmt.Errorf("machine callers: oauthClients[%d]: organizationGUID is required unless superUser", i)
		}
		scopes, err := callerScopes(c.Scopes)
		if err != nil {
			return nil, fmt.Errorf("machine callers: oauthClients[%d]: %w", i, err)
		}
		if m.clients == nil {
			m.clients = map[string]basicCaller{}
		}
		m.clients[id] = basicCaller{user: id, scopes: scopes, principal: Principal{
			Kind: KindMachine, SuperUser: c.SuperUser, OrganizationGUID: strings.TrimSpace(c.OrganizationGUID),
			Name: firstNonEmpty(strings.TrimSpace(c.DisplayName), id),
		}}
	}
	return m, nil
}

// callerScopes checks a machine caller's scopes; none means invite only.
func callerScopes(names []string) (map[string]bool, error) {
	scopes := map[string]bool{}
	for _, s := range names {
		if _, known := scopePaths[s]; !known {
			return nil, fmt.Errorf("unknown scope %q (want invite, crm, voot, aa, lifecycle or profile)", s)
		}
		scopes[s] = true
	}
	if len(scopes) == 0 {
		scopes[ScopeInvite] = true
	}
	return scopes, nil
}

// oauthClient is the machine caller of a client id.
func (m *MachineCallers) oauthClient(clientID string) (basicCaller, bool) {
	if m == nil {
		return basicCaller{}, false
	}
	c, ok := m.clients[clientID]
	return c, ok
}

// credentialHash is the SHA-256 of a credential given in clear or as hex.
func credentialHash(clear, hexHash string) ([]byte, error) {
	switch {
	case clear != "" && hexHash != "":
		return nil, fmt.Errorf("give the credential or its SHA-256, not both")
	case clear != "":
		if len(clear) < 16 {
			return nil, fmt.Errorf("credential shorter than 16 characters")
		}
		return []byte(HashToken(clear)), nil
	case hexHash != "":
		b, err := hex.DecodeString(hexHash)
		if err != nil || len(b) != 32 {
			return nil, fmt.Errorf("SHA-256 must be 64 hex digits")
		}
		return []byte(strings.ToLower(hexHash)), nil
	}
	return nil, fmt.Errorf("credential missing")
}

// crmPath reports whether a path belongs to the CRM-linked operations.
func crmPath(path string) bool {
	return strings.HasPrefix(path, "/crm/") || path == "/api/profile" || strings.HasPrefix(path, "/api/external/v1/invite/crm/")
}

// pathAllows reports whether a Basic caller's scopes cover a path.
func (b basicCaller) pathAllows(path string) bool {
	for scope := range b.scopes {
		if strings.HasPrefix(path, scopePaths[scope]) {
			return true
		}
	}
	return false
}

// machine authenticates CRM API keys and HTTP Basic machine callers.
// handled is false when the request carries neither, so that the other
// kinds of credentials are tried. Machine credentials are refused (403)
// outside the paths they are for: a leaked CRM key cannot reach roles or
// tokens, a Basic caller only the API it was configured for.
func (a *Authenticator) machine(r *http.Request) (p *Principal, err error, handled bool) {
	machines := a.machines(r.Context())
	if key := r.Header.Get(CRMKeyHeader); key != "" {
		c, ok := machines.crmCaller(key)
		if !ok {
			return nil, domain.Unauthenticatedf("invalid %s header", CRMKeyHeader), true
		}
		if !crmPath(r.URL.Path) {
			return nil, domain.Forbiddenf("a CRM API key is only accepted on the CRM paths"), true
		}
		return &Principal{Kind: KindCRM, Name: c.name}, nil, true
	}
	user, password, isBasic := r.BasicAuth()
	if !isBasic || machines == nil {
		return nil, nil, false
	}
	b, ok := machines.basicCaller(user, password)
	if !ok {
		return nil, domain.Unauthenticatedf("invalid Basic credentials"), true
	}
	if !b.pathAllows(r.URL.Path) {
		return nil, domain.Forbiddenf("Basic credentials are only accepted on the internal invite API"), true
	}
	principal := b.principal
	return &principal, nil, true
}

// crmCaller finds the CRM caller of a key. Every configured key is compared
// (in constant time, on hashes) so that timing tells nothing.
func (m *MachineCallers) crmCaller(key string) (crmCaller, bool) {
	if m == nil {
		return crmCaller{}, false
	}
	h := []byte(HashToken(key))
	var found crmCaller
	ok := false
	for _, c := range m.crm {
		if subtle.ConstantTimeCompare(h, c.keyHash) == 1 {
			found, ok = c, true
		}
	}
	return found, ok
}

func (m *MachineCallers) basicCaller(user, password string) (basicCaller, bool) {
	h := []byte(HashToken(password))
	var found basicCaller
	ok := false
	for _, b := range m.basic {
		userMatch := subtle.ConstantTimeCompare([]byte(user), []byte(b.user))
		if userMatch&subtle.ConstantTimeCompare(h, b.passwordHash) == 1 {
			found, ok = b, true
		}
	}
	return found, ok
}

// actsForOrganization reports whether the caller is a machine acting for
// its whole organization (API tokens and Basic machine callers), as opposed
// to a person whose rights come from memberships.
func (p *Principal) actsForOrganization() bool { return p.IsProgram() }

// IsProgram reports whether the caller is a program acting for an
// organization (an API token or a Basic machine caller), not a person: its
// name is what remoteApiUser records.
func (p *Principal) IsProgram() bool {
	return p != nil && (p.Kind == KindAPIToken || p.Kind == KindMachine)
}

// IsCRM reports whether the caller is a CRM system (API key).
func (p *Principal) IsCRM() bool { return p != nil && p.Kind == KindCRM }

// CanUseCRMProfileSearch reports whether the caller may search CRM profiles
// CRM systems, and Basic machine callers that reached the CRM path
// (the authenticator checked their crm scope).
func (p *Principal) CanUseCRMProfileSearch() bool {
	return p != nil && (p.Kind == KindCRM || p.Kind == KindMachine)
}

// BoundOrganization is the one organization a caller that is not a super
// user acts for, "" for super users and for callers whose rights come from
// memberships only. Machine callers (voot, aa, lifecycle, profile, the CRM
// profile search, the internal invite API) configured with an
// organizationGUID see and change only that organization's roles and
// memberships.
func (p *Principal) BoundOrganization() string {
	if p == nil || p.SuperUser {
		return ""
	}
	return p.OrganizationGUID
}

// MachineSource gives the machine callers configured now (a secret an
// operator may rotate); nil accepts none.
type MachineSource interface {
	MachineCallers(ctx context.Context) *MachineCallers
}

// machines are the machine callers of this request.
func (a *Authenticator) machines(ctx context.Context) *MachineCallers {
	if a.MachineSource != nil {
		return a.MachineSource.MachineCallers(ctx)
	}
	return a.Machines
}
