// Package faultsp wraps an SP's HTTP handler with the failures real SCIM
// SPs show: server errors, throttling with Retry-After, slow answers, and
// answers lost after the SP did the work (a 502 from a proxy, or the
// connection reset). Each request's fate is drawn from a seeded random
// source, so a run's mix of faults is reproducible in kind and share
// (which request gets which fault depends on arrival order).
package faultsp

import (
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options set the share of each fault, from 0 to 1; the shares of
// ServerErrors, Throttles and Drops together must not exceed 1.
type Options struct {
	Seed uint64
	// ServerErrors is the share of requests answered 500, 502, 503 or 504
	// without reaching the SP.
	ServerErrors float64
	// Throttles is the share answered 429 with Retry-After, without reaching
	// the SP.
	Throttles float64
	// RetryAfter is the Retry-After of a 429 (whole seconds; default 1 s).
	RetryAfter time.Duration
	// Drops is the share that the SP handles (and succeeds with) but whose
	// answer never arrives: half get a 502 instead, half a connection reset.
	Drops float64
	// MaxLatency bounds the delay added before every request. The delay is
	// MaxLatency·u^LatencyShape for u uniform in [0,1): with the default
	// shape 4 most requests are fast (median MaxLatency/16) and a few take
	// nearly MaxLatency, as with a real SP under load.
	MaxLatency   time.Duration
	LatencyShape float64
}

// Stats counts what the wrapper did.
type Stats struct {
	Requests     int64 // every request, faulted or not
	ServerErrors int64
	Throttled    int64
	Dropped      int64 // reached the SP, answer lost (502 or reset)
	Resets       int64 // of Dropped: connection reset
	Delayed      int64 // requests given a latency of 1 ms or more
}

// Handler is an http.Handler injecting faults in front of another.
type Handler struct {
	next http.Handler
	opts Options

	mu  sync.Mutex // guards rnd
	rnd *rand.Rand

	requests, serverErrors, throttled, dropped, resets, delayed atomic.Int64
}

// Wrap returns next behind the faults of opts. GET …/state (the SP's
// inspection endpoint for tests) is never faulted.
func Wrap(next http.Handler, opts Options) *Handler {
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = time.Second
	}
	if opts.LatencyShape <= 0 {
		opts.LatencyShape = 4
	}
	return &Handler{next: next, opts: opts, rnd: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))}
}

// Stats returns the counts so far.
func (h *Handler) Stats() Stats {
	return Stats{Requests: h.requests.Load(), ServerErrors: h.serverErrors.Load(), Throttled: h.throttled.Load(),
		Dropped: h.dropped.Load(), Resets: h.resets.Load(), Delayed: h.delayed.Load()}
}

type fate int

const (
	pass fate = iota
	serverError
	throttle
	dropReply
	dropReset
)

var serverErrorCodes = []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}

// draw decides a request's fate, latency and (for server errors) status.
func (h *Handler) draw() (fate, time.Duration, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	latency := time.Duration(float64(h.opts.MaxLatency) * math.Pow(h.rnd.Float64(), h.opts.LatencyShape))
	x := h.rnd.Float64()
	code := serverErrorCodes[h.rnd.IntN(len(serverErrorCodes))]
	reset := h.rnd.IntN(2) == 0
	switch {
	case x < h.opts.ServerErrors:
		return serverError, latency, code
	case x < h.opts.ServerErrors+h.opts.Throttles:
		return throttle, latency, http.StatusTooManyRequests
	case x < h.opts.ServerErrors+h.opts.Throttles+h.opts.Drops:
		if reset {
			return dropReset, latency, 0
		}
		return dropReply, latency, http.StatusBadGateway
	}
	return pass, latency, 0
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/state") {
		h.next.ServeHTTP(w, r)
		return
	}
	h.requests.Add(1)
	f, latency, code := h.draw()
	if latency >= time.Millisecond {
		h.delayed.Add(1)
		select {
		case <-time.After(latency):
		case <-r.Context().Done():
			return
		}
	}
	switch f {
	case serverError:
		h.serverErrors.Add(1)
		http.Error(w, "injected fault", code)
	case throttle:
		h.throttled.Add(1)
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(h.opts.RetryAfter.Seconds()))))
		http.Error(w, "injected throttle", code)
	case dropReply, dropReset:
		// The SP does the work; its answer is thrown away.
		h.next.ServeHTTP(httptest.NewRecorder(), r)
		h.dropped.Add(1)
		if f == dropReset && h.reset(w) {
			h.resets.Add(1)
			return
		}
		http.Error(w, "injected lost answer", http.StatusBadGateway)
	default:
		h.next.ServeHTTP(w, r)
	}
}

// reset closes the client's connection without an answer (RST), or
// reports false when the connection cannot be taken over (HTTP/2).
func (h *Handler) reset(w http.ResponseWriter) bool {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return false
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return false
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // close with RST instead of FIN
	}
	_ = conn.Close()
	return true
}
