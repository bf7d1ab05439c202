package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/stack"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/testkit"
)

const (
	acrPassword = "urn:invite:test:password"
	acrMFA      = "urn:invite:test:mfa"
	apiAudience = "urn:invite:api"
	// cliClient is a public client of the provider through which a person
	// gets an access token for the API. Its id is the API's audience on
	// purpose: its ID tokens then name the API as audience too, the worst
	// case for telling them from access tokens.
	cliClient     = apiAudience
	machineClient = "invite-machine"
	introspector  = "invite-introspector"
	webClient     = "invite-web"
	adminKey      = "provider-test-token-0123456789abcdef"
	clientSecret  = "a-client-secret-of-thirty-two-characters"
)

// account is a person of the provider.
type account struct {
	Login, Sub, Name, Email, EPPN string
}

// world is one provider configuration with its own local stack.
type world struct {
	name    string
	issuer  string
	stk     *stack.Stack
	log     *testkit.LogBuffer
	guest   account
	admin   account
	cliBack string // the CLI client's redirect URI (never served)
}

// providerConfig is how the provider of a world behaves.
type providerConfig struct {
	claimsInIDToken bool
	opaque          bool
}

// startWorld starts the provider and a local stack wired to it, as an
// institution would configure both.
func startWorld(t *testing.T, name string, pc providerConfig) *world {
	t.Helper()
	port := freePort(t)
	base := "http://127.0.0.1:" + port
	w := &world{name: name, log: &testkit.LogBuffer{}, cliBack: base + "/cli-callback",
		guest: account{Login: "gail", Sub: "guest-sub-" + name, Name: "Gail Guest", Email: "gail." + name + "@example.org", EPPN: "gail-" + name + "@uni.example.org"},
		admin: account{Login: "ada", Sub: "admin-sub-" + name, Name: "Ada Admin", Email: "ada." + name + "@example.org"}}
	claims := func(a account) map[string]any {
		c := map[string]any{"sub": a.Sub, "name": a.Name, "given_name": strings.Fields(a.Name)[0], "family_name": strings.Fields(a.Name)[1],
			"email": a.Email, "email_verified": true}
		if a.EPPN != "" {
			c["eduperson_principal_name"] = a.EPPN
			c["schac_home_organization"] = "uni.example.org"
		}
		return c
	}
	format := "jwt"
	if pc.opaque {
		format = "opaque"
	}
	cfg := substitutes.OIDCProviderConfig{
		ClaimsInIDToken: pc.claimsInIDToken, AccessTokenFormat: format, APIAudience: apiAudience, APIScope: "invite",
		ACRValues:  []string{acrPassword, acrMFA},
		Scopes:     map[string][]string{"eduperson": {"eduperson_principal_name", "schac_home_organization"}},
		Accounts:   map[string]map[string]any{w.guest.Login: claims(w.guest), w.admin.Login: claims(w.admin)},
		WebClients: []string{webClient},
		Clients: []map[string]any{
			{"client_id": webClient, "client_secret": clientSecret, "redirect_uris": []string{base + "/login/callback"},
				"post_logout_redirect_uris": []string{base + "/"}, "backchannel_logout_uri": base + "/login/backchannel-logout",
				"grant_types": []string{"authorization_code"}, "response_types": []string{"code"}},
			{"client_id": cliClient, "token_endpoint_auth_method": "none", "redirect_uris": []string{w.cliBack},
				"grant_types": []string{"authorization_code"}, "response_types": []string{"code"}},
			{"client_id": machineClient, "client_secret": clientSecret, "grant_types": []string{"client_credentials"},
				"response_types": []string{}, "redirect_uris": []string{}},
			{"client_id": introspector, "client_secret": clientSecret, "grant_types": []string{},
				"response_types": []string{}, "redirect_uris": []string{}},
		},
	}
	op, err := substitutes.StartOIDCProvider(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("provider output:\n%s", op.Output())
			t.Logf("service log:\n%s", w.log.String())
		}
		_ = op.Close()
	})
	w.issuer = op.Issuer

	env := map[string]string{
		"OIDC_ISSUER": op.Issuer, "OIDC_AUDIENCE": apiAudience, "OIDC_CLIENT_ID": webClient,
		"OIDC_CLIENT_SECRET": "env:PROVIDERTEST_WEB_SECRET", "PROVIDERTEST_WEB_SECRET": clientSecret,
		"OIDC_SCOPES": "openid profile email eduperson", "OIDC_ACR_ORDER": acrPassword + "," + acrMFA,
		"SUPER_USERS": "sub=" + w.admin.Sub, "PUBLIC_BASE_URL": base, "TABLE_NAME": "invite-" + name,
		"BOOTSTRAP_API_TOKEN": adminKey,
	}
	if pc.opaque {
		env["OIDC_INTROSPECTION_CLIENT_ID"] = introspector
		env["OIDC_INTROSPECTION_SECRET"] = "env:PROVIDERTEST_WEB_SECRET"
	}
	// The stack reads its settings from the environment and keeps the
	// addresses of the substitutes it started there: a world starts clean.
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_SESV2", "AWS_ENDPOINT_URL_SECRETS_MANAGER",
		"APPLICATIONS_CONFIG", "APPLICATIONS_CONFIG_FILE", "OIDC_INTROSPECTION_CLIENT_ID", "OIDC_INTROSPECTION_SECRET",
		"REMINDER_DAYS", "MACHINE_CALLERS", "MACHINE_CALLERS_SECRET_ARN"} {
		os.Unsetenv(k)
	}
	for k, v := range env {
		os.Setenv(k, v)
	}
	w.stk, err = stack.Start(context.Background(), stack.Options{Addr: "127.0.0.1:" + port, JobInterval: -1, LogOutput: w.log,
		VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond, SweepInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.stk.Close)
	return w
}

