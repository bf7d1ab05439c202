// Command localstack runs the whole service on one machine: `make run`.
//
// It writes its URL to $INVITE_RUN_FILE (default .local/run.url) while it
// runs, so that `make job` finds this stack whatever PORT it was given.
//
// Its data (DynamoDB Local's tables and the sample SCIM SP's users and
// groups) lives in $LOCAL_DATA_DIR, default .local/data at the repository's
// root, and survives a restart; delete the folder to start empty.
package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/edu-invite/invite/localstack/stack"
	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/app"
)

func main() {
	logger := app.NewLogger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dataDir, err := dataDir()
	if err != nil {
		logger.Error("local stack did not start", "error", err)
		os.Exit(1)
	}
	s, err := stack.Start(ctx, stack.Options{DataDir: dataDir})
	if err != nil {
		logger.Error("local stack did not start", "error", err)
		os.Exit(1)
	}
	runFile := cmp.Or(os.Getenv("INVITE_RUN_FILE"), filepath.Join(".local", "run.url"))
	if err := writeRunFile(runFile, s.URL); err != nil {
		logger.Warn("make job will not find this stack by itself", "file", runFile, "error", err)
	}
	// The banner is for people: on standard error, so that standard
	// output carries JSON log lines only.
	fmt.Fprint(os.Stderr, s.Banner())
	<-ctx.Done()
	stop()
	fmt.Fprintln(os.Stderr, "\nStopping…")
	_ = os.Remove(runFile)
	s.Close()
}

func writeRunFile(path, url string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(url+"\n"), 0o644)
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
