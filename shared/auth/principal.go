// Package auth decides who is calling (API token, OIDC bearer token) and
// what they may do. Authorization is deny by default: every check names the
// authority it needs. The rule files (rules_*.go) are named by resource;
// the operation codes some of them cite (U8, R2, ...) are keyed in
// shared/httpapi/OPERATIONS.md.
package auth

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// Kind is how a caller authenticated.
type Kind string

const (
	KindAPIToken Kind = "api-token"
	KindPerson   Kind = "person"
)

// Person holds the attributes an IdP asserted about a person at login.
type Person struct {
	Sub                    string
	EduPersonPrincipalName string
	SchacHomeOrganization  string
	Email                  string
	GivenName              string
	FamilyName             string
	Name                   string
	SubjectID              string
	UID                    string
	FedID                  string
	// ACR is the authentication context the IdP asserted at sign-in (the
	// "acr" claim); empty when it sent none.
	ACR string
}

// Principal is an authenticated caller.
type Principal struct {
	Kind Kind
	// SuperUser callers may do everything.
	SuperUser bool
	// OrganizationGUID scopes API tokens and institution admins.
	OrganizationGUID string
	// Name identifies the caller in audit trails and remoteApiUser fields.
	Name string
	// Person is set for people; User once the person is known to the service.
	Person *Person
	User   *domain.User
	// Memberships of a known user, by role id.
	Memberships map[int64]domain.Authority
}

type principalKey struct{}

// WithPrincipal stores the caller in a request context.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the caller, or nil when the request is anonymous.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
