package stack

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/localstack/scimsp"
)

// basicGate fronts a sample SP with a Basic password the test can change,
// as an SP's administrator rotates it, and records the password of every
// request and whether it was let through.
type basicGate struct {
	next        http.Handler
	innerHeader string

	mu       sync.Mutex
	accepted string
	seen     []gateCall
}

type gateCall struct {
	password string
	ok       bool
}

func (g *basicGate) accept(password string) {
	g.mu.Lock()
	g.accepted = password
	g.mu.Unlock()
}

func (g *basicGate) calls() []gateCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]gateCall{}, g.seen...)
}

func (g *basicGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, password, _ := r.BasicAuth()
	g.mu.Lock()
	ok := password != "" && password == g.accepted
	g.seen = append(g.seen, gateCall{password: password, ok: ok})
	g.mu.Unlock()
	if !ok {
		w.Header().Set("Content-Type", "application/scim+json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"status":"401","detail":"bad credentials"}`))
		return
	}
	r.Header.Set("Authorization", g.innerHeader)
	g.next.ServeHTTP(w, r)
}

// captureOutput sends everything the process writes to stdout, stderr and
// the standard logger into a buffer until the test ends, so that a test
// can read every log line of a stack started after it.
func captureOutput(t *testing.T) func() string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	log.SetOutput(w)
	var mu sync.Mutex
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			mu.Lock()
			buf.Write(sc.Bytes())
			buf.WriteByte('\n')
			mu.Unlock()
			_, _ = oldOut.Write(append(sc.Bytes(), '\n')) // still shown with -v
		}
	}()
	t.Cleanup(func() {
		os.Stdout, os.Stderr = oldOut, oldErr
		log.SetOutput(oldErr)
		_ = w.Close()
		<-done
	})
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return buf.String()
	}
}

