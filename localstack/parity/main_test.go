//go:build parity

package parity

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// env is the deployment every test of the package shares: starting the
// emulators and the substitutes once keeps the test within its budget.
var env *Env

// functionsUnderTest are the functions the scenarios drive.
var functionsUnderTest = []string{"web", "system", "reconcile", "provisioner", "outbox-sweep", "expiry", "cleanup", "mail-events", "invitations", "roles", "users", "tokens", "crm", "jobs"}

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	path := os.Getenv("PARITY_TEMPLATE")
	if path == "" {
		fmt.Fprintln(os.Stderr, "PARITY_TEMPLATE is not set: run `make test-parity`, which synthesizes the template first")
		return 1
	}
	tpl, err := LoadTemplate(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rie := os.Getenv("PARITY_RIE")
	if rie == "" {
		if rie, err = FindRIE(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "invite-parity-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := BuildFunctions(root, dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	env, err = Start(ctx, Options{Template: tpl, BinDir: dir, RIE: rie, Functions: functionsUnderTest})
	if err != nil {
		fmt.Fprintln(os.Stderr, "start the deployment:", err)
		return 1
	}
	code := m.Run()
	if out := os.Getenv("PARITY_CALLS_OUT"); out != "" {
		dumpCalls(out)
	}
	if code != 0 {
		for _, name := range functionsUnderTest {
			if rt := env.Runtime(name); rt != nil {
				fmt.Fprintf(os.Stderr, "=== logs of %s\n%s\n", name, tail(rt.Logs(), 6000))
			}
		}
	}
	env.Close()
	return code
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// noDenials fails the test, when it ends, for every call a function's
// role refused while it ran.
func noDenials(t *testing.T) {
	t.Helper()
	mark := len(env.Log.Denials())
	t.Cleanup(func() {
		for _, d := range env.Log.Denials()[mark:] {
			t.Errorf("denied by the template's IAM statements: %s", d)
		}
	})
}

// dumpCalls writes every allowed call as "function action resource keys",
// one a line: what the scenarios exercised, to compare with the policies.
func dumpCalls(path string) {
	env.Log.mu.Lock()
	defer env.Log.mu.Unlock()
	var b strings.Builder
	for _, c := range env.Log.calls {
		fmt.Fprintf(&b, "%s %s %s %v\n", c.Function, c.Call.Action, c.Call.Resource, c.Call.Keys["dynamodb:LeadingKeys"])
	}
	_ = os.WriteFile(path, []byte(b.String()), 0o644)
}
