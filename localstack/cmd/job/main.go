// Command job runs one scheduled job of a running local stack on demand:
//
//	go run ./localstack/cmd/job expiry        (or cleanup, outbox-sweep, reconcile)
//
// It asks the stack at $INVITE_URL; else at http://127.0.0.1:$PORT when
// PORT is set; else at the URL the running `make run` wrote to
// $INVITE_RUN_FILE (default .local/run.url); else at http://127.0.0.1:8080.
// It prints what the job did.
package main

import (
	"cmp"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: job expiry|cleanup|outbox-sweep|reconcile")
		os.Exit(2)
	}
	base := stackURL()
	resp, err := http.Post(base+"/local/jobs/"+os.Args[1], "application/json", nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "no local stack answers at %s; is `make run` running? %v\n", base, err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	if resp.StatusCode != http.StatusOK {
		os.Exit(1)
	}
}

func stackURL() string {
	if u := os.Getenv("INVITE_URL"); u != "" {
		return strings.TrimRight(u, "/")
	}
	if port := os.Getenv("PORT"); port != "" {
		return "http://127.0.0.1:" + port
	}
	runFile := cmp.Or(os.Getenv("INVITE_RUN_FILE"), filepath.Join(".local", "run.url"))
	if b, err := os.ReadFile(runFile); err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b))
	}
	return "http://127.0.0.1:8080"
}
