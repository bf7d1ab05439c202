package browsertest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/browsertest/chromium"
	"github.com/edu-invite/invite/localstack/stack"
)

// The one stack and the one browser of the test process.
var (
	stk      *stack.Stack
	clock    = &testClock{}
	browser  context.Context
	logPath  string
	axeJS    string
	adminKey = "browser-test-token-0123456789abcdef"
)

// testClock is wall time plus an offset a test may move (expired
// invitations); tests that move it put it back.
type testClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *testClock) Set(d time.Duration) {
	c.mu.Lock()
	c.offset = d
	c.mu.Unlock()
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	b, stopBrowser, err := chromium.Start()
	if errors.Is(err, chromium.ErrMissing) {
		fmt.Fprintln(os.Stderr, "SKIP browser tests:", err)
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser tests:", err)
		return 1
	}
	defer stopBrowser()
	browser = b
	raw, err := os.ReadFile(filepath.Join("..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser tests need axe-core from localstack/package-lock.json (make npm):", err)
		return 1
	}
	axeJS = string(raw)

	dir, err := os.MkdirTemp("", "invite-browsertest-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	logPath = filepath.Join(dir, "service.log")
	if err := startStack(logPath); err != nil {
		fmt.Fprintln(os.Stderr, "local stack:", err)
		return 1
	}
	defer stk.Close()
	return m.Run()
}

// startStack starts the local stack with its service log in a file, which
// TestNoSecretInLogs reads at the end.
func startStack(logFile string) error {
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_SESV2",
		"APPLICATIONS_CONFIG", "APPLICATIONS_CONFIG_FILE", "OIDC_ISSUER", "PUBLIC_BASE_URL", "TABLE_NAME", "REMINDER_DAYS",
		"OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"} {
		os.Unsetenv(k)
	}
	os.Setenv("BOOTSTRAP_API_TOKEN", adminKey)
	os.Setenv("LOG_LEVEL", "debug")
	f, err := os.Create(logFile)
	if err != nil {
		return err
	}
	// The service's logger writes to os.Stdout as it is when the stack is
	// wired: point it at the file for that moment only.
	stdout := os.Stdout
	os.Stdout = f
	stk, err = stack.Start(context.Background(), stack.Options{Addr: "127.0.0.1:0", Clock: clock.Now, JobInterval: -1,
		VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond, SweepInterval: time.Second})
	os.Stdout = stdout
	if err != nil {
		return err
	}
	slog.SetDefault(stk.App.Logger)
	return nil
}
