package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// journeySection is the README section whose shell blocks the test runs.
const journeySection = "## The journey through the API"

// journeyBlock is one ```sh block of the README's journey: its step number
// (from a first line "# N. …"; 0 for a block without one) and its text.
type journeyBlock struct {
	step int
	text string
}

// readmeJourney reads the journey's shell blocks from README.md as written:
// the block that runs `make run` first, the others in their order.
func readmeJourney(t *testing.T) (start string, blocks []journeyBlock) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	at := strings.Index(readme, "\n"+journeySection+"\n")
	if at < 0 {
		t.Fatalf("README.md has no section %q", journeySection)
	}
	section := readme[at+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	stepOf := regexp.MustCompile(`^# ([0-9]+)\.`)
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		text := m[1]
		if strings.Contains(text, "make run") {
			start = text
			continue
		}
		b := journeyBlock{text: text}
		if s := stepOf.FindStringSubmatch(text); s != nil {
			b.step, _ = strconv.Atoi(s[1])
		}
		blocks = append(blocks, b)
	}
	if start == "" || len(blocks) == 0 {
		t.Fatalf("the README's journey has no block that runs make run, or no block after it")
	}
	return start, blocks
}

// TestREADMEJourney runs the README's journey as a newcomer would: its first
// block (export BOOTSTRAP_API_TOKEN, make run) starts the stack, then its
// other blocks run, as written, in one bash session with set -euo pipefail,
// so that a command that stops working (a refused token, a 4xx from curl's
// --fail-with-body, a sed that finds nothing) fails the test. After each
// numbered step the test checks what the README says the step does.
func TestREADMEJourney(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the whole local stack with make run")
	}
	for _, tool := range []string{"node", "java", "make", "bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if strings.EqualFold(os.Getenv("CI"), "true") {
				t.Fatalf("%s is missing: the README's journey needs it", tool)
			}
			t.Skipf("%s is missing", tool)
		}
	}
	start, blocks := readmeJourney(t)
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runFile := filepath.Join(dir, "run.url")
	env := []string{"PORT=0", "INVITE_RUN_FILE=" + runFile, "LOCAL_DATA_DIR=" + filepath.Join(dir, "data"), "LOG_LEVEL=warn"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "AWS_") && k != "PORT" && k != "INVITE_URL" &&
			k != "BOOTSTRAP_API_TOKEN" && k != "OIDC_ISSUER" && k != "PUBLIC_BASE_URL" && k != "LOCAL_DATA_DIR" && k != "MAKEFLAGS" {
			env = append(env, kv)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	run := exec.Command("bash", "-euo", "pipefail", "-c", start)
	run.Dir = root
	run.Env = env
	run.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	runLog, err := os.Create(filepath.Join(dir, "make-run.log"))
	if err != nil {
		t.Fatal(err)
	}
	run.Stdout, run.Stderr = runLog, runLog
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var runErr error
	go func() { runErr = run.Wait(); close(exited) }()
	defer func() {
		// Ctrl-C, as a person stops make run: to the whole process group.
		_ = syscall.Kill(-run.Process.Pid, syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-run.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}()
	base := waitForRunFile(t, ctx, runFile, exited, func() error { return runErr }, filepath.Join(dir, "make-run.log"))

	journey := exec.CommandContext(ctx, "bash", "-euo", "pipefail")
	journey.Dir = dir
	journey.Env = append(env, "INVITE_URL="+base)
	stdin, err := journey.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	journey.Stdout, journey.Stderr = w, w
	if err := journey.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	defer func() { stdin.Close(); _ = journey.Wait() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()

	const done = "::journey-block-done"
	checked := map[int]bool{}
	for i, b := range blocks {
		if _, err := io.WriteString(stdin, b.text+"\necho "+done+"\n"); err != nil {
			t.Fatalf("block %d could not be given to bash: %v", i+1, err)
		}
		var output strings.Builder
		finished := false
		for line := range lines {
			if line == done {
				finished = true
				break
			}
			output.WriteString(line + "\n")
		}
		if !finished {
			t.Fatalf("the README's journey stopped in this block:\n%s\noutput:\n%s", b.text, output.String())
		}
		if check, ok := journeyChecks[b.step]; ok {
			if err := check(ctx, base, output.String()); err != nil {
				t.Fatalf("step %d of the README's journey did not do what it says: %v\nblock:\n%s\noutput:\n%s", b.step, err, b.text, output.String())
			}
			checked[b.step] = true
		}
	}
	for step := range journeyChecks {
		if !checked[step] {
			t.Errorf("the README's journey has no step %d (a block starting with \"# %d.\")", step, step)
		}
	}
}

// journeyChecks: what each numbered step of the README's journey does,
// checked from outside (the sample SCIM SP's state, the captured e-mails)
// and in the step's output. Provisioning is asynchronous: checks at the SP
// wait for it.
var journeyChecks = map[int]func(ctx context.Context, base, output string) error{
	1: func(ctx context.Context, base, _ string) error {
		return eventually(ctx, func() error {
			st, err := spState(base)
			if err == nil && st.group("Researchers") == nil {
				err = fmt.Errorf("the sample SCIM SP has no group Researchers")
			}
			return err
		})
	},
	2: func(ctx context.Context, base, output string) error {
		if !strings.Contains(output, "/invitation/accept?hash=") {
			return fmt.Errorf("the step printed no invitation link")
		}
		return eventually(ctx, func() error {
			mails, err := getJSON[[]struct {
				To   []string `json:"to"`
				Text string   `json:"text"`
			}](base + "/mail")
			if err != nil {
				return err
			}
			for _, m := range mails {
				if len(m.To) == 1 && m.To[0] == "alice@example.org" && strings.Contains(m.Text, "/invitation/accept?hash=") {
					return nil
				}
			}
			return fmt.Errorf("no invitation e-mail to alice@example.org at /mail")
		})
	},
	3: func(ctx context.Context, base, output string) error {
		if !strings.Contains(output, `"status":"ok"`) {
			return fmt.Errorf("the acceptance did not answer status ok")
		}
		return eventually(ctx, func() error {
			st, err := spState(base)
			if err != nil {
				return err
			}
			if !st.isMember("alice@example.org", "Researchers") {
				return fmt.Errorf("alice@example.org is not a member of Researchers at the sample SCIM SP")
			}
			return nil
		})
	},
	4: func(ctx context.Context, base, output string) error {
		if !strings.Contains(output, `"action":"ADD"`) {
			return fmt.Errorf("the audit search lists no ADD")
		}
		return eventually(ctx, func() error {
			st, err := spState(base)
			if err == nil && st.group("Researchers") != nil {
				err = fmt.Errorf("the group Researchers is still at the sample SCIM SP")
			}
			return err
		})
	},
}

type scimState struct {
	Users []struct {
		ID       string `json:"id"`
		UserName string `json:"userName"`
	} `json:"users"`
	Groups []struct {
		DisplayName string `json:"displayName"`
		Members     []struct {
			Value string `json:"value"`
		} `json:"members"`
	} `json:"groups"`
}

func (s scimState) group(name string) *int {
	for i, g := range s.Groups {
		if g.DisplayName == name {
			return &i
		}
	}
	return nil
}

func (s scimState) isMember(userName, group string) bool {
	g := s.group(group)
	if g == nil {
		return false
	}
	for _, u := range s.Users {
		if u.UserName != userName {
			continue
		}
		for _, m := range s.Groups[*g].Members {
			if m.Value == u.ID {
				return true
			}
		}
	}
	return false
}

func spState(base string) (scimState, error) { return getJSON[scimState](base + "/scim-sp/state") }

func getJSON[T any](url string) (T, error) {
	var v T
	res, err := http.Get(url)
	if err != nil {
		return v, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return v, fmt.Errorf("GET %s: %s", url, res.Status)
	}
	return v, json.NewDecoder(res.Body).Decode(&v)
}

// eventually retries check for up to a minute (a loaded machine delivers
// late, never wrongly).
func eventually(ctx context.Context, check func() error) error {
	deadline := time.Now().Add(time.Minute)
	for {
		err := check()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// waitForRunFile waits for make run to write the stack's URL.
func waitForRunFile(t *testing.T, ctx context.Context, runFile string, exited <-chan struct{}, runErr func() error, logFile string) string {
	t.Helper()
	for {
		if b, err := os.ReadFile(runFile); err == nil && strings.TrimSpace(string(b)) != "" {
			return strings.TrimSpace(string(b))
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logFile)
			t.Fatalf("the README's first block (make run) ended before the stack ran: %v\n%s", runErr(), log)
		case <-ctx.Done():
			log, _ := os.ReadFile(logFile)
			t.Fatalf("the stack of the README's first block did not start in time\n%s", log)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
