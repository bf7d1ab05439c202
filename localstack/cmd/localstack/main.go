// Command localstack runs the whole service on one machine: `make run`.
//
// Its data (DynamoDB Local's tables and the sample SCIM SP's users and
// groups) lives in $LOCAL_DATA_DIR, default .local/data at the repository's
// root, and survives a restart; delete the folder to start empty.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/edu-invite/invite/localstack/stack"
	"github.com/edu-invite/invite/localstack/substitutes"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dataDir, err := dataDir()
	if err != nil {
		slog.Error("local stack did not start", "error", err)
		os.Exit(1)
	}
	s, err := stack.Start(ctx, stack.Options{DataDir: dataDir})
	if err != nil {
		slog.Error("local stack did not start", "error", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Printf(`
Invite is running on the embedded local stack.

  API                 %[1]s            (GET %[1]s/health)
  API token           X-API-TOKEN: %[2]s   (export BOOTSTRAP_API_TOKEN to choose it)
  Sample SCIM SP      %[1]s/scim-sp/state   (users and groups as the SP sees them)
  Captured e-mails    %[1]s/mail
  Development IdP     %[1]s/idp/token        (POST claims, get a bearer token)
  Data                %[3]s   (kept across restarts; delete it to start empty)

Press Ctrl-C to stop.
`, s.URL, s.BootstrapToken, dataDir)
	<-ctx.Done()
}

// dataDir is $LOCAL_DATA_DIR, or .local/data at the repository's root (git
// ignores /.local/).
func dataDir() (string, error) {
	if dir := os.Getenv("LOCAL_DATA_DIR"); dir != "" {
		return filepath.Abs(dir)
	}
	localstackDir, err := substitutes.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(localstackDir), ".local", "data"), nil
}
