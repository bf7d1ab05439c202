package config

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// countingSource is a registry source that counts its reads.
type countingSource struct {
	mu          sync.Mutex
	doc         Document
	loads       int
	connections map[string]int
	fail        bool
}

func (s *countingSource) LoadRegistry(context.Context) (Document, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loads++
	if s.fail {
		return Document{}, errors.New("table unavailable")
	}
	return s.doc, nil
}

func (s *countingSource) LoadConnection(_ context.Context, id string) (ProvisioningDoc, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.connections == nil {
		s.connections = map[string]int{}
	}
	s.connections[id]++
	if s.fail {
		return ProvisioningDoc{}, false, errors.New("table unavailable")
	}
	for _, p := range s.doc.Provisionings {
		if p.ID == id {
			return p, true, nil
		}
	}
	return ProvisioningDoc{}, false, nil
}

func (s *countingSource) set(f func(*Document)) {
	s.mu.Lock()
	f(&s.doc)
	s.mu.Unlock()
}

func sourceWith(n int) *countingSource {
	src := &countingSource{}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("sp-%03d", i)
		src.doc.Provisionings = append(src.doc.Provisionings, ProvisioningDoc{ID: id, BaseURL: "https://" + id + ".example.org",
			Auth: AuthDoc{Method: "bearer", Token: "secretsmanager:invite/scim-connections/" + id}})
		src.doc.Applications = append(src.doc.Applications, ApplicationDoc{ManageID: fmt.Sprintf("app-%03d", i), ManageType: "SAML20_SP",
			Provisionings: []string{id}})
	}
	return src
}

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestLiveRefreshesWithinItsBound(t *testing.T) {
	src := sourceWith(3)
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	live := &Live{Source: src, Refresh: 30 * time.Second, Now: clock.now}
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	src.set(func(d *Document) { d.Applications[0].LandingPage = "https://changed.example.org" })
	clock.t = clock.t.Add(29 * time.Second)
	if a, _ := live.Application("app-000"); a.LandingPage != "" {
		t.Fatal("refreshed before the bound: every read would hit the table")
	}
	clock.t = clock.t.Add(2 * time.Second)
	if a, _ := live.Application("app-000"); a.LandingPage != "https://changed.example.org" {
		t.Fatalf("not refreshed after the bound: %+v", a)
	}
	if src.loads != 2 {
		t.Fatalf("loads = %d, want 2", src.loads)
	}
	// Invalidate: the process that made a change sees it at once.
	src.set(func(d *Document) { d.Applications[0].LandingPage = "https://again.example.org" })
	live.Invalidate()
	if a, _ := live.Application("app-000"); a.LandingPage != "https://again.example.org" {
		t.Fatal("Invalidate did not drop the snapshot")
	}
}

// An application or SCIM target added through another function is found
// at once (after MissRefresh) rather than after Refresh: a miss reloads
// the snapshot, at most once per MissRefresh however many misses come.
func TestLiveReloadsOnAMiss(t *testing.T) {
	src := sourceWith(1)
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	live := &Live{Source: src, Refresh: 30 * time.Second, Now: clock.now}
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	src.set(func(d *Document) {
		d.Provisionings = append(d.Provisionings, ProvisioningDoc{ID: "sp-new", BaseURL: "https://sp-new.example.org",
			Auth: AuthDoc{Method: "bearer", Token: "secretsmanager:invite/scim-connections/sp-new"}})
		d.Applications = append(d.Applications, ApplicationDoc{ManageID: "app-new", ManageType: "SAML20_SP", Provisionings: []string{"sp-new"}})
	})
	for _, step := range []struct {
		after     time.Duration
		lookup    func() bool
		wantFound bool
		wantLoads int
	}{
		// Within MissRefresh of the load: misses stand, nothing is read.
		{time.Second, func() bool { _, ok := live.Application("app-new"); return ok }, false, 1},
		{0, func() bool { _, ok := live.Application("nowhere"); return ok }, false, 1},
		// Past it: the miss reloads once and finds what was added.
		{2 * time.Second, func() bool { _, ok := live.Application("app-new"); return ok }, true, 2},
		{0, func() bool { _, ok := live.ServiceProvider("sp-new"); return ok }, true, 2},
		// Ids that exist nowhere cost one read per MissRefresh.
		{0, func() bool { _, ok := live.Application("nowhere"); return ok }, false, 2},
		{0, func() bool { _, ok := live.ServiceProvider("nowhere"); return ok }, false, 2},
		{3 * time.Second, func() bool { _, ok := live.Application("nowhere"); return ok }, false, 3},
		{0, func() bool { _, ok := live.Application("nowhere"); return ok }, false, 3},
	} {
		clock.t = clock.t.Add(step.after)
		if found := step.lookup(); found != step.wantFound || src.loads != step.wantLoads {
			t.Fatalf("at +%s: found %v with %d loads, want %v with %d", step.after, found, src.loads, step.wantFound, step.wantLoads)
		}
	}
}

