//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
)

const superUser = "admin@parity.example.org"

// scimSP is a SCIM SP at a loopback address whose first user creations
// fail with 503, as an SP in a short outage does.
type scimSP struct {
	SP       *scimsp.SP
	URL      string
	failLeft atomic.Int32
}

func startSCIMSP(t *testing.T, token string) *scimSP {
	t.Helper()
	s := &scimSP{SP: scimsp.New(scimsp.Options{BearerToken: token})}
	inner := s.SP.Handler()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/Users") && s.failLeft.Add(-1) >= 0 {
			http.Error(w, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"503"}`, http.StatusServiceUnavailable)
			return
		}
		inner.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	s.URL = "http://" + ln.Addr().String()
	return s
}

// TestConsoleToSP is the console's whole path in the deployed shape: a
// super user saves and tests a SCIM connection, makes an application and
// a role, invites a guest by e-mail; the guest accepts and reaches the SP
// through the queue, the provisioner backing off once.
func TestConsoleToSP(t *testing.T) {
	noDenials(t)
	const token = "parity-sp-token-0123456789"
	sp := startSCIMSP(t, token)
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")

	// A connection saved from the console: its credential becomes a
	// secret that the web function writes.
	code, page, _ := admin.post("/console/connections/new", url.Values{"id": {"parity-sp"}, "name": {"Parity SP"},
		"baseUrl": {sp.URL}, "version": {"v1"}, "method": {"bearer"}, "secret": {token}, "membership": {"PATCH"},
		"userIdentifier": {"eduPersonPrincipalName"}, "ratePerSecond": {"20"}, "timeoutSeconds": {"10"}})
	if code != http.StatusOK || !strings.Contains(page, "Parity SP") {
		t.Fatalf("save the connection: %d %.800s", code, textOf(page))
	}
	if !hasSecret("invite/scim-connections/") {
		t.Fatalf("no connection secret was written; secrets: %v", env.Secrets.Names())
	}
	code, page, _ = admin.post("/console/connections/parity-sp/test", url.Values{})
	if code != http.StatusOK || strings.Contains(page, "AccessDenied") || strings.Contains(page, "not authorized") {
		t.Fatalf("test the connection: %d %.800s", code, textOf(page))
	}
	if n := len(sp.SP.Requests()); n == 0 {
		t.Fatal("testing the connection sent nothing to the SP")
	}
	// A connection deleted from the console takes its secret with it.
	code, page, _ = admin.post("/console/connections/new", url.Values{"id": {"parity-spare"}, "name": {"Spare SP"},
		"baseUrl": {sp.URL}, "version": {"v1"}, "method": {"bearer"}, "secret": {"spare-token-0123456789"}, "membership": {"PATCH"},
		"userIdentifier": {"eduPersonPrincipalName"}})
	if code != http.StatusOK || !hasSecret("invite/scim-connections/parity-spare") {
		t.Fatalf("save the spare connection: %d %.500s", code, textOf(page))
	}
	code, page, _ = admin.post("/console/connections/parity-spare/delete", url.Values{})
	if code != http.StatusOK || hasSecret("invite/scim-connections/parity-spare") {
		t.Fatalf("delete the spare connection: %d, secrets %v: %.500s", code, env.Secrets.Names(), textOf(page))
	}

	code, page, _ = admin.post("/console/applications/new", url.Values{"manageId": {"parity-app"}, "manageType": {"OIDC10_RP"},
		"name": {"Parity app"}, "nameNl": {"Parity app"}, "organizationName": {"Parity"}, "organizationNameNl": {"Parity"},
		"landingPage": {"https://app.parity.example.org"}, "organizationGUID": {"org-parity"}, "provisionings": {"parity-sp"}})
	if code != http.StatusOK || !strings.Contains(page, "Parity app") {
		t.Fatalf("save the application: %d %.800s", code, textOf(page))
	}
	code, page, at := admin.post("/console/roles/new", url.Values{"name": {"Parity role"}, "description": {"Guests of the parity test"},
		"days": {"30"}, "organization": {"org-parity"}, "app0": {"on"}, "landing0": {"https://app.parity.example.org"}})
	roleID := regexp.MustCompile(`^/console/roles/(\d+)$`).FindStringSubmatch(at.Path)
	if code != http.StatusOK || roleID == nil {
		t.Fatalf("create the role: %d at %s: %.800s", code, at, textOf(page))
	}

	// The invitation is e-mailed: the SES substitute receives it.
	guest := "guest@parity.example.org"
	code, page, _ = admin.post("/console/invite", url.Values{"role": {roleID[1]}, "authority": {"GUEST"},
		"recipients": {guest}, "language": {"en"}, "expiry": {time.Now().AddDate(0, 0, 14).Format("2006-01-02")}})
	if code != http.StatusCreated {
		t.Fatalf("invite: %d %.800s", code, textOf(page))
	}
	link := waitForMailLink(t, guest)

	// The guest accepts; the provisioner creates the user at the SP after
	// one 503, backing off through the work queue.
	sp.failLeft.Store(1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	poller, err := env.SQSPoller("provisioner", 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = poller.Run(ctx) }()
	defer func() { cancel(); <-done }()

	g := newBrowser(t)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	g.signIn(guest, u.RequestURI())
	code, page, _ = g.post("/invitation/accept", url.Values{"hash": {u.Query().Get("hash")}})
	if code != http.StatusOK {
		t.Fatalf("accept: %d %.800s", code, textOf(page))
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(sp.SP.Users()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the guest never reached the SP; SP requests: %d", len(sp.SP.Requests()))
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The guest's page in the console lists the accepted invitation, read
	// by the guest's address (gsi2 INVPERSON#) with the web function's role.
	code, page = admin.get("/console/people?q=" + url.QueryEscape(guest))
	person := regexp.MustCompile(`/console/people/(\d+)`).FindStringSubmatch(page)
	if code != http.StatusOK || person == nil {
		t.Fatalf("people search for the guest: %d %.800s", code, textOf(page))
	}
	if code, page = admin.get("/console/people/" + person[1]); code != http.StatusOK ||
		!strings.Contains(page, `data-invitation="`+guest+`" data-state="accepted"`) {
		t.Errorf("the guest's page: %d, want the accepted invitation: %.800s", code, textOf(page))
	}
	backoffs := env.Log.Calls("provisioner", "sqs:ChangeMessageVisibility")
	applied := false
	for _, c := range backoffs {
		if c.Body["QueueUrl"] == env.QueueURL {
			applied = true
		}
	}
	if !applied {
		t.Errorf("the provisioner did not back off through the work queue (%s): %d visibility changes", env.QueueURL, len(backoffs))
	}

	// The SP loses its data; an on-demand reconcile through the API
	// answers 202 at once, runs in the reconcile function and repairs it.
	sp.SP.Reset()
	reconcileThroughAPI(t, "parity-sp")
	if len(sp.SP.Users()) != 1 {
		t.Errorf("after the reconcile the SP has %d users, want the guest", len(sp.SP.Users()))
	}

	// The same from the console: the web function starts a planned run in
	// the reconcile function and shows its job until it is finished.
	code, page, at = admin.post("/console/operations/reconcile", url.Values{"sp": {"parity-sp"}})
	if code != http.StatusOK || !strings.HasPrefix(at.Path, "/console/operations/reconcile/") {
		t.Fatalf("console reconcile: %d at %s: %.800s", code, at, textOf(page))
	}
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(page, `data-status="succeeded"`); {
		if strings.Contains(page, `data-status="failed"`) || time.Now().After(deadline) {
			t.Fatalf("console reconcile job: %.800s", textOf(page))
		}
		time.Sleep(300 * time.Millisecond)
		_, page = admin.get(at.Path)
	}
	if !strings.Contains(page, "Users compared") {
		t.Errorf("the finished job shows no counts: %.800s", textOf(page))
	}
}

// reconcileThroughAPI starts a reconcile of the SP as a super user and
// polls its job until it is done.
func reconcileThroughAPI(t *testing.T, spID string) {
	t.Helper()
	code, started := superUserCall(t, http.MethodPost, "/api/v1/system/deliveries/reconcile", `{"sp":"`+spID+`","dryRun":false}`)
	statusURL, _ := started["statusUrl"].(string)
	if code != http.StatusAccepted || statusURL == "" {
		t.Fatalf("reconcile: %d %v, want 202 with a job", code, started)
	}
	if job := pollJob(t, statusURL); job["status"] != "succeeded" {
		t.Fatalf("reconcile job %v", job)
	}
}

// superUserCall sends an API request through the gateway with the super
// user's access token and decodes the JSON answer.
func superUserCall(t *testing.T, method, path, body string) (int, map[string]any) {
	t.Helper()
	token, err := env.IdP.Mint(map[string]any{"sub": "urn:collab:person:" + superUser, "eduperson_principal_name": superUser},
		env.Functions["system"].Env["OIDC_AUDIENCE"], time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(method, env.Dep.GatewayURL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := env.Gateway.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	_ = json.Unmarshal([]byte(readAll(t, resp)), &out)
	return resp.StatusCode, out
}

// pollJob polls a job's status URL until it is neither queued nor
// running, and answers it.
func pollJob(t *testing.T, statusURL string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		code, job := superUserCall(t, http.MethodGet, statusURL, "")
		if code != http.StatusOK {
			t.Fatalf("poll %s: %d %v", statusURL, code, job)
		}
		if job["status"] != "queued" && job["status"] != "running" {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job at %s is still %v after a minute", statusURL, job["status"])
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func hasSecret(prefix string) bool {
	for _, n := range env.Secrets.Names() {
		if strings.HasPrefix(n, prefix) {
			return true
		}
	}
	return false
}

var acceptLink = regexp.MustCompile(`https://[^\s"<>]+/invitation/accept\?hash=[A-Za-z0-9_%-]+`)

// waitForMailLink waits for the invitation mail to the address at the SES
// substitute and returns its link.
func waitForMailLink(t *testing.T, to string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		mails, err := env.SES.Mails(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mails {
			for _, addr := range m.To {
				if strings.Contains(addr, to) {
					if l := acceptLink.FindString(m.Text + m.HTML); l != "" {
						return strings.ReplaceAll(l, "&amp;", "&")
					}
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no invitation mail to %s reached the SES substitute (%d mails)", to, len(mails))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var tags = regexp.MustCompile(`(?s)<script.*?</script>|<style.*?</style>|<[^>]+>`)

// textOf is a page's text, for failure messages.
func textOf(page string) string {
	return strings.Join(strings.Fields(tags.ReplaceAllString(page, " ")), " ")
}
