// Command job runs one scheduled job of a running local stack on demand:
//
//	go run ./localstack/cmd/job expiry        (or cleanup, outbox-sweep, reconcile)
//
// It asks the stack at $INVITE_URL (default http://127.0.0.1:$PORT, PORT
// default 8080) and prints what the job did.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: job expiry|cleanup|outbox-sweep|reconcile")
		os.Exit(2)
	}
	base := os.Getenv("INVITE_URL")
	if base == "" {
		port := os.Getenv("PORT")
		if port == "" {
			port = "8080"
		}
		base = "http://127.0.0.1:" + port
	}
	resp, err := http.Post(base+"/local/jobs/"+os.Args[1], "application/json", nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "is `make run` running?", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	if resp.StatusCode != http.StatusOK {
		os.Exit(1)
	}
}
