package faultsp_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/faultsp"
)

// outcome of one request as the client saw it.
type outcome struct {
	status     int // 0: connection error
	retryAfter string
	body       string
	err        error
}

func call(t *testing.T, c *http.Client, url string) outcome {
	t.Helper()
	// POST: Go's transport never retries it on a reset connection, so the
	// client sees every fault.
	resp, err := c.Post(url, "application/scim+json", strings.NewReader("{}"))
	if err != nil {
		return outcome{err: err}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return outcome{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: string(b)}
}

func newServer(t *testing.T, opts faultsp.Options) (*faultsp.Handler, *atomic.Int64, string, *http.Client) {
	var reached atomic.Int64
	sp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/state") {
			reached.Add(1)
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "created")
	})
	h := faultsp.Wrap(sp, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, &reached, srv.URL, &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
}

func TestFaultSharesAndWhatTheClientSees(t *testing.T) {
	h, reached, url, c := newServer(t, faultsp.Options{Seed: 7, ServerErrors: 0.3, Throttles: 0.1, RetryAfter: 2 * time.Second, Drops: 0.1})
	const n = 2000
	counts := map[int]int{}
	var connErrors []string
	for i := 0; i < n; i++ {
		o := call(t, c, url+"/v1/Users")
		counts[o.status]++
		if o.err != nil {
			connErrors = append(connErrors, o.err.Error())
		}
		switch {
		case o.status == http.StatusTooManyRequests && o.retryAfter != "2":
			t.Fatalf("429 with Retry-After %q, want 2", o.retryAfter)
		case o.status == http.StatusCreated && o.body != "created":
			t.Fatalf("passed request answered %q", o.body)
		case o.status != 0 && o.status != http.StatusCreated && o.status != http.StatusTooManyRequests &&
			!slices.Contains([]int{500, 502, 503, 504}, o.status):
			t.Fatalf("unexpected status %d", o.status)
		}
	}
	st := h.Stats()
	near := func(what string, got int64, share float64) {
		t.Helper()
		if want := share * n; float64(got) < want*0.8 || float64(got) > want*1.2 {
			t.Errorf("%s = %d of %d, want about %.0f", what, got, n, want)
		}
	}
	near("server errors", st.ServerErrors, 0.3)
	near("throttled", st.Throttled, 0.1)
	near("dropped", st.Dropped, 0.1)
	if st.Requests != n || int64(counts[http.StatusTooManyRequests]) != st.Throttled {
		t.Errorf("stats %+v, client saw %v", st, counts)
	}
	// Dropped answers reached the SP; server errors and throttles did not.
	if want := int64(counts[http.StatusCreated]) + st.Dropped; reached.Load() != want {
		t.Errorf("SP reached %d times, want %d (passed %d + dropped %d)", reached.Load(), want, counts[http.StatusCreated], st.Dropped)
	}
	// Half the drops reset the connection, the other half answer 502. Every
	// reset reaches the client as a connection error; loopback under a loaded
	// machine may, rarely, lose one more connection of the 2,000 (seen once in
	// CI: 98 errors for 97 resets), which says nothing about the fault SP.
	if int64(counts[0]) < st.Resets || int64(counts[0]) > st.Resets+2 || st.Resets == 0 || st.Resets == st.Dropped {
		t.Errorf("resets: client saw %d connection errors, stats %+v; errors: %q", counts[0], st, connErrors)
	}
}

func TestLatencyIsMostlyShortAndBounded(t *testing.T) {
	h, _, url, c := newServer(t, faultsp.Options{Seed: 1, MaxLatency: 400 * time.Millisecond})
	var took []time.Duration
	for i := 0; i < 40; i++ {
		start := time.Now()
		if o := call(t, c, url+"/v1/Groups"); o.status != http.StatusCreated {
			t.Fatalf("status %d without faults", o.status)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	if median, longest := took[len(took)/2], took[len(took)-1]; median > 100*time.Millisecond || longest > 600*time.Millisecond {
		t.Fatalf("median %v, longest %v: want most requests fast and none much over 400 ms", median, longest)
	}
	if h.Stats().Delayed == 0 {
		t.Fatal("no request was delayed")
	}
}

func TestSameSeedSameFaults(t *testing.T) {
	run := func() []int {
		_, _, url, c := newServer(t, faultsp.Options{Seed: 42, ServerErrors: 0.3, Throttles: 0.1, Drops: 0.05})
		var got []int
		for i := 0; i < 50; i++ {
			got = append(got, call(t, c, url+"/v1/Users").status)
		}
		return got
	}
	if a, b := run(), run(); !slices.Equal(a, b) {
		t.Fatalf("runs differ:\n%v\n%v", a, b)
	}
}

func TestStateIsNeverFaulted(t *testing.T) {
	h, _, url, c := newServer(t, faultsp.Options{Seed: 3, ServerErrors: 1})
	for i := 0; i < 5; i++ {
		resp, err := c.Get(url + "/state")
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("GET /state = %v %v", resp, err)
		}
		resp.Body.Close()
	}
	if o := call(t, c, url+"/v1/Users"); o.status < 500 {
		t.Fatalf("with every request failing, got %d", o.status)
	}
	if st := h.Stats(); st.Requests != 1 || st.ServerErrors != 1 {
		t.Fatalf("stats %+v, want the one SCIM request counted", st)
	}
}