// freePort is a loopback port free a moment ago: the provider must know
// the service's addresses (redirect, logout) before the service starts.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// api calls the JSON API with a header set (a token) and returns the
// status, the WWW-Authenticate header and the body.
func (w *world) api(t *testing.T, method, path, header, value string, body any) (int, string, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.stk.URL+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if header != "" {
		req.Header.Set(header, value)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), raw
}

// admin calls the API as the deployment's super user (bootstrap token).
func (w *world) asAdmin(t *testing.T, method, path string, body, out any) int {
	t.Helper()
	status, _, raw := w.api(t, method, path, "X-API-TOKEN", adminKey, body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, path, status, raw)
		}
	}
	return status
}

var roleSeq struct {
	sync.Mutex
	n int
}

// newRole creates a role on the sample application, asking for acr when set.
func (w *world) newRole(t *testing.T, name, acr string) int64 {
	t.Helper()
	roleSeq.Lock()
	roleSeq.n++
	name = fmt.Sprintf("%s %d", name, roleSeq.n)
	roleSeq.Unlock()
	var role struct {
		ID int64 `json:"id"`
	}
	body := map[string]any{"name": name, "description": "Files of the research group", "organizationGUID": "org-provider", "defaultExpiryDays": 365,
		"requestedAuthnContext": acr,
		"applicationUsages": []any{map[string]any{"landingPage": "https://wiki.example.org/start",
			"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}}
	if got := w.asAdmin(t, "POST", "/api/v1/roles", body, &role); got != http.StatusCreated || role.ID == 0 {
		t.Fatalf("create role = %d", got)
	}
	return role.ID
}

// invite invites email to the role and returns the link of the e-mail.
func (w *world) invite(t *testing.T, roleID int64, email string) string {
	t.Helper()
	before := w.mailsTo(t, email)
	body := map[string]any{"intendedAuthority": "GUEST", "language": "en", "guestRoleIncluded": true,
		"invites": []string{email}, "roleIdentifiers": []int64{roleID}, "expiryDate": time.Now().Add(14 * 24 * time.Hour).Unix()}
	if got := w.asAdmin(t, "POST", "/api/external/v1/invitations", body, nil); got != http.StatusCreated {
		t.Fatalf("invite %s = %d", email, got)
	}
	var link string
	eventually(t, "the invitation e-mail to "+email, func() bool {
		texts := w.mailsTo(t, email)
		if len(texts) > len(before) {
			link = linkPattern.FindString(texts[len(texts)-1])
		}
		return link != ""
	})
	return link
}

func (w *world) mailsTo(t *testing.T, email string) []string {
	t.Helper()
	mails, err := w.stk.SES.Mails(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range mails {
		if len(m.To) > 0 && m.To[0] == email {
			texts = append(texts, m.Text)
		}
	}
	return texts
}

// invitationID is the id of a link's invitation (the API's accept needs it).
func (w *world) invitationID(t *testing.T, link string) (int64, string) {
	t.Helper()
	hash := strings.SplitN(link, "hash=", 2)[1]
	var inv struct {
		ID int64 `json:"id"`
	}
	status, _, raw := w.api(t, "GET", "/api/v1/invitations/public?hash="+hash, "", "", nil)
	if status != http.StatusOK || json.Unmarshal(raw, &inv) != nil || inv.ID == 0 {
		t.Fatalf("invitation of the link = %d %s", status, raw)
	}
	return inv.ID, hash
}

// eventually polls cond until it holds or 30 seconds have passed.
var eventually = testkit.Eventually