// TestApplicationRegisteredAtRunTime is issue 16 shown on the stack: a new
// application and a Basic-auth SCIM SP are registered through the API,
// tested, linked to a role; a guest accepts and reaches that SP; the
// password is rotated through the API and the next delivery uses it; a
// wrong password dead-letters, fixing it and replaying clears them. No API
// answer, no table item and no log line of the run holds a password.
func TestApplicationRegisteredAtRunTime(t *testing.T) {
	logs := captureOutput(t)
	f := newLifecycleFixture(t)
	const first, second, wrong = "pw-first-1111aa", "pw-second-2222bb", "pw-wrong-3333cc"
	lab := scimsp.New(scimsp.Options{BasicUser: "sp-admin", BasicPassword: "inner-0000"})
	gate := &basicGate{next: lab.Handler(), innerHeader: "Basic " + base64.StdEncoding.EncodeToString([]byte("sp-admin:inner-0000"))}
	gate.accept(first)
	srv := httptest.NewServer(gate)
	defer srv.Close()

	var answers []string
	call := func(method, path string, body any, want int) []byte {
		t.Helper()
		var b io.Reader
		if body != nil {
			raw, _ := json.Marshal(body)
			b = bytes.NewReader(raw)
		}
		req, _ := http.NewRequest(method, f.s.URL+path, b)
		req.Header.Set("X-API-TOKEN", "e2e-bootstrap-token-0123456789abcdef")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		answers = append(answers, string(out))
		if resp.StatusCode != want {
			t.Fatalf("%s %s = %d, want %d: %s", method, path, resp.StatusCode, want, out)
		}
		return out
	}
	reg := "/api/v1/manage/registry"
	call("POST", reg+"/connections", map[string]any{"id": "lab-sp", "name": "Lab SCIM", "baseUrl": srv.URL, "membership": "PATCH",
		"auth": map[string]any{"method": "basic", "username": "invite"}, "secret": first}, http.StatusCreated)
	call("POST", reg+"/applications", map[string]any{"manageId": "lab-app", "manageType": "SAML20_SP", "name": "Lab", "nameNl": "Lab",
		"landingPage": "https://lab.example.org", "provisionings": []string{"lab-sp"}}, http.StatusCreated)
	var report struct {
		OK                    bool   `json:"ok"`
		RecommendedMembership string `json:"recommendedMembership"`
	}
	if err := json.Unmarshal(call("POST", reg+"/connections/lab-sp/test", nil, http.StatusOK), &report); err != nil || !report.OK || report.RecommendedMembership != "PATCH" {
		t.Fatalf("connection test: %+v %v", report, err)
	}
	for _, c := range gate.calls() {
		if !c.ok {
			t.Fatalf("the connection test did not use the stored password")
		}
	}

	// Linked to a role: the group is created at the new SP; a guest accepts
	// and the user and membership follow.
	role := f.createRole("Lab guests", "lab-app", 30)
	eventually(t, "the role's group at the lab SP", func() bool { return len(lab.Groups()) == 1 })
	f.inviteAndAccept("alice@example.org", "en", "", role)
	eventually(t, "alice and her membership at the lab SP", func() bool { return len(lab.Users()) == 1 && members(lab) == 1 })

	// Rotation: the SP now wants the second password, the API is told so,
	// and the next delivery uses it.
	gate.accept(second)
	before := len(gate.calls())
	call("PUT", reg+"/connections/lab-sp", map[string]any{"baseUrl": srv.URL, "membership": "PATCH",
		"auth": map[string]any{"method": "basic", "username": "invite"}, "secret": second}, http.StatusOK)
	f.inviteAndAccept("bob@example.org", "en", "", role)
	eventually(t, "bob at the lab SP", func() bool { return len(lab.Users()) == 2 && members(lab) == 2 })
	for _, c := range gate.calls()[before:] {
		if c.password != second || !c.ok {
			t.Fatalf("a delivery after the rotation used another password (ok=%v)", c.ok)
		}
	}

	// A wrong password: carol's deliveries dead-letter with the 401.
	call("PUT", reg+"/connections/lab-sp", map[string]any{"baseUrl": srv.URL, "membership": "PATCH",
		"auth": map[string]any{"method": "basic", "username": "invite"}, "secret": wrong}, http.StatusOK)
	f.inviteAndAccept("carol@example.org", "en", "", role)
	type deadLetter struct {
		ID     string `json:"id"`
		Reason string `json:"reason"`
	}
	var failed []deadLetter
	eventually(t, "carol's deliveries dead-lettered", func() bool {
		failed = nil
		_ = json.Unmarshal(call("GET", "/api/v1/system/deliveries/failed?sp=lab-sp", nil, http.StatusOK), &failed)
		return len(failed) == 2
	})
	for _, d := range failed {
		if !strings.Contains(d.Reason, "401") {
			t.Fatalf("dead letter %+v: want the 401 as reason", d)
		}
	}
	if len(lab.Users()) != 2 {
		t.Fatal("carol reached the SP with a wrong password")
	}
	// Fixed and replayed: carol arrives and nothing is left failed.
	call("PUT", reg+"/connections/lab-sp", map[string]any{"baseUrl": srv.URL, "membership": "PATCH",
		"auth": map[string]any{"method": "basic", "username": "invite"}, "secret": second}, http.StatusOK)
	call("POST", "/api/v1/system/deliveries/replay", map[string]any{"sp": "lab-sp"}, http.StatusOK)
	eventually(t, "carol at the lab SP after the replay", func() bool { return len(lab.Users()) == 3 && members(lab) == 3 })
	failed = nil
	_ = json.Unmarshal(call("GET", "/api/v1/system/deliveries/failed?sp=lab-sp", nil, http.StatusOK), &failed)
	if len(failed) != 0 {
		t.Fatalf("still failed after fix and replay: %+v", failed)
	}

	// Every read a person or program makes of the registry.
	for _, path := range []string{reg + "/connections", reg + "/connections/lab-sp", reg + "/applications", reg + "/applications/lab-app",
		reg + "/changes", "/api/v1/manage/provider/PROVISIONING/lab-sp", "/api/v1/manage/applications", "/api/v1/manage/all-applications",
		"/api/v1/manage/providers", "/api/docs/openapi.json", "/api/v1/system/deliveries/failed?sp=lab-sp"} {
		call("GET", path, nil, http.StatusOK)
	}
	if !strings.Contains(answers[len(answers)-7], `"secretChanged":true`) {
		t.Errorf("the changes do not record the credential writes: %.400s", answers[len(answers)-7])
	}
	// The secret is in Secrets Manager (one, under the prefix) ...
	if names := f.s.Secrets.Names(); !containsString(names, "invite/scim-connections/lab-sp") {
		t.Fatalf("secrets held: %v", names)
	}
	// ... and nowhere else: not in an answer, a table item or a log line.
	items := scanTable(t, f)
	lines := logs()
	if !strings.Contains(lines, "registry changed") {
		t.Fatal("the log capture missed the stack's log lines")
	}
	for _, secret := range []string{first, second, wrong} {
		for _, a := range answers {
			if strings.Contains(a, secret) {
				t.Errorf("an API answer holds a password: %.300s", a)
			}
		}
		if strings.Contains(items, secret) {
			t.Errorf("a table item holds a password")
		}
		if strings.Contains(lines, secret) {
			t.Errorf("a log line holds a password")
		}
	}
}

func scanTable(t *testing.T, f *lifecycleFixture) string {
	t.Helper()
	var all strings.Builder
	in := &dynamodb.ScanInput{TableName: aws.String(f.s.App.Settings.TableName)}
	for {
		out, err := f.s.App.DynamoDB.Scan(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			b, _ := json.Marshal(it)
			all.Write(b)
		}
		if len(out.LastEvaluatedKey) == 0 {
			return all.String()
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
