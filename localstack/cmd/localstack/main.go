// Command localstack runs the whole service on one machine: `make run`.
//
// It writes its URL to $INVITE_RUN_FILE (default .local/run.url) while it
// runs, so that `make job` finds this stack whatever PORT it was given.
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
	"github.com/edu-invite/invite/shared/app"
)

func main() {
	logger := app.NewLogger()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := stack.Start(ctx, stack.Options{})
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
