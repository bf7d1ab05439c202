package provisioner_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/provisioner"
	"github.com/edu-invite/invite/shared/secrets"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// timedSP is a SCIM SP that records when each request arrived and can be
// made to fail every request with 503.
type timedSP struct {
	handler http.Handler
	failing atomic.Bool
	mu      sync.Mutex
	arrived []time.Time
}

func (s *timedSP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.arrived = append(s.arrived, time.Now())
	s.mu.Unlock()
	if s.failing.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	s.handler.ServeHTTP(w, r)
}

func (s *timedSP) requests() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.arrived)
}

// countingTransport counts the requests one provisioner instance sends.
type countingTransport struct {
	next http.RoundTripper
	n    atomic.Int32
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// consumer is one provisioner instance: its own Provisioner, Targets and
// so its own in-memory guards, sharing only the table with the others.
type consumer struct {
	prov    *provisioner.Provisioner
	sent    *countingTransport
	backoff *recordingBackoff
}

// TestRateAndBreakerHoldAcrossTwoConsumers runs two provisioner instances
// against one SP whose rate is 5 calls a second, on one table: together they
// stay within 5 calls in each second, and a breaker that one of them opened
// stops the other, which hands the message back to the queue for the
// breaker's pause; after it, one probe of either closes it for both.
func TestRateAndBreakerHoldAcrossTwoConsumers(t *testing.T) {
	const rate, guests, cooldown = 5, 10, 2 * time.Second
	sp := &timedSP{handler: scimsp.New(scimsp.Options{BearerToken: "right-token"}).Handler()}
	srv := httptest.NewServer(sp)
	t.Cleanup(srv.Close)
	t.Setenv("TEST_SP_TOKEN", "right-token")
	reg, err := config.Parse(fmt.Appendf(nil, `{
	  "applications": [{"manageId": "wiki", "manageType": "SAML20_SP", "provisionings": ["wiki-sp"]}],
	  "provisionings": [{"id": "wiki-sp", "baseUrl": %q, "membership": "PATCH", "ratePerSecond": %d,
	    "auth": {"method": "bearer", "token": "env:TEST_SP_TOKEN"}}]}`, srv.URL, rate))
	if err != nil {
		t.Fatal(err)
	}
	store := dynamotest.NewStore(t, nil)
	queue := &testkit.RecordingQueue{}
	f := &fixture{svc: &service.Service{Store: store, Queue: queue, Registry: reg, PublicBaseURL: "http://invite.test"}}
	consumers := make([]consumer, 2)
	for i := range consumers {
		sent := &countingTransport{next: loopbackPolicy.Transport()}
		backoff := &recordingBackoff{delays: map[string]time.Duration{}}
		consumers[i] = consumer{sent: sent, backoff: backoff, prov: &provisioner.Provisioner{Store: store,
			Clients: &provisioner.Targets{Registry: reg, Outbound: loopbackPolicy, Transport: sent, GuardStates: store,
				Breaker: provisioner.BreakerPolicy{MinCooldown: cooldown},
				Secrets: connectionSecrets(secrets.NewResolver(nil, 0), "env:TEST_SP_")},
			DeadLetters: &recordingDLQ{reasons: map[string]string{}}, Backoff: backoff}}
	}

	// Each guest's deliveries (its group, user and membership) go to one
	// consumer, in order; the consumers run side by side.
	var lines [][]domain.Delivery
	for i := range guests {
		f.acceptedGuest(t, fmt.Sprintf("guest%d@example.org", i))
		lines = append(lines, queue.Take())
	}
	var wg sync.WaitGroup
	for c := range consumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := c; g < guests; g += len(consumers) {
				if resp, err := consumers[c].prov.HandleSQS(context.Background(), batch(t, lines[g], "wiki-sp", 1)); err != nil || len(resp.BatchItemFailures) != 0 {
					t.Errorf("consumer %d, guest %d: failures %v, %v", c, g, resp.BatchItemFailures, err)
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	arrived := sp.requests()
	if n := len(arrived); n < 3*guests {
		t.Fatalf("the SP got %d requests, want at least %d (a group, a user and a membership per guest)", n, 3*guests)
	}
	for c, cons := range consumers {
		if cons.sent.n.Load() == 0 {
			t.Fatalf("consumer %d sent nothing: the test did not run two consumers", c)
		}
	}
	// The calls need ⌈n/rate⌉ windows of a second, so the first and the
	// last are more than ⌈n/rate⌉-2 seconds apart (less a margin for the
	// way to the SP). Two instances each limited on their own would take
	// about half that.
	windows := (len(arrived) + rate - 1) / rate
	if span, least := arrived[len(arrived)-1].Sub(arrived[0]), time.Duration(windows-2)*time.Second-100*time.Millisecond; span < least {
		t.Fatalf("%d requests reached the SP in %v, want at least %v at %d a second", len(arrived), span, least, rate)
	}
	perSecond := map[int64]int{}
	for _, at := range arrived {
		perSecond[at.Unix()]++
	}
	for second, n := range perSecond {
		// A request granted at the very end of a second may arrive in the
		// next one; twice the rate is what two separate limits allow.
		if n > rate+2 {
			t.Errorf("second %d: %d requests reached the SP, want about %d (by %v)", second, n, rate, perSecond)
		}
	}

	// The SP fails: consumer 0 meets its failures until its breaker opens.
	var more [][]domain.Delivery
	for i := range 7 {
		f.acceptedGuest(t, fmt.Sprintf("later%d@example.org", i))
		more = append(more, queue.Take())
	}
	sp.failing.Store(true)
	a, b := consumers[0], consumers[1]
	before := len(sp.requests())
	for i := range 5 {
		resp, _ := a.prov.HandleSQS(context.Background(), batch(t, more[i][:1], "wiki-sp", 1))
		if len(resp.BatchItemFailures) != 1 {
			t.Fatalf("failing SP, delivery %d: failures %v, want a retry", i, resp.BatchItemFailures)
		}
	}
	if got := len(sp.requests()) - before; got != 5 {
		t.Fatalf("the failing SP got %d requests, want 5 (one per delivery)", got)
	}
	// The other consumer does not call the SP: it gives the message back
	// to the queue for the rest of the pause.
	head := more[5][:1]
	resp, _ := b.prov.HandleSQS(context.Background(), batch(t, head, "wiki-sp", 1))
	if len(resp.BatchItemFailures) != 1 {
		t.Fatalf("the other consumer while the breaker is open: failures %v, want a retry", resp.BatchItemFailures)
	}
	if got := len(sp.requests()) - before; got != 5 {
		t.Fatalf("the SP got %d requests, want still 5: the other consumer ignored the open breaker", got)
	}
	b.backoff.mu.Lock()
	d, ok := b.backoff.delays[head[0].ID]
	b.backoff.mu.Unlock()
	if !ok || d < cooldown/2 || d > cooldown {
		t.Fatalf("the other consumer's backoff: %v (set %v), want the rest of the %v pause", d, ok, cooldown)
	}

	// The SP recovers; after the pause the other consumer's probe closes
	// the breaker, and the first consumer delivers again too.
	sp.failing.Store(false)
	time.Sleep(cooldown)
	for i, c := range []consumer{b, a} {
		resp, err := c.prov.HandleSQS(context.Background(), batch(t, more[5+i], "wiki-sp", 2))
		if err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("after the pause, consumer %d: failures %v, %v", 1-i, resp.BatchItemFailures, err)
		}
	}
	st, err := store.GetSPGuard(context.Background(), "wiki-sp")
	if err != nil || st.Troubled() {
		t.Fatalf("shared state after recovery: %+v, %v; want closed", st, err)
	}
}
