package substitutes

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/truora/minidyn/server"
)

// DynamoDB is a minidyn server answering the DynamoDB JSON protocol in this
// process. Known gaps of minidyn v0.8.2: a top-level UpdateItem REMOVE is
// silently ignored; no ListTables, no TTL calls and no TableStatus (never use
// SDK waiters against it); Query scans the whole table.
type DynamoDB struct {
	// URL is the endpoint for the SDK, e.g. http://127.0.0.1:41234.
	URL string

	srv *http.Server
}

// StartDynamoDB serves a fresh, empty minidyn on addr ("" = a free port on
// 127.0.0.1). The listener is open when it returns, so no readiness polling is
// needed.
func StartDynamoDB(addr string) (*DynamoDB, error) {
	ln, err := listenLoopback(addr)
	if err != nil {
		return nil, fmt.Errorf("substitutes: dynamodb: %w", err)
	}
	srv := &http.Server{
		Handler:           withCRC32(server.NewServer()),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = srv.Serve(ln) }() // Serve returns ErrServerClosed after Close; nothing to report.
	return &DynamoDB{URL: "http://" + ln.Addr().String(), srv: srv}, nil
}

// Close stops the server and drops every table.
func (d *DynamoDB) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := d.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return d.srv.Close()
	}
	return nil
}

// listenLoopback listens on addr, defaulting to a free port on 127.0.0.1, and
// refuses any host other than a loopback address: the substitutes have no
// authentication.
func listenLoopback(addr string) (net.Listener, error) {
	host, err := loopbackAddr(addr)
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", host)
}

// loopbackAddr normalises addr ("" or ":port" become 127.0.0.1) and rejects
// non-loopback hosts.
func loopbackAddr(addr string) (string, error) {
	if addr == "" {
		return "127.0.0.1:0", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "" || host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("address %q: only loopback addresses are allowed", addr)
	}
	return net.JoinHostPort(host, port), nil
}
