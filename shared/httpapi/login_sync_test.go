package httpapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// Spec 3.1: a known person whose attributes changed at the IdP is updated
// on their next request, and each SP where they exist or are about to (the
// SPs of their guest roles, where a creation may not be linked yet) gets a
// SCIM update; one where the user is not, when it comes, changes nothing.
func TestLoginWithChangedAttributesUpdatesTheUserAtItsSPs(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	guest, err := w.Store.GetUser(ctx, w.Users["guest"].ID)
	if err != nil {
		t.Fatal(err)
	}
	mustPutLink(t, w, guest.ID, "sp-a") // created at sp-a; at sp-b, the role's other SP, not linked yet
	setup := len(w.Queue.Deliveries())

	// Unchanged attributes, recent activity: nothing written, nothing sent.
	if rec := w.do("guest", "GET", "/api/v1/users/{user:guest}/provisioning", ""); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	if u, err := w.Store.GetUser(ctx, guest.ID); err != nil || u.Version != guest.Version {
		t.Fatalf("an unchanged login wrote the user: version %d -> %d, %v", guest.Version, u.Version, err)
	}
	if n := len(w.Queue.Deliveries()) - setup; n != 0 {
		t.Fatalf("an unchanged login queued %d deliveries", n)
	}

	ppl := w.API.Authenticator.People.(people)
	changed := personOf("guest")
	changed.Email = "guest.renamed@example.org"
	changed.FamilyName = "Renamed"
	changed.GivenName = "" // a claim not sent keeps the stored value
	ppl["guest"] = changed
	if rec := w.do("guest", "GET", "/api/v1/users/{user:guest}/provisioning", ""); rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body.String())
	}
	u, err := w.Store.GetUser(ctx, guest.ID)
	if err != nil || u.Email != "guest.renamed@example.org" || u.FamilyName != "Renamed" || u.GivenName != guest.GivenName ||
		u.Version != guest.Version+1 || !u.LastActivity.Equal(w.Now) {
		t.Fatalf("stored user %+v, %v", u, err)
	}
	got := w.Queue.Deliveries()[setup:]
	assertKinds(t, got, "sp-a user.update", "sp-b user.update")
	for _, d := range got {
		if d.UserID != guest.ID {
			t.Errorf("update of user %d, want %d", d.UserID, guest.ID)
		}
	}

	// The same attributes again: no write, no delivery.
	if rec := w.do("guest", "GET", "/api/v1/users/{user:guest}/provisioning", ""); rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	if again, _ := w.Store.GetUser(ctx, guest.ID); again.Version != u.Version || len(w.Queue.Deliveries()) != setup+len(got) {
		t.Fatalf("a repeated login wrote (version %d -> %d) or queued (%d)", u.Version, again.Version, len(w.Queue.Deliveries())-setup)
	}
}

// lastActivity is written at most once per ActivityInterval, without
// deliveries when nothing SPs see changed.
func TestLoginRecordsActivityAtMostHourly(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	inviter, err := w.Store.GetUser(ctx, w.Users["inviter"].ID)
	if err != nil {
		t.Fatal(err)
	}
	mustPutLink(t, w, inviter.ID, "sp-a")
	setup := len(w.Queue.Deliveries())
	for _, step := range []struct {
		advance     time.Duration
		wantVersion int64
	}{{30 * time.Minute, inviter.Version}, {31 * time.Minute, inviter.Version + 1}, {59 * time.Minute, inviter.Version + 1}, {2 * time.Minute, inviter.Version + 2}} {
		w.Now = w.Now.Add(step.advance)
		if rec := w.do("inviter", "GET", "/api/v1/user_roles/roles/{roleA}", ""); rec.Code != http.StatusOK {
			t.Fatalf("status %d", rec.Code)
		}
		u, err := w.Store.GetUser(ctx, inviter.ID)
		if err != nil || u.Version != step.wantVersion {
			t.Fatalf("at %s: version %d, want %d (%v)", w.Now, u.Version, step.wantVersion, err)
		}
		if u.Version > inviter.Version && w.Now.Sub(u.LastActivity) >= time.Hour {
			t.Errorf("at %s: lastActivity %s", w.Now, u.LastActivity)
		}
	}
	if n := len(w.Queue.Deliveries()) - setup; n != 0 {
		t.Errorf("recording activity queued %d deliveries", n)
	}
}
