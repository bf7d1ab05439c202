package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// APITokenHeader carries API tokens, as in the reference service.
const APITokenHeader = "X-API-TOKEN"

// PersonVerifier validates a bearer access token and returns the person.
type PersonVerifier interface {
	VerifyPerson(ctx context.Context, rawToken string) (Person, error)
}

// Authenticator turns request credentials into a Principal.
type Authenticator struct {
	Tokens domain.TokenStore
	Users  domain.UserStore
	// People verifies OIDC bearer tokens; nil when no issuer is configured.
	People PersonVerifier
	// BootstrapTokenHash is the SHA-256 (hex) of a super-user token given to
	// the deployment (BOOTSTRAP_API_TOKEN); empty disables it.
	BootstrapTokenHash string
	// OnLogin is told of every authentication of a known person; nil
	// leaves users as they are.
	OnLogin LoginObserver
	// Machines are the CRM API keys and Basic machine callers (machine.go);
	// nil accepts neither. MachineSource, when set, is asked instead at
	// every request, so that a rotated secret takes effect without a
	// restart.
	Machines      *MachineCallers
	MachineSource MachineSource
	// SuperUsers names the people who are super users by configuration
	// (SUPER_USERS), each by subject (sub) or eduPersonPrincipalName, as
	// the reference's super-admin users, or as claim=value with the claim
	// one of sub, eppn, email, subject_id, uid, eduid or
	// schac_home_organization. It is read at every request: taking a name
	// out of the list takes the rights away.
	SuperUsers []string
}

// namedSuperUser reports whether the configuration names the person.
func (a *Authenticator) namedSuperUser(person Person) bool {
	for _, name := range a.SuperUsers {
		if claim, value, ok := strings.Cut(name, "="); ok {
			if got, known := personAttribute(person, claim); known {
				if value != "" && got != "" && (got == value || claim != "sub" && strings.EqualFold(got, value)) {
					return true
				}
				continue
			}
		}
		if name != "" && (name == person.Sub || strings.EqualFold(name, person.EduPersonPrincipalName)) {
			return true
		}
	}
	return false
}

// personAttribute is the attribute a super-user entry names by claim.
func personAttribute(p Person, claim string) (string, bool) {
	switch strings.ToLower(claim) {
	case "sub":
		return p.Sub, true
	case "eppn", "eduperson_principal_name":
		return p.EduPersonPrincipalName, true
	case "email":
		return p.Email, true
	case "subject_id":
		return p.SubjectID, true
	case "uid":
		return p.UID, true
	case "eduid", "fedid":
		return p.FedID, true
	case "schac_home_organization":
		return p.SchacHomeOrganization, true
	}
	return "", false
}

// storedPerson is what the service knows of a user, for naming super users
// when the credential (an access token) carries fewer attributes than the
// sign-in did.
func storedPerson(u domain.User) Person {
	return Person{Sub: u.Sub, EduPersonPrincipalName: u.EduPersonPrincipalName, SchacHomeOrganization: u.SchacHomeOrganization,
		Email: u.Email, SubjectID: u.SubjectID, UID: u.UID, FedID: u.FedID}
}

// ClientBearer is a PersonVerifier's answer for a valid access token that
// has no person behind it (the client credentials grant): the caller is
// the client, a machine, never a person.
type ClientBearer struct{ ClientID string }

func (c *ClientBearer) Error() string { return "the token is a client's, not a person's" }

// HashToken is how API tokens are stored: SHA-256, hex. Tokens are long
// random values, so a fast hash is enough (no dictionary to guard against).
func HashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// Authenticate returns the caller, nil for an anonymous request, or an
// unauthenticated error for credentials that do not check out.
func (a *Authenticator) Authenticate(r *http.Request) (*Principal, error) {
	ctx := r.Context()
	if p, err, handled := a.machine(r); handled {
		return p, err
	}
	if raw := r.Header.Get(APITokenHeader); raw != "" {
		return a.apiToken(ctx, raw)
	}
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, raw, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(raw) == "" {
			return nil, domain.Unauthenticatedf("unsupported Authorization header")
		}
		return a.person(r, strings.TrimSpace(raw))
	}
	return nil, nil
}

