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
	fmt.Print(Banner(s.URL, s.BootstrapToken, s.BootstrapTokenChosen))
	<-ctx.Done()
}

// Banner is what the local stack prints at start: a token the operator
// chose (BOOTSTRAP_API_TOKEN) is not repeated.
func Banner(url, token string, chosen bool) string {
	tokenLine := "X-API-TOKEN: " + token + "   (export BOOTSTRAP_API_TOKEN to choose it)"
	if chosen {
		tokenLine = "X-API-TOKEN: the value of BOOTSTRAP_API_TOKEN"
	}
	return fmt.Sprintf(`
Invite is running on the embedded local stack.

  API                 %[1]s            (GET %[1]s/health)
  API token           %[2]s
  Sample SCIM SP      %[1]s/scim-sp/state   (users and groups as the SP sees them)
  Captured e-mails    %[1]s/mail
  Development IdP     %[1]s/idp/token        (POST claims, get a bearer token)

Press Ctrl-C to stop.
`, url, tokenLine)
}
