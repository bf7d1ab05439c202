package browsertest

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
)

// TestConsoleRegistryForms: a super user creates a SCIM connection to the
// sample SCIM SP and an application using it through the console's forms,
// tests the connection (credentials accepted), changes both, and deletes
// both after the confirmation step; a wrong field shows its message; every
// form, in English and Dutch, passes axe. The typed secret appears on no
// page.
func TestConsoleRegistryForms(t *testing.T) {
	role := roleInOrg(t, "Registry forms", "org-regforms")
	super := makePerson(t, "Rita Registry", "rita.registry@example.org", role, "GUEST", func(u *domain.User) { u.SuperUser = true })
	var sample map[string]any
	if got := api(t, "GET", "/api/v1/manage/registry/connections/sample-sp", nil, &sample); got != http.StatusOK {
		t.Fatalf("read the sample connection = %d", got)
	}
	token := os.Getenv("SAMPLE_SP_TOKEN")
	if token == "" {
		t.Fatal("SAMPLE_SP_TOKEN is not set by the stack")
	}
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e9)
	connID, appID := "bt-sp-"+suffix, "bt-app-"+suffix
	ctx := consoleSignIn(t, super.person, "en")
	noSecret := func(where string) {
		t.Helper()
		html, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
		must(t, err)
		if strings.Contains(html, token) {
			t.Errorf("%s shows the secret", where)
		}
	}

	// Create the connection.
	if got := open(t, ctx, stk.URL+"/console/applications"); got != http.StatusOK {
		t.Fatalf("applications = %d", got)
	}
	if got := click(t, ctx, "#new-connection"); got != http.StatusOK {
		t.Fatalf("new connection form = %d", got)
	}
	checkAxe(t, ctx)
	setValue(t, ctx, "#id", connID)
	setValue(t, ctx, "#name", "Browser SP "+suffix)
	setValue(t, ctx, "#baseUrl", "not a url")
	setValue(t, ctx, "#version", fmt.Sprint(sample["version"]))
	setValue(t, ctx, "#secret", token)
	if got := click(t, ctx, "#save"); got != http.StatusBadRequest || !strings.Contains(text(t, ctx, "#baseUrl-error"), "SCIM base address") {
		t.Fatalf("a wrong base URL = %d", got)
	}
	screenshot(t, ctx, "console-connection-form.png", 1024)
	if v := attr(t, ctx, "#secret", "value"); v != "" || attr(t, ctx, "#id", "value") != connID {
		t.Errorf("after the error: secret %q, id %q", v, attr(t, ctx, "#id", "value"))
	}
	noSecret("the refused form")
	checkAxe(t, ctx)
	setValue(t, ctx, "#baseUrl", fmt.Sprint(sample["baseUrl"]))
	setValue(t, ctx, "#secret", token)
	if got := click(t, ctx, "#save"); got != http.StatusOK || !strings.Contains(location(t, ctx), "/console/connections/"+connID) {
		t.Fatalf("create connection = %d at %s", got, location(t, ctx))
	}
	noSecret("the new connection's page")
	if got := click(t, ctx, "#test-connection"); got != http.StatusOK {
		t.Fatalf("test connection = %d", got)
	}
	if report := text(t, ctx, "#report"); !strings.Contains(report, "Reachable Yes") || !strings.Contains(report, "Credentials accepted Yes") {
		t.Errorf("report = %q", report)
	}
	checkAxe(t, ctx)

	// Change it: a new name; the empty secret field keeps the credential.
	click(t, ctx, "#edit-connection")
	if v := attr(t, ctx, "#secret", "value"); v != "" {
		t.Errorf("the edit form shows a secret")
	}
	setValue(t, ctx, "#name", "Renamed SP "+suffix)
	if got := click(t, ctx, "#save"); got != http.StatusOK || text(t, ctx, "h1") != "Renamed SP "+suffix {
		t.Fatalf("save connection = %d, h1 %q", got, text(t, ctx, "h1"))
	}
	click(t, ctx, "#test-connection")
	if report := text(t, ctx, "#report"); !strings.Contains(report, "Credentials accepted Yes") {
		t.Errorf("after the change the report = %q", report)
	}

	// Create the application, linked to the connection, then change it.
	open(t, ctx, stk.URL+"/console/applications/new")
	checkAxe(t, ctx)
	setValue(t, ctx, "#manageId", appID)
	setValue(t, ctx, "#name", "Browser app "+suffix)
	setValue(t, ctx, "#nameNl", "Browser-app "+suffix)
	setValue(t, ctx, "#landingPage", "https://browser-app.example.org")
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector('input[name="provisionings"][value=%q]').checked = true)`, connID)))
	must(t, err)
	if got := click(t, ctx, "#save"); got != http.StatusOK {
		t.Fatalf("create application = %d", got)
	}
	if got := text(t, ctx, "#applications tbody"); !strings.Contains(got, "Browser app "+suffix) || !strings.Contains(got, "Renamed SP "+suffix) {
		t.Errorf("applications = %q", got)
	}
	checkAxe(t, ctx)
	open(t, ctx, stk.URL+"/console/applications/"+appID+"/edit")
	setValue(t, ctx, "#name", "Changed app "+suffix)
	if got := click(t, ctx, "#save"); got != http.StatusOK || !strings.Contains(text(t, ctx, "#applications tbody"), "Changed app "+suffix) {
		t.Errorf("change application = %d", got)
	}

	// The same pages in Dutch pass axe too.
	nl := consoleSignIn(t, super.person, "nl")
	for _, path := range []string{"/console/applications", "/console/applications/new", "/console/connections/new",
		"/console/applications/" + appID + "/edit", "/console/connections/" + connID + "/edit", "/console/connections/" + connID,
		"/console/applications/" + appID + "/delete"} {
		if got := open(t, nl, stk.URL+path+"?lang=nl"); got != http.StatusOK {
			t.Errorf("nl %s = %d", path, got)
			continue
		}
		checkAxe(t, nl)
	}
	open(t, nl, stk.URL+"/console/connections/"+connID+"/edit?lang=nl")
	setValue(t, nl, "#timeoutSeconds", "tien")
	if got := click(t, nl, "#save"); got != http.StatusBadRequest || !strings.Contains(text(t, nl, "#timeoutSeconds-error"), "seconden") {
		t.Errorf("nl: a wrong timeout = %d", got)
	}
	checkAxe(t, nl)

	// Delete: the connection is in use first (said in words), then the
	// application and the connection go after their confirmation.
	open(t, ctx, stk.URL+"/console/connections/"+connID+"/delete")
	checkAxe(t, ctx)
	if got := click(t, ctx, "#confirm-delete"); got != http.StatusConflict || !strings.Contains(text(t, ctx, "#refusal"), "applications use it") {
		t.Errorf("deleting a connection in use = %d", got)
	}
	checkAxe(t, ctx)
	open(t, ctx, stk.URL+"/console/applications/"+appID+"/delete")
	if got := click(t, ctx, "#confirm-delete"); got != http.StatusOK || strings.Contains(text(t, ctx, "main"), "Changed app "+suffix) {
		t.Errorf("delete application = %d", got)
	}
	open(t, ctx, stk.URL+"/console/connections/"+connID+"/delete")
	if got := click(t, ctx, "#confirm-delete"); got != http.StatusOK || strings.Contains(text(t, ctx, "main"), "Renamed SP "+suffix) {
		t.Errorf("delete connection = %d", got)
	}
	noSecret("the applications page")
}
