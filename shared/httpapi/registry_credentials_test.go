package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/outbound"
	"github.com/edu-invite/invite/shared/secrets"
	"github.com/edu-invite/invite/shared/testkit"
)

// listener is a loopback server that records everything that reaches it:
// a stand-in for an address an attacker controls.
type listener struct {
	*httptest.Server
	mu       sync.Mutex
	received []string // method, path, Authorization and body of each request
}

func newListener(t *testing.T) *listener {
	t.Helper()
	l := &listener{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		l.mu.Lock()
		l.received = append(l.received, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization")+" "+string(body))
		l.mu.Unlock()
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *listener) reset() {
	l.mu.Lock()
	l.received = nil
	l.mu.Unlock()
}

func (l *listener) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.received...)
}

// TestStoredCredentialGoesOnlyWhereItWasEntered: a super user enters a
// connection's credential; an institution admin who may change the
// connection changes where it goes (SP scheme, host or port, token URL,
// username, client id) without sending it again. The change is refused
// with the spec's error body, the connection keeps its address, and a
// connection test afterwards sends nothing to the admin's listener.
func TestStoredCredentialGoesOnlyWhereItWasEntered(t *testing.T) {
	const stored = "super-Entered-Secret-4711"
	sp := scimsp.New(scimsp.Options{BasicUser: "invite", BasicPassword: stored})
	spSrv := httptest.NewServer(sp.Handler())
	defer spSrv.Close()
	token := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"at","token_type":"Bearer","expires_in":3600}`))
	}))
	defer token.Close()
	evil := newListener(t)
	evilHTTPS := "https" + strings.TrimPrefix(spSrv.URL, "http")
	basic := func(base string) string {
		return `{"name": "Lab", "baseUrl": "` + base + `", "organizationGUID": "org-a", "auth": {"method": "basic", "username": "invite"}`
	}
	oauth := func(base, tokenURL, client string) string {
		return `{"name": "Lab", "baseUrl": "` + base + `", "organizationGUID": "org-a", "auth": {"method": "oauth2", "tokenUrl": "` + tokenURL + `", "clientId": "` + client + `"}`
	}
	tests := []struct {
		name, create, change, wantChange string
	}{
		{"port", basic(spSrv.URL), basic(evil.URL), "baseUrl"},
		{"host", basic(spSrv.URL), basic(strings.Replace(evil.URL, "127.0.0.1", "127.0.0.2", 1)), "baseUrl"},
		{"scheme", basic(spSrv.URL), basic(evilHTTPS), "baseUrl"},
		{"username", basic(spSrv.URL), `{"name": "Lab", "baseUrl": "` + spSrv.URL + `", "auth": {"method": "basic", "username": "someone-else"}`, "auth.username"},
		{"token URL", oauth(spSrv.URL, token.URL, "invite"), oauth(spSrv.URL, evil.URL+"/token", "invite"), "auth.tokenUrl"},
		{"token URL path", oauth(spSrv.URL, token.URL+"/token", "invite"), oauth(spSrv.URL, token.URL+"/other", "invite"), "auth.tokenUrl"},
		{"client id", oauth(spSrv.URL, token.URL, "invite"), oauth(spSrv.URL, token.URL, "another-client"), "auth.clientId"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			evil.reset()
			w := newWorld(t)
			loopbacks := testkit.LoopbackPolicy()
			loopbacks.Allowed.Prefixes = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
			w.Svc.RegistryAdmin.Outbound, w.Svc.RegistryAdmin.Prober.Policy = loopbacks, loopbacks
			reg := "/api/v1/manage/registry/connections"
			if rec := w.do("super", "POST", reg, strings.Replace(tc.create, `"name"`, `"id": "lab-sp", "name"`, 1)+`, "secret": "`+stored+`"}`); rec.Code != 201 {
				t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
			}
			before, _, _ := w.Store.LoadConnection(context.Background(), "lab-sp")
			rec := w.do("instAdmin", "PUT", reg+"/lab-sp", tc.change+"}")
			var body map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			msg, _ := body["message"].(string)
			if rec.Code != 400 || body["status"] != float64(400) || body["path"] != reg+"/lab-sp" ||
				!strings.HasPrefix(msg, "secret must be sent again: "+tc.wantChange) {
				t.Fatalf("change without the credential: %d %s", rec.Code, rec.Body.String())
			}
			after, _, _ := w.Store.LoadConnection(context.Background(), "lab-sp")
			if after.BaseURL != before.BaseURL || !reflect.DeepEqual(after.Auth, before.Auth) {
				t.Fatalf("a refused change changed the connection: %+v", after)
			}
			if rec := w.do("instAdmin", "POST", reg+"/lab-sp/test", ""); rec.Code != 200 {
				t.Fatalf("test: %d %s", rec.Code, rec.Body.String())
			}
			for _, r := range evil.requests() {
				t.Errorf("the listener received %q", r)
			}
			// With the credential sent again, the change is the admin's own.
			rec = w.do("instAdmin", "PUT", reg+"/lab-sp", tc.change+`, "secret": "admin-own-secret"}`)
			if rec.Code != 200 {
				t.Fatalf("change with a credential: %d %s", rec.Code, rec.Body.String())
			}
			w.do("instAdmin", "POST", reg+"/lab-sp/test", "")
			for _, r := range evil.requests() {
				if strings.Contains(r, stored) || strings.Contains(r, "c3VwZXItRW50ZXJlZC1TZWNyZXQtNDcxMQ") {
					t.Errorf("the stored credential reached the listener: %q", r)
				}
			}
		})
	}
}

// TestSuperUserCannotRedirectTheVaultEntryByReference: naming the
// connection's own stored secret by reference while changing its address
// is keeping it, and refused the same way.
func TestSuperUserCannotRedirectTheVaultEntryByReference(t *testing.T) {
	w := newWorld(t)
	evil := newListener(t)
	reg := "/api/v1/manage/registry/connections"
	if rec := w.do("instAdmin", "POST", reg, `{"id": "lab-sp", "baseUrl": "https://lab.example.org/scim", "auth": {"method": "bearer"}, "secret": "admin-Entered-token"}`); rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
	}
	c, _, _ := w.Store.LoadConnection(context.Background(), "lab-sp")
	rec := w.do("super", "PUT", reg+"/lab-sp", `{"baseUrl": "`+evil.URL+`", "organizationGUID": "org-a", "auth": {"method": "bearer", "token": "`+c.Auth.Token+`"}}`)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "secret must be sent again") {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
	w.do("super", "POST", reg+"/lab-sp/test", "")
	if got := evil.requests(); len(got) != 0 {
		t.Fatalf("the listener received %q", got)
	}
}

// envAndVault resolves the world's vault references and, as the resolver
// of a deployment does, env: references from the process environment.
type envAndVault struct {
	vault *testkit.MemoryVault
	env   *secrets.Resolver
}

func (r envAndVault) Resolve(ctx context.Context, ref string) (string, error) {
	if strings.HasPrefix(ref, "env:") {
		return r.env.Resolve(ctx, ref)
	}
	return r.vault.Resolve(ctx, ref)
}

// TestReferencesResolveOnlyInTheConnectionsScope: the import and a super
// user's PUT refuse references to the process environment, to another
// connection's vault entry and to a secret another connection uses, in
// messages that name no secret; a connection stored with such a reference
// (by an import before the rule) is tested without reading it, and its
// listener receives nothing.
func TestReferencesResolveOnlyInTheConnectionsScope(t *testing.T) {
	t.Setenv("BOOTSTRAP_API_TOKEN", "bootstrap-token-value-0123456789abcdef")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-secret-value")
	evil := newListener(t)
	w := newWorld(t)
	w.Svc.RegistryAdmin.Secrets = envAndVault{vault: w.Vault, env: secrets.NewResolver(nil, 0)}
	if rec := w.do("super", "POST", "/api/v1/manage/registry/connections", `{"id": "victim-sp", "baseUrl": "https://v.example.org", "auth": {"method": "bearer"}, "secret": "victim-token"}`); rec.Code != 201 {
		t.Fatal(rec.Body.String())
	}
	victim, _, _ := w.Store.LoadConnection(context.Background(), "victim-sp")
	connOf := func(ref string) string {
		return `{"id": "thief-sp", "baseUrl": "` + evil.URL + `", "auth": {"method": "bearer", "token": "` + ref + `"}}`
	}
	for name, ref := range map[string]string{
		"bootstrap token":            "env:BOOTSTRAP_API_TOKEN",
		"function credentials":       "env:AWS_SECRET_ACCESS_KEY",
		"another connection's entry": victim.Auth.Token,
		"a secret sp-a uses":         "env:WORLD_SP_A",
	} {
		t.Run(name, func(t *testing.T) {
			for _, call := range []struct{ method, path, body string }{
				{"POST", "/api/v1/manage/registry/import", `{"applications": [], "provisionings": [` + connOf(ref) + `]}`},
				{"POST", "/api/v1/manage/registry/connections", connOf(ref)},
			} {
				rec := w.do("super", call.method, call.path, call.body)
				if rec.Code != 400 || !strings.Contains(rec.Body.String(), "auth.token") {
					t.Fatalf("%s %s: %d %s", call.method, call.path, rec.Code, rec.Body.String())
				}
				if b := rec.Body.String(); strings.Contains(b, ref) || strings.Contains(b, "victim") {
					t.Errorf("the refusal names the secret: %s", b)
				}
			}
			if _, found, _ := w.Store.LoadConnection(context.Background(), "thief-sp"); found {
				t.Fatal("a refused import stored the connection")
			}
			// Stored before the rule: the test reads nothing and sends nothing.
			ch := config.Change{Kind: config.KindConnection, ID: "thief-sp", Action: config.ActionImport, By: "old import", At: w.Now}
			conn := config.ProvisioningDoc{ID: "thief-sp", BaseURL: evil.URL, OrganizationGUID: "org-a", Auth: config.AuthDoc{Method: "bearer", Token: ref}}
			if err := w.Store.SaveConnection(context.Background(), conn, true, ch); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = w.Store.DeleteConnection(context.Background(), "thief-sp", ch) }()
			rec := w.do("instAdmin", "POST", "/api/v1/manage/registry/connections/thief-sp/test", "")
			var rep map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &rep)
			if rec.Code != 200 || rep["ok"] != false || strings.Contains(rec.Body.String(), ref) {
				t.Fatalf("test of a stored foreign reference: %d %s", rec.Code, rec.Body.String())
			}
			if got := evil.requests(); len(got) != 0 {
				t.Fatalf("the listener received %q", got)
			}
		})
	}
	// The operator's prefix opens references under it, one connection each.
	w.Svc.RegistryAdmin.ReferencePrefixes = append(w.Svc.RegistryAdmin.ReferencePrefixes, "env:SCIM_SP_")
	ok := `{"applications": [], "provisionings": [{"id": "ext-sp", "baseUrl": "https://ext.example.org", "auth": {"method": "bearer", "token": "env:SCIM_SP_EXT"}}]}`
	if rec := w.do("super", "POST", "/api/v1/manage/registry/import", ok); rec.Code != 200 {
		t.Fatalf("a reference under the operator's prefix: %d %s", rec.Code, rec.Body.String())
	}
	twice := `{"applications": [], "provisionings": [{"id": "ext-2", "baseUrl": "https://e2.example.org", "auth": {"method": "bearer", "token": "env:SCIM_SP_X"}},
	  {"id": "ext-3", "baseUrl": "https://e3.example.org", "auth": {"method": "bearer", "token": "env:SCIM_SP_X"}}]}`
	if rec := w.do("super", "POST", "/api/v1/manage/registry/import", twice); rec.Code != 400 || !strings.Contains(rec.Body.String(), "another connection's secret") {
		t.Fatalf("one secret for two connections: %d %s", rec.Code, rec.Body.String())
	}
}

// rebinding answers a public address for a name the first public times
// and loopback afterwards, as a hostile DNS server does.
type rebinding struct {
	mu     sync.Mutex
	public int
	calls  int
}

func (r *rebinding) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a}, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.calls <= r.public {
		return []netip.Addr{netip.MustParseAddr("93.184.215.14")}, nil
	}
	return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
}

// TestInternalAddressesRefused: without the operator's allow-list,
// addresses of the service's own networks are refused when a connection is
// created, updated or imported (the spec's error body, nothing stored),
// and again when one is called: a stored one (from before the rule) and a
// name that resolves elsewhere by then reach no listener. The allow-list
// opens exactly what it lists.
func TestInternalAddressesRefused(t *testing.T) {
	evil := newListener(t)
	port := evil.URL[strings.LastIndex(evil.URL, ":")+1:]
	w := newWorld(t)
	closed := testkit.LoopbackPolicy()
	closed.Allowed = outbound.Allowlist{}
	closed.AllowHTTP = false
	ra := w.Svc.RegistryAdmin
	ra.Outbound, ra.Prober.Policy = closed, closed
	reg := "/api/v1/manage/registry/connections"
	for _, tc := range []struct{ name, base, tokenURL, want string }{
		{"metadata", "https://169.254.169.254/latest", "", "baseUrl is not allowed"},
		{"loopback", "https://127.0.0.1:" + port, "", "baseUrl is not allowed"},
		{"private", "https://10.0.0.8/scim", "", "baseUrl is not allowed"},
		{"cgnat", "https://100.64.3.2/scim", "", "baseUrl is not allowed"},
		{"ipv4-mapped ipv6", "https://[::ffff:127.0.0.1]:" + port, "", "baseUrl is not allowed"},
		{"ipv6 link-local", "https://[fe80::1]/scim", "", "baseUrl is not allowed"},
		{"decimal", "https://2130706433:" + port, "", "baseUrl is not allowed"},
		{"octal", "https://0177.0.0.1:" + port, "", "baseUrl is not allowed"},
		{"localhost", "https://localhost:" + port, "", "baseUrl is not allowed"},
		{"plain http", "http://sp.example.org/scim", "", "baseUrl is not allowed"},
		{"token endpoint", "https://sp.example.org/scim", "https://169.254.169.254/token", "auth.tokenUrl is not allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			auth := `{"method": "bearer"}`
			if tc.tokenURL != "" {
				auth = `{"method": "oauth2", "tokenUrl": "` + tc.tokenURL + `", "clientId": "c"}`
			}
			conn := `{"id": "scan-sp", "baseUrl": "` + tc.base + `", "auth": ` + auth + `, "secret": "s"}`
			rec := w.do("instAdmin", "POST", reg, conn)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) || !strings.Contains(rec.Body.String(), `"path":"`+reg+`"`) {
				t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
			}
			rec = w.do("instAdmin", "PUT", reg+"/sp-a", `{"baseUrl": "`+tc.base+`", "auth": `+auth+`, "secret": "s"}`)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) {
				t.Fatalf("update: %d %s", rec.Code, rec.Body.String())
			}
			ref := `"token": "env:WORLD_SP_SCAN"`
			if tc.tokenURL != "" {
				ref = `"tokenUrl": "` + tc.tokenURL + `", "clientId": "c", "clientSecret": "env:WORLD_SP_SCAN"`
			}
			rec = w.do("super", "POST", "/api/v1/manage/registry/import", `{"applications": [], "provisionings": [{"id": "scan-sp", "baseUrl": "`+
				tc.base+`", "auth": {"method": "`+map[bool]string{true: "oauth2", false: "bearer"}[tc.tokenURL != ""]+`", `+ref+`}}]}`)
			if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) {
				t.Fatalf("import: %d %s", rec.Code, rec.Body.String())
			}
			if _, found, _ := w.Store.LoadConnection(context.Background(), "scan-sp"); found {
				t.Fatal("a refused address was stored")
			}
		})
	}
	t.Setenv("WORLD_SP_SCAN", "scan-token")
	w.Svc.RegistryAdmin.Secrets = envAndVault{vault: w.Vault, env: secrets.NewResolver(nil, 0)}
	t.Run("stored before the rule", func(t *testing.T) {
		ch := config.Change{Kind: config.KindConnection, ID: "old-sp", Action: config.ActionImport, By: "old import", At: w.Now}
		old := config.ProvisioningDoc{ID: "old-sp", BaseURL: "http://127.0.0.1:" + port, OrganizationGUID: "org-a", Auth: config.AuthDoc{Method: "bearer", Token: "env:WORLD_SP_SCAN"}}
		if err := w.Store.SaveConnection(context.Background(), old, true, ch); err != nil {
			t.Fatal(err)
		}
		rec := w.do("instAdmin", "POST", reg+"/old-sp/test", "")
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"ok":false`) || strings.Contains(rec.Body.String(), "internal answer") {
			t.Fatalf("%d %s", rec.Code, rec.Body.String())
		}
		if got := evil.requests(); len(got) != 0 {
			t.Fatalf("the listener received %q", got)
		}
	})
	t.Run("rebinding", func(t *testing.T) {
		rebound := closed
		rebound.AllowHTTP = true
		// Public when configured and when the test checks the stored
		// address; loopback when the test's dialer looks the name up.
		res := &rebinding{public: 2}
		rebound.Resolver = res
		ra.Outbound, ra.Prober.Policy = rebound, rebound
		conn := `{"id": "rebind-sp", "baseUrl": "http://sp.rebind.example:` + port + `", "auth": {"method": "bearer"}, "secret": "s"}`
		if rec := w.do("instAdmin", "POST", reg, conn); rec.Code != 201 {
			t.Fatalf("a public name at configuration: %d %s", rec.Code, rec.Body.String())
		}
		rec := w.do("instAdmin", "POST", reg+"/rebind-sp/test", "")
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), "cannot be reached: the service does not call this address") || res.calls != 3 {
			t.Fatalf("%d %s (%d lookups)", rec.Code, rec.Body.String(), res.calls)
		}
		if got := evil.requests(); len(got) != 0 {
			t.Fatalf("the listener received %q", got)
		}
	})
	t.Run("allow-list opens one", func(t *testing.T) {
		open := closed
		open.AllowHTTP = true
		open.Allowed, _ = outbound.ParseAllowlist("127.0.0.1")
		ra.Outbound, ra.Prober.Policy = open, open
		conn := `{"id": "campus-sp", "baseUrl": "` + evil.URL + `", "auth": {"method": "bearer"}, "secret": "campus-token"}`
		if rec := w.do("instAdmin", "POST", reg, conn); rec.Code != 201 {
			t.Fatalf("an allowed address: %d %s", rec.Code, rec.Body.String())
		}
		w.do("instAdmin", "POST", reg+"/campus-sp/test", "")
		if got := evil.requests(); len(got) == 0 || !strings.Contains(got[0], "Bearer campus-token") {
			t.Fatalf("the allowed SP received %q", got)
		}
		other := `{"id": "other-sp", "baseUrl": "https://127.0.0.2/scim", "auth": {"method": "bearer"}, "secret": "x"}`
		if rec := w.do("instAdmin", "POST", reg, other); rec.Code != 400 {
			t.Fatalf("an address the list does not name: %d %s", rec.Code, rec.Body.String())
		}
	})
}
