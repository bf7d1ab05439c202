package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunStopsCleanlyAndJobFindsIt is `make run` and `make job` as an
// operator meets them: the built stack starts on the port it is given (0:
// any), prints its banner, writes its URL where the job command finds it
// without being told the port, and ends with exit status 0 on Ctrl-C
// (SIGINT), removing that file.
func TestRunStopsCleanlyAndJobFindsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts the whole local stack")
	}
	if _, err := exec.LookPath("node"); err != nil {
		if strings.EqualFold(os.Getenv("CI"), "true") {
			t.Fatal("node is missing: the local stack's substitutes need it")
		}
		t.Skip("node is missing")
	}
	dir := t.TempDir()
	for name, pkg := range map[string]string{"localstack": ".", "job": "../job"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", name, err, out)
		}
	}
	runFile := filepath.Join(dir, "run.url")
	env := []string{"PORT=0", "INVITE_RUN_FILE=" + runFile, "BOOTSTRAP_API_TOKEN=run-test-token-0123456789abcdef0123", "LOG_LEVEL=warn"}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "AWS_") && k != "PORT" && k != "INVITE_URL" &&
			k != "APPLICATIONS_CONFIG" && k != "APPLICATIONS_CONFIG_FILE" && k != "OIDC_ISSUER" && k != "PUBLIC_BASE_URL" {
			env = append(env, kv)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, filepath.Join(dir, "localstack"))
	run.Env = env
	stderr, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	run.Stdout = &stdout
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	banner := make(chan string, 1)
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "Ctrl-C") {
				banner <- seen.String()
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		close(banner)
	}()
	text, ok := <-banner
	if !ok {
		_ = run.Wait()
		t.Fatalf("the stack printed no banner; stdout:\n%s", stdout.String())
	}
	if strings.Contains(text, "run-test-token") || !strings.Contains(text, "BOOTSTRAP_API_TOKEN") || !strings.Contains(text, "/api/docs") {
		t.Errorf("banner:\n%s", text)
	}
	url, err := os.ReadFile(runFile)
	if err != nil || !strings.HasPrefix(string(url), "http://127.0.0.1:") || strings.HasSuffix(strings.TrimSpace(string(url)), ":0") {
		t.Fatalf("run file %q (%v)", url, err)
	}

	job := exec.CommandContext(ctx, filepath.Join(dir, "job"), "cleanup")
	job.Env = env[1:] // no PORT: the job must find the stack by its run file
	out, err := job.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"invitations"`) {
		t.Errorf("make job without PORT: %v\n%s", err, out)
	}

	if err := run.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := run.Wait(); err != nil {
		t.Fatalf("after Ctrl-C the stack ended with %v, want exit status 0", err)
	}
	if _, err := os.Stat(runFile); !os.IsNotExist(err) {
		t.Errorf("run file left behind after the stack stopped: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if line != "" && !strings.HasPrefix(line, "{") {
			t.Errorf("standard output has a line that is not JSON: %q", line)
		}
	}
}
