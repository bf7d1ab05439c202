package stack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/scim"
)

// killedGuests is the size of the burst of acceptances the stack is killed in.
const killedGuests = 200

// `make run` is killed with SIGKILL in the middle of a burst of
// acceptances and started again on the same data: every membership the
// service confirmed is in the table and reaches the sample SP (re-queued at
// start, or sent by the outbox sweep), guests whose answer was lost accept
// again, and in the end the SP holds every user and every member exactly
// once.
func TestKillDuringAcceptancesLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs `make run` twice")
	}
	if _, err := exec.LookPath("java"); err != nil && !substitutes.InCI() {
		t.Skipf("skipping: java is not installed (with CI=true this fails): %v", err)
	}
	dir, err := substitutes.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if err := substitutes.EnsureNodeModules(dir); err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(dir)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "localstack")
	build := exec.Command("go", "build", "-o", bin, "./localstack/cmd/localstack")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := &localRun{t: t, bin: bin, root: root, dataDir: filepath.Join(tmp, "data"), logPath: filepath.Join(tmp, "stack.log"), port: freePort(t)}
	admin := map[string]string{"X-API-TOKEN": "kill-test-token-0123456789abcdef0123"}

	began := time.Now()
	run.start()
	t.Logf("started in %v", time.Since(began).Round(time.Second))
	c := client{t: t, base: run.url()}
	var role struct {
		ID int64 `json:"id"`
	}
	if got := c.do("POST", "/api/v1/roles", admin, map[string]any{"name": "Burst", "organizationGUID": "org-e2e", "defaultExpiryDays": 30,
		"applicationUsages": []any{map[string]any{"application": map[string]any{"manageId": "sample-app"}}}}, &role); got != http.StatusCreated {
		t.Fatalf("create role = %d", got)
	}
	// One request invites them all (what is tested is the burst of
	// acceptances; 200 requests of one took longer than the burst), without
	// mails, which nobody reads here.
	emails := make([]string, killedGuests)
	for i := range emails {
		emails[i] = guestEmail(i)
	}
	var res struct {
		URLs []struct {
			Recipient     string `json:"recipient"`
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
		IDs []int64 `json:"invitationIdentifiers"`
	}
	if got := c.do("POST", "/api/external/v1/invitations", admin, map[string]any{"intendedAuthority": "GUEST",
		"invites": emails, "roleIdentifiers": []int64{role.ID}, "suppressSendingEmails": true,
		"expiryDate": time.Now().Add(24 * time.Hour).Unix()}, &res); got != http.StatusCreated || len(res.URLs) != killedGuests || len(res.IDs) != killedGuests {
		t.Fatalf("invite %d guests = %d: %d links, %d ids", killedGuests, got, len(res.URLs), len(res.IDs))
	}
	hashes := make([]string, killedGuests)
	ids := make([]int64, killedGuests)
	for k, u := range res.URLs {
		var i int
		if _, err := fmt.Sscanf(u.Recipient, "guest%03d@example.org", &i); err != nil || i < 0 || i >= killedGuests || hashes[i] != "" {
			t.Fatalf("invitation link for %q", u.Recipient)
		}
		hashes[i] = linkPattern.FindStringSubmatch(u.InvitationURL)[1]
		ids[i] = res.IDs[k]
	}
	tokens := make([]string, killedGuests)
	inParallel(killedGuests, func(i int) { tokens[i] = run.token(i) })
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("invited %d guests after %v", killedGuests, time.Since(began).Round(time.Second))

	// The burst: eight guests at a time; SIGKILL once 80 are confirmed.
	confirmed := make([]atomic.Bool, killedGuests)
	var done atomic.Int64
	var killOnce sync.Once
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				status, err := run.accept(tokens[i], hashes[i], ids[i])
				if err != nil {
					continue // killed while asking: the answer is lost
				}
				if status != http.StatusCreated {
					t.Errorf("accept %d = %d", i, status)
					continue
				}
				confirmed[i].Store(true)
				if done.Add(1) >= 80 {
					killOnce.Do(func() {
						t.Logf("the SP held %d members just before the kill", len(run.spMembers()))
						run.kill()
					})
				}
			}
		}()
	}
	for i := 0; i < killedGuests; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	killOnce.Do(run.kill) // in case the burst ended first
	t.Logf("killed after %d confirmed acceptances, %v", done.Load(), time.Since(began).Round(time.Second))

	run.start()
	restartedAt := time.Now()
	t.Logf("restarted after %v", time.Since(began).Round(time.Second))
	c = client{t: t, base: run.url()}
	// Before any guest tries again, every confirmed membership reaches the
	// SP: re-queued at start, as the in-memory queue lost it.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		atSP := run.spMembers()
		missing := 0
		for i := range confirmed {
			if confirmed[i].Load() && !atSP[guestEmail(i)] {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d confirmed memberships are not at the SP three minutes after the restart; log:\n%s", missing, run.log())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("every confirmed membership was at the SP %v after the restart", time.Since(restartedAt).Round(100*time.Millisecond))

	var retried atomic.Int64
	inParallel(killedGuests, func(i int) {
		if confirmed[i].Load() {
			return
		}
		retried.Add(1)
		status, err := run.accept(run.token(i), hashes[i], ids[i])
		if err != nil || (status != http.StatusCreated && status != http.StatusConflict) {
			t.Errorf("accept %d again = %d, %v", i, status, err)
		}
	})
	t.Logf("%d guests accepted again after the restart", retried.Load())
	restarted := time.Now()

	// The table: one membership per guest.
	var members []struct {
		UserInfo struct {
			Email string `json:"email"`
		} `json:"userInfo"`
	}
	if got := c.do("GET", fmt.Sprintf("/api/v1/user_roles/roles/%d", role.ID), admin, nil, &members); got != http.StatusOK {
		t.Fatalf("members = %d", got)
	}
	seen := map[string]int{}
	for _, m := range members {
		seen[m.UserInfo.Email]++
	}
	for i := 0; i < killedGuests; i++ {
		if seen[guestEmail(i)] != 1 {
			t.Errorf("%s has %d memberships, want 1 (confirmed before the kill: %v)", guestEmail(i), seen[guestEmail(i)], confirmed[i].Load())
		}
	}

	// The SP: every user and every member exactly once.
	var state struct {
		Users  []scim.User  `json:"users"`
		Groups []scim.Group `json:"groups"`
	}
	deadline = time.Now().Add(3 * time.Minute)
	for {
		state.Users, state.Groups = nil, nil
		if got := c.do("GET", "/scim-sp/state", nil, nil, &state); got != http.StatusOK {
			t.Fatalf("SP state = %d", got)
		}
		if len(state.Users) >= killedGuests && len(state.Groups) == 1 && len(state.Groups[0].Members) >= killedGuests {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the SP holds %d users and %d groups (members %v) three minutes after the restart; log:\n%s",
				len(state.Users), len(state.Groups), state.Groups, run.log())
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("the SP had every user and member %v after the retries", time.Since(restarted).Round(time.Second))
	users := map[string]string{}
	for _, u := range state.Users {
		if _, dup := users[u.UserName]; dup {
			t.Errorf("the SP holds %s twice", u.UserName)
		}
		users[u.UserName] = u.ID
	}
	if len(state.Users) != killedGuests {
		t.Errorf("the SP holds %d users, want %d", len(state.Users), killedGuests)
	}
	memberIDs := map[string]int{}
	for _, m := range state.Groups[0].Members {
		memberIDs[m.Value]++
	}
	for i := 0; i < killedGuests; i++ {
		if id, ok := users[guestEmail(i)]; !ok || memberIDs[id] != 1 {
			t.Errorf("%s: at the SP %v, member %d times, want once", guestEmail(i), ok, memberIDs[id])
		}
	}
	if len(state.Groups[0].Members) != killedGuests {
		t.Errorf("the group has %d members, want %d", len(state.Groups[0].Members), killedGuests)
	}
}

// inParallel calls f(0) … f(n-1), eight at a time.
func inParallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func guestEmail(i int) string { return fmt.Sprintf("guest%03d@example.org", i) }

// localRun is `make run` as a process of its own, started and killed by a test.
type localRun struct {
	t       *testing.T
	bin     string
	root    string
	dataDir string
	logPath string
	port    int
	cmd     *exec.Cmd
}

func (r *localRun) url() string { return fmt.Sprintf("http://127.0.0.1:%d", r.port) }

// start runs the binary with the environment of a fresh shell and waits
// for /health.
func (r *localRun) start() {
	r.t.Helper()
	logFile, err := os.OpenFile(r.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	defer logFile.Close()
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "AWS_") && !stackEnv[k] {
			env = append(env, kv)
		}
	}
	env = append(env, fmt.Sprintf("PORT=%d", r.port), "LOCAL_DATA_DIR="+r.dataDir, "BOOTSTRAP_API_TOKEN=kill-test-token-0123456789abcdef0123",
		sampleSPTokenEnv+"=kill-test-sp-token", "LOG_LEVEL=warn")
	cmd := exec.Command(r.bin)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.root, env, logFile, logFile
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.cmd = cmd
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	r.t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); <-exited })
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get(r.url() + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-exited:
			r.t.Fatalf("the stack exited while starting; log:\n%s", r.log())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the stack did not answer /health in time; log:\n%s", r.log())
		}
	}
}

