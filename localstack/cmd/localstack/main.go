// Command localstack runs the whole service on one machine: `make run`.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/edu-invite/invite/localstack/stack"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := stack.Start(ctx, stack.Options{})
	if err != nil {
		slog.Error("local stack did not start", "error", err)
		os.Exit(1)
	}
	defer s.Close()
	fmt.Printf(`
Invite is running on the embedded local stack.

  Pages               %[1]s/            (sign in at the development IdP; invitation links open here)
  API                 %[1]s            (GET %[1]s/health)
  API token           X-API-TOKEN: %[2]s   (export BOOTSTRAP_API_TOKEN to choose it)
  Sample SCIM SP      %[1]s/scim-sp/state   (users and groups as the SP sees them)
  Captured e-mails    %[1]s/mail
  Development IdP     %[1]s/idp/token        (POST claims, get a bearer token)

Press Ctrl-C to stop.
`, s.URL, s.BootstrapToken)
	<-ctx.Done()
}
