package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/httpapi"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// A world is a small, fresh installation for API tests: three
// organizations with a role each, one person per authority on role A, an
// institution admin and a super user, and API tokens. Every test that
// changes something gets a world of its own.
//
//	org-a  role A (application wiki, SCIM targets sp-a and sp-b)
//	org-b  role B (application lms, no SCIM target)
//	org-c  role C (where the super user and the institution admin got in)
type world struct {
	t      testing.TB
	Now    time.Time
	Store  *dynamo.Store
	Svc    *service.Service
	Queue  *testkit.RecordingQueue
	API    *httpapi.API
	Server http.Handler

	RoleA, RoleB, RoleC int64
	// Users by caller name; UserRoles are the callers' memberships of role A.
	Users     map[string]domain.User
	UserRoles map[string]domain.UserRole
	// OpenInvitationA is an open invitation to role A (as GUEST).
	OpenInvitationA int64
	OpenSecretA     string
	// Vault holds the credentials written through the API.
	Vault *testkit.MemoryVault
}

// Callers, in the order of the want columns of matrix cases.
var callers = []string{"super", "superToken", "instAdmin", "orgToken", "appManager", "manager", "inviter", "guest", "anonymous"}

// Raw API tokens of the token callers.
const (
	superTokenValue = "super-token-0123456789abcdef0123456789abcdef"
	orgTokenValue   = "org-a-token-0123456789abcdef0123456789abcdef"
)

var worldNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// people verifies the fake bearer tokens of tests: the token is the
// caller's name. The OIDC verifier itself is tested in shared/oidc with
// signed JWTs and a JWKS.
type people map[string]auth.Person

func (p people) VerifyPerson(_ context.Context, raw string) (auth.Person, error) {
	person, ok := p[raw]
	if !ok {
		return auth.Person{}, domain.Unauthenticatedf("unknown test token")
	}
	return person, nil
}

func personOf(name string) auth.Person {
	return auth.Person{Sub: "urn:collab:person:example.org:" + name, EduPersonPrincipalName: name + "@example.org",
		SchacHomeOrganization: "example.org", Email: name + "@example.org", GivenName: strings.ToUpper(name[:1]) + name[1:],
		FamilyName: "Tester", Name: strings.ToUpper(name[:1]) + name[1:] + " Tester"}
}

var root = &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "root"}

// newWorld is a fresh world on a table of its own: a copy of the items of
// the one world the test binary builds (world_template_test.go), with a
// service, registry, vault and queue of its own, as if built anew.
func newWorld(t testing.TB) *world {
	t.Helper()
	return cloneWorld(t, builtWorld(t))
}