// stackEnv are the variables the stack reads; a developer's shell may set
// them, the test must not inherit them.
var stackEnv = map[string]bool{"TABLE_NAME": true, "APPLICATIONS_CONFIG": true, "APPLICATIONS_CONFIG_FILE": true,
	"OIDC_ISSUER": true, "OIDC_AUDIENCE": true, "PUBLIC_BASE_URL": true, "PORT": true, "LOCAL_DATA_DIR": true,
	"BOOTSTRAP_API_TOKEN": true, sampleSPTokenEnv: true, "LOG_LEVEL": true, "REMINDER_DAYS": true}

// spMembers are the e-mail addresses (userName) of the users in a group at
// the sample SP.
func (r *localRun) spMembers() map[string]bool {
	r.t.Helper()
	var state struct {
		Users  []scim.User  `json:"users"`
		Groups []scim.Group `json:"groups"`
	}
	resp, err := http.Get(r.url() + "/scim-sp/state")
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&state); err != nil {
		r.t.Fatal(err)
	}
	names := map[string]string{}
	for _, u := range state.Users {
		names[u.ID] = u.UserName
	}
	out := map[string]bool{}
	for _, g := range state.Groups {
		for _, m := range g.Members {
			out[names[m.Value]] = true
		}
	}
	return out
}

