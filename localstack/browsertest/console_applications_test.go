package browsertest

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// TestConsoleApplications: a super user opens /console/applications (the
// sample application and its SCIM connection, no secret), opens the
// connection and tests it: the report says reachable and credentials
// accepted; both pages pass axe. A guest gets 403 on the page, the
// connection and the test POST.
func TestConsoleApplications(t *testing.T) {
	role := roleInOrg(t, "Apps", "org-apps")
	super := makePerson(t, "Sam Apps", "sam.apps@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	guest := makePerson(t, "Gil Apps", "gil.apps@example.org", role, "GUEST", nil)
	ctx := consoleSignIn(t, super.person, "en")
	if got := open(t, ctx, stk.URL+"/console/applications"); got != http.StatusOK {
		t.Fatalf("applications page = %d at %s", got, location(t, ctx))
	}
	if got := text(t, ctx, "#applications tbody"); !strings.Contains(got, "Sample application") || !strings.Contains(got, "https://sample.example.org") || !strings.Contains(got, "Sample SCIM SP") {
		t.Errorf("applications = %q", got)
	}
	if got := text(t, ctx, "#connections tbody"); !strings.Contains(got, "bearer") || !strings.Contains(got, "PATCH") || !strings.Contains(got, "Configured (never shown)") {
		t.Errorf("connections = %q", got)
	}
	checkAxe(t, ctx)
	if got := click(t, ctx, `#connections a[href="/console/connections/sample-sp"]`); got != http.StatusOK {
		t.Fatalf("connection page = %d", got)
	}
	checkAxe(t, ctx)
	if got := click(t, ctx, "#test-connection"); got != http.StatusOK {
		t.Fatalf("test connection = %d", got)
	}
	report := text(t, ctx, "#report")
	for _, want := range []string{"The connection works", "Reachable Yes", "Credentials accepted Yes", "Supports PATCH Yes"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	checkAxe(t, ctx)

	// The secret set here is stored in Secrets Manager; afterwards the
	// env: reference comes back (other tests revoke the token through the
	// environment), through the registry import.
	var before map[string]any
	if got := api(t, "GET", "/api/v1/manage/registry/connections/sample-sp", nil, &before); got != http.StatusOK {
		t.Fatalf("read connection = %d", got)
	}
	t.Cleanup(func() {
		c := map[string]any{}
		for _, k := range []string{"id", "name", "baseUrl", "version", "membership", "userIdentifier"} {
			c[k] = before[k]
		}
		c["auth"] = map[string]any{"method": "bearer", "token": "env:SAMPLE_SP_TOKEN"}
		doc := map[string]any{"provisionings": []any{c}}
		if got := api(t, "POST", "/api/v1/manage/registry/import", doc, nil); got != http.StatusOK {
			t.Errorf("restore the env: reference = %d", got)
		}
	})
	// A wrong secret: the test then says the credentials are refused.
	testWith := func(secret string) string {
		t.Helper()
		if got := open(t, ctx, stk.URL+"/console/connections/sample-sp/edit"); got != http.StatusOK {
			t.Fatalf("edit form = %d", got)
		}
		if v := attr(t, ctx, "#secret", "value"); v != "" {
			t.Errorf("the secret field shows %q", v)
		}
		setValue(t, ctx, "#secret", secret)
		if got := click(t, ctx, "#save"); got != http.StatusOK {
			t.Fatalf("save = %d", got)
		}
		click(t, ctx, "#test-connection")
		return text(t, ctx, "#report")
	}
	if got := testWith("wrong-token"); !strings.Contains(got, "Credentials accepted No") {
		t.Errorf("with a wrong secret the report = %q", got)
	}
	if got := testWith(os.Getenv("SAMPLE_SP_TOKEN")); !strings.Contains(got, "Credentials accepted Yes") {
		t.Errorf("with the secret set back the report = %q", got)
	}
	// A wrong field: a message beside it, what was typed kept.
	open(t, ctx, stk.URL+"/console/connections/sample-sp/edit")
	setValue(t, ctx, "#baseUrl", "not a url")
	if got := click(t, ctx, "#save"); got != http.StatusBadRequest || text(t, ctx, "#baseUrl-error") == "" || attr(t, ctx, "#baseUrl", "value") != "not a url" {
		t.Errorf("a wrong base URL = %d", got)
	}
	checkAxe(t, ctx)

	gc := newSessionClient(t, consoleSignIn(t, guest.person, "en"))
	for _, c := range []struct {
		method, path string
		form         url.Values
	}{{"GET", "/console/applications", nil}, {"GET", "/console/connections/sample-sp", nil}, {"POST", "/console/connections/sample-sp/test", url.Values{}},
		{"GET", "/console/connections/sample-sp/edit", nil}, {"POST", "/console/connections/sample-sp/edit", url.Values{"name": {"Hijacked"}, "baseUrl": {"https://evil.example.org/scim"}, "secret": {"x"}}}} {
		if got, body := gc.do(t, c.method, c.path, c.form); got != http.StatusForbidden || strings.Contains(body, "Sample SCIM SP") {
			t.Errorf("guest %s %s = %d, want 403", c.method, c.path, got)
		}
	}
	var conn struct {
		Name, BaseURL string
	}
	if got := api(t, "GET", "/api/v1/manage/registry/connections/sample-sp", nil, &conn); got != http.StatusOK {
		t.Fatalf("read connection = %d", got)
	}
	if conn.Name != "Sample SCIM SP" || strings.Contains(conn.BaseURL, "evil") {
		t.Errorf("after the guest's POST the connection = %+v", conn)
	}
}