func TestLiveKeepsItsSnapshotWhenTheTableFails(t *testing.T) {
	src := sourceWith(2)
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	live := &Live{Source: src, Refresh: 30 * time.Second, Now: clock.now}
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	src.fail = true
	clock.t = clock.t.Add(time.Minute)
	role := domain.Role{ApplicationUsages: []domain.ApplicationUsage{{Application: domain.Application{ManageID: "app-001"}}}}
	if sps := live.SPsOfRole(role); len(sps) != 1 || sps[0].ID != "sp-001" {
		t.Fatalf("SPsOfRole during an outage = %+v, want the last known sp-001", sps)
	}
	if _, ok := live.Target("sp-000"); !ok {
		t.Fatal("Target during an outage lost a known connection")
	}
	loads := src.loads
	live.Applications()
	if src.loads != loads {
		t.Fatal("a failed load is retried at once: an outage would multiply the reads")
	}
}

// TestDeliveryReadsAtMostOneConnectionItem: the provisioner's Target, once
// the start-up snapshot is older than the bound, reads that one connection
// item, and only once per bound however many deliveries ask.
func TestDeliveryReadsAtMostOneConnectionItem(t *testing.T) {
	src := sourceWith(500)
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	live := &Live{Source: src, Refresh: 30 * time.Second, Now: clock.now}
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(time.Minute)
	for i := 0; i < 100; i++ {
		if _, ok := live.Target("sp-042"); !ok {
			t.Fatal("sp-042 not found")
		}
	}
	if src.loads != 1 || src.connections["sp-042"] != 1 || len(src.connections) != 1 {
		t.Fatalf("100 deliveries read %d registries and connections %v; want no registry and one connection item", src.loads-1, src.connections)
	}
	src.set(func(d *Document) { d.Provisionings[42].BaseURL = "https://moved.example.org" })
	clock.t = clock.t.Add(DefaultConnectionRefresh + time.Second)
	if tg, _ := live.Target("sp-042"); tg.BaseURL != "https://moved.example.org" || src.connections["sp-042"] != 2 {
		t.Fatalf("a changed connection is not seen after the bound: %+v", tg)
	}
}

// BenchmarkListFiveHundredApplications is the registry side of the list
// page: 500 applications with a connection each, from the cache. The API
// benchmark (shared/httpapi) measures the whole request.
func BenchmarkListFiveHundredApplications(b *testing.B) {
	live := &Live{Source: sourceWith(500), Refresh: time.Hour}
	if err := live.Load(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(live.Applications()); n != 500 {
			b.Fatal(n)
		}
	}
}

// blockingSource holds LoadRegistry until released, to test a refresh in
// flight.
type blockingSource struct {
	*countingSource
	entered chan struct{}
	release chan struct{}
	block   bool
}

func (b *blockingSource) LoadRegistry(ctx context.Context) (Document, error) {
	if b.block {
		b.block = false
		b.entered <- struct{}{}
		<-b.release
	}
	return b.countingSource.LoadRegistry(ctx)
}

// TestLiveAnswersStaleOnlyUntilInvalidated: while one caller refreshes,
// others get the previous snapshot without waiting, but not after this
// process has changed the registry (Invalidate): then they read it anew.
func TestLiveAnswersStaleOnlyUntilInvalidated(t *testing.T) {
	src := &blockingSource{countingSource: sourceWith(1), entered: make(chan struct{}), release: make(chan struct{})}
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	live := &Live{Source: src, Refresh: 30 * time.Second, Now: clock.now}
	if err := live.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(time.Minute)
	src.block = true
	done := make(chan struct{})
	go func() { live.Applications(); close(done) }()
	<-src.entered
	if n := len(live.Applications()); n != 1 {
		t.Fatalf("during a refresh: %d applications, want the previous snapshot's 1", n)
	}
	src.set(func(d *Document) {
		d.Applications = append(d.Applications, ApplicationDoc{ManageID: "added", ManageType: "OIDC10_RP"})
	})
	live.Invalidate()
	if _, ok := live.Application("added"); !ok {
		t.Fatal("after Invalidate a caller got the snapshot from before the change")
	}
	close(src.release)
	<-done
	if _, ok := live.Application("added"); !ok {
		t.Fatal("the refresh that started before the change replaced the newer snapshot")
	}
}