func (r *localRun) kill() {
	_ = r.cmd.Process.Signal(syscall.SIGKILL)
	_, _ = r.cmd.Process.Wait()
}

func (r *localRun) log() string {
	b, _ := os.ReadFile(r.logPath)
	if len(b) > 8000 {
		b = b[len(b)-8000:]
	}
	return string(b)
}

// token is a bearer token of guest i from the stack's development IdP.
func (r *localRun) token(i int) string {
	r.t.Helper()
	email := guestEmail(i)
	body, _ := json.Marshal(map[string]any{"sub": "sub-" + email, "eduperson_principal_name": email, "email": email,
		"given_name": "Guest", "family_name": fmt.Sprint("Number ", i), "aud": "invite"})
	resp, err := http.Post(r.url()+"/idp/token", "application/json", bytes.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
		IDToken     string `json:"id_token"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil || resp.StatusCode != http.StatusOK {
		r.t.Fatalf("token %d: %d %s", i, resp.StatusCode, raw)
	}
	if out.AccessToken != "" {
		return out.AccessToken
	}
	return out.IDToken
}

// accept is the guest's acceptance; err means no answer came.
func (r *localRun) accept(token, hash string, invitationID int64) (int, error) {
	body, _ := json.Marshal(map[string]any{"hash": hash, "invitationId": invitationID})
	req, _ := http.NewRequest(http.MethodPost, r.url()+"/api/v1/invitations/accept", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