func (a *Authenticator) apiToken(ctx context.Context, raw string) (*Principal, error) {
	hashed := HashToken(raw)
	if a.BootstrapTokenHash != "" && subtle.ConstantTimeCompare([]byte(hashed), []byte(a.BootstrapTokenHash)) == 1 {
		return &Principal{Kind: KindAPIToken, SuperUser: true, Name: BootstrapTokenName}, nil
	}
	t, err := a.Tokens.GetAPITokenByHash(ctx, hashed)
	if domain.IsNotFound(err) {
		return nil, domain.Unauthenticatedf("invalid API token")
	}
	if err != nil {
		return nil, err
	}
	return &Principal{Kind: KindAPIToken, SuperUser: t.SuperUserToken, OrganizationGUID: t.OrganizationGUID, Name: TokenName(t)}, nil
}

func (a *Authenticator) person(r *http.Request, raw string) (*Principal, error) {
	ctx := r.Context()
	if a.People == nil {
		slog.WarnContext(ctx, "bearer token refused", "reason", "no OIDC issuer configured")
		return nil, domain.Unauthenticatedf("bearer tokens are not accepted: no OIDC issuer configured")
	}
	person, err := a.People.VerifyPerson(ctx, raw)
	var client *ClientBearer
	switch {
	case errors.As(err, &client):
		return a.oauthClient(r, client.ClientID)
	case domain.KindOf(err) == domain.KindUnavailable:
		return nil, err // the IdP is down: not the caller's fault, worth a retry
	case err != nil:
		// The reason names the failed check, never the token.
		slog.WarnContext(ctx, "bearer token refused", "reason", err.Error())
		return nil, domain.Unauthenticatedf("invalid bearer token")
	}
	return a.PersonPrincipal(ctx, person)
}

// oauthClient is the caller of a client's own access token: the machine
// caller configured for its client id, with only that caller's rights.
func (a *Authenticator) oauthClient(r *http.Request, clientID string) (*Principal, error) {
	c, ok := a.machines(r.Context()).oauthClient(clientID)
	if !ok {
		slog.WarnContext(r.Context(), "bearer token refused", "reason", "client credentials token of a client with no rights here", "client", clientID)
		return nil, domain.Forbiddenf("this client's token has no rights here: a person's access token is needed")
	}
	if !c.pathAllows(r.URL.Path) {
		slog.WarnContext(r.Context(), "bearer token refused", "reason", "client credentials token outside its scopes", "client", clientID)
		return nil, domain.Forbiddenf("this client's token is only accepted on the paths it was configured for")
	}
	principal := c.principal
	return &principal, nil
}

// PersonPrincipal is the caller for a person whose identity is already
// verified: by a bearer token (the API) or by a browser sign-in whose session
// holds the asserted attributes (the pages). Both get the same principal and
// so the same rules. A known person's login is observed (attribute changes
// reach the SPs) and their memberships are loaded. The claims are
// normalized first (Person.Normalized): what is stored, shown and sent to
// SPs is the principal's Person.
func (a *Authenticator) PersonPrincipal(ctx context.Context, person Person) (*Principal, error) {
	person = person.Normalized()
	named := a.namedSuperUser(person)
	p := &Principal{Kind: KindPerson, Person: &person, Name: firstNonEmpty(person.EduPersonPrincipalName, person.Email, person.Sub),
		SuperUser: named}
	u, err := a.Users.GetUserBySub(ctx, person.Sub)
	if domain.IsNotFound(err) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	u = a.observeLogin(ctx, u, person)
	named = named || a.namedSuperUser(storedPerson(u))
	urs, err := a.Users.ListUserRolesOfUser(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	u.SuperUser = u.SuperUser || named // as the caller sees it (users/me), not stored
	p.User = &u
	p.SuperUser = u.SuperUser
	p.OrganizationGUID = u.OrganizationGUID
	p.Memberships = make(map[int64]domain.Authority, len(urs))
	for _, ur := range urs {
		p.Memberships[ur.RoleID] = ur.Authority
	}
	return p, nil
}

// BootstrapTokenName is how the bootstrap token's actions are attributed.
const BootstrapTokenName = "bootstrap-token"

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// TokenName is how a token's actions are attributed (audit, createdBy,
// remoteApiUser, inviter): the token itself, by description and id, never
// the person who created it (its Owner), who did not make the call.
func TokenName(t domain.APIToken) string {
	return fmt.Sprintf("%s (API token %d)", t.Description, t.ID)
}
