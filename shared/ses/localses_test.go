package ses

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// localSESDir finds localstack/, where npm installs aws-ses-v2-local, by
// walking up from the test's directory to the module root (go.mod).
func localSESDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "localstack")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}

// startLocalSES starts aws-ses-v2-local on a free loopback port and returns
// its base URL. Without the npm package the test is skipped locally but fails
// in CI (CI=true), where a silently skipped integration test would hide a
// broken setup.
func startLocalSES(t *testing.T) string {
	t.Helper()
	dir := localSESDir(t)
	bin := filepath.Join(dir, "node_modules", ".bin", "aws-ses-v2-local")
	_, statErr := os.Stat(bin)
	_, nodeErr := exec.LookPath("node")
	if err := errors.Join(statErr, nodeErr); err != nil {
		msg := fmt.Sprintf("aws-ses-v2-local is not available (run `npm ci` in %s; node must be on PATH): %v", dir, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}

	port := freeLoopbackPort(t)
	var output syncBuffer
	cmd := exec.Command(bin, "--host", "127.0.0.1", "--port", strconv.Itoa(port))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Start(); err != nil {
		t.Fatalf("start aws-ses-v2-local: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	base := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.After(20 * time.Second)
	for {
		if resp, err := http.Get(base + "/store"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case err := <-exited:
			exited <- err // for the cleanup
			t.Fatalf("aws-ses-v2-local exited: %v\n%s", err, output.String())
		case <-deadline:
			t.Fatalf("aws-ses-v2-local did not answer on %s within 20s\n%s", base, output.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// freeLoopbackPort asks the kernel for a free port. Another process could take
// it before the substitute binds it; that shows up as a start-up failure.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// syncBuffer collects the substitute's output, written by exec's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// capturedMail is one entry of aws-ses-v2-local's GET /store.
type capturedMail struct {
	From        string `json:"from"`
	Destination struct {
		To []string `json:"to"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		HTML string `json:"html"`
		Text string `json:"text"`
	} `json:"body"`
}

func TestSendThroughLocalSES(t *testing.T) {
	base := startLocalSES(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	want := testEmail()
	// The substitute does not record ConfigurationSetName; the httptest test
	// checks that it is sent. Here it only must not make the call fail.
	if err := NewSender(newTestClient(t, base), testFrom, testConfigSet).Send(ctx, want); err != nil {
		t.Fatalf("Send: %v", err)
	}

	resp, err := http.Get(base + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var store struct{ Emails []capturedMail }
	if err := json.NewDecoder(resp.Body).Decode(&store); err != nil {
		t.Fatalf("decode /store: %v", err)
	}
	if len(store.Emails) != 1 {
		t.Fatalf("store holds %d mails, want 1", len(store.Emails))
	}
	got := store.Emails[0]
	if got.From != testFrom {
		t.Errorf("from = %q, want %q", got.From, testFrom)
	}
	if len(got.Destination.To) != 1 || got.Destination.To[0] != want.To {
		t.Errorf("to = %q, want [%q]", got.Destination.To, want.To)
	}
	if got.Subject != want.Subject {
		t.Errorf("subject = %q, want %q", got.Subject, want.Subject)
	}
	if got.Body.HTML != want.HTML {
		t.Errorf("html = %q, want %q", got.Body.HTML, want.HTML)
	}
	if got.Body.Text != want.Text {
		t.Errorf("text = %q, want %q", got.Body.Text, want.Text)
	}
}