// buildWorld builds a world the long way, through the service, on the
// given table.
func buildWorld(t testing.TB, client *dynamodb.Client, table string) *world {
	t.Helper()
	w := &world{t: t, Now: worldNow, Users: map[string]domain.User{}, UserRoles: map[string]domain.UserRole{}}
	w.wire(client, table)
	seedWorldRegistry(t, w.Store)
	w.Svc.Registry, w.Svc.RegistryAdmin, w.Vault = worldRegistry(t, w.Store)

	ctx := context.Background()
	w.RoleA = w.createRole("Role A", "org-a", "wiki")
	w.RoleB = w.createRole("Role B", "org-b", "lms")
	w.RoleC = w.createRole("Role C", "org-c", "drive")
	for _, m := range []struct {
		caller    string
		role      int64
		authority domain.Authority
	}{
		{"appManager", w.RoleA, domain.ApplicationManager}, {"manager", w.RoleA, domain.Manager},
		{"inviter", w.RoleA, domain.Inviter}, {"guest", w.RoleA, domain.Guest},
		{"super", w.RoleC, domain.Guest}, {"instAdmin", w.RoleC, domain.Guest},
	} {
		res := w.inviteAndAccept(m.caller, m.role, m.authority)
		w.Users[m.caller] = res.User
		if m.role == w.RoleA {
			w.UserRoles[m.caller] = res.UserRoles[0]
		}
	}
	w.promote("super", func(u *domain.User) { u.SuperUser = true })
	w.promote("instAdmin", func(u *domain.User) { u.InstitutionAdmin = true; u.OrganizationGUID = "org-a" })
	for _, tok := range []domain.APIToken{
		{ID: 1, HashedValue: auth.HashToken(superTokenValue), SuperUserToken: true, Description: "super", CreatedAt: w.Now},
		{ID: 2, HashedValue: auth.HashToken(orgTokenValue), OrganizationGUID: "org-a", Description: "org-a", CreatedAt: w.Now},
	} {
		if err := w.Store.CreateAPIToken(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	w.OpenInvitationA, w.OpenSecretA = w.invite("open@example.org", w.RoleA, domain.Guest)
	return w
}

// wire gives the world its service on the table, with a recording queue,
// the world's clock and API, and the callers' people; the registry is set
// by the caller.
func (w *world) wire(client *dynamodb.Client, table string) {
	clock := func() time.Time { return w.Now }
	w.Queue = &testkit.RecordingQueue{}
	w.Store = dynamo.New(client, table, clock)
	w.Svc = &service.Service{Store: w.Store, Queue: w.Queue, Clock: clock, PublicBaseURL: testkit.PublicBaseURL}
	w.Svc.GroupURNPrefix, w.Svc.Reconciler = "urn:collab:group:example.org", plannedReconciler{}
	ppl := people{}
	for _, c := range callers {
		ppl[c] = personOf(c)
	}
	w.API = &httpapi.API{Service: w.Svc, Authenticator: &auth.Authenticator{Tokens: w.Store, Users: w.Store, People: ppl}}
	w.API.Authenticator.OnLogin = w.Svc
	w.Server = w.API.Local()
}

func (w *world) createRole(name, org, app string) int64 {
	w.t.Helper()
	r, err := w.Svc.CreateRole(context.Background(), root, service.RoleInput{Name: name, OrganizationGUID: org, DefaultExpiryDays: 365,
		ApplicationUsages: []service.ApplicationUsageInput{{ManageID: app}}})
	if err != nil {
		w.t.Fatal(err)
	}
	return r.ID
}

// invite invites an address to a role, without e-mail, and returns the
// invitation id and secret.
func (w *world) invite(email string, role int64, authority domain.Authority) (int64, string) {
	w.t.Helper()
	return testkit.Invite(w.t, w.Svc, root, email, role, authority, w.Now.Add(14*24*time.Hour))
}

// inviteAndAccept invites a caller to a role and accepts as them.
func (w *world) inviteAndAccept(caller string, role int64, authority domain.Authority) service.AcceptResult {
	w.t.Helper()
	return testkit.InviteAndAccept(w.t, w.Svc, root, personOf(caller), role, authority, w.Now.Add(14*24*time.Hour))
}

func (w *world) promote(caller string, change func(*domain.User)) {
	w.t.Helper()
	u, err := w.Store.GetUser(context.Background(), w.Users[caller].ID)
	if err != nil {
		w.t.Fatal(err)
	}
	change(&u)
	if err := w.Store.UpdateUser(context.Background(), u, nil); err != nil {
		w.t.Fatal(err)
	}
	u.Version++
	w.Users[caller] = u
}

// expand replaces the world's placeholders in a path or body:
// {roleA} {roleB} {roleC}, {user:<caller>}, {userRole:<caller>},
// {invitationA}, {secretA}, {pastDate}, {futureDate} (epoch seconds).
func (w *world) expand(s string) string {
	repl := []string{"{roleA}", itoa(w.RoleA), "{roleB}", itoa(w.RoleB), "{roleC}", itoa(w.RoleC),
		"{invitationA}", itoa(w.OpenInvitationA), "{secretA}", w.OpenSecretA,
		"{pastDate}", itoa(w.Now.Add(-24 * time.Hour).Unix()), "{futureDate}", itoa(w.Now.Add(30 * 24 * time.Hour).Unix())}
	for c, u := range w.Users {
		repl = append(repl, "{user:"+c+"}", itoa(u.ID))
	}
	for c, ur := range w.UserRoles {
		repl = append(repl, "{userRole:"+c+"}", itoa(ur.ID))
	}
	return strings.NewReplacer(repl...).Replace(s)
}

// do sends a request as a caller and returns the response.
func (w *world) do(caller, method, path, body string) *httptest.ResponseRecorder {
	w.t.Helper()
	var rd *bytes.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(w.expand(body)))
	} else {
		rd = bytes.NewReader(nil)
	}
	req := httptest.NewRequest(method, w.expand(path), rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	switch caller {
	case "anonymous":
	case "superToken":
		req.Header.Set(auth.APITokenHeader, superTokenValue)
	case "orgToken":
		req.Header.Set(auth.APITokenHeader, orgTokenValue)
	default:
		req.Header.Set("Authorization", "Bearer "+caller)
	}
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	return rec
}

// decode reads a JSON response into v, failing the test on bad JSON.
func decode[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("response %d is not the expected JSON: %v\n%s", rec.Code, err, rec.Body.String())
	}
	return v
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
