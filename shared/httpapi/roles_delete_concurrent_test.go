package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// TestTwoDeletionsOfALargeRoleBothAnswer204: two DELETEs of one role with
// more members than a request removes, sent at the same moment (a double
// click, a client's retry), both answer 204 as a deletion does; the jobs
// they start remove every member, and only then does the role answer 404.
func TestTwoDeletionsOfALargeRoleBothAnswer204(t *testing.T) {
	w := newWorld(t)
	w.Svc.RoleDeletionBudget = 3
	ctx := context.Background()
	const members = 25
	firstUser, err := w.Store.NextIDs(ctx, "user", members)
	if err != nil {
		t.Fatal(err)
	}
	firstMembership, err := w.Store.NextIDs(ctx, "userrole", members)
	if err != nil {
		t.Fatal(err)
	}
	seed := domain.Seed{}
	for i := range int64(members) {
		uid := firstUser + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-double-", uid), Name: fmt.Sprint("Double ", uid),
			Email: fmt.Sprint("double", uid, "@example.org"), CreatedAt: w.Now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: firstMembership + i, UserID: uid, RoleID: w.RoleA, Authority: domain.Guest, CreatedAt: w.Now})
	}
	if err := w.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	start := make(chan struct{})
	codes := make(chan string, 2)
	for range 2 {
		go func() {
			<-start
			rec := w.do("superToken", "DELETE", "/api/v1/roles/{roleA}", "")
			codes <- fmt.Sprintf("%d %s", rec.Code, rec.Body.String())
		}()
	}
	close(start)
	for range 2 {
		if got := <-codes; got != fmt.Sprintf("%d ", http.StatusNoContent) {
			t.Errorf("a DELETE of the role at the same moment as another answered %s, want 204", got)
		}
	}
	// The jobs run in this process (no jobs function here).
	for deadline := time.Now().Add(60 * time.Second); ; {
		_, err := w.Store.GetRoleDeletion(ctx, w.RoleA)
		if domain.IsNotFound(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the role's deletion is still in progress a minute later (%v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if page, _, err := w.Store.ListUserRolesOfRole(ctx, w.RoleA, "", 100); err != nil || len(page) != 0 {
		t.Errorf("%d memberships of the deleted role left (%v), want none", len(page), err)
	}
	if rec := w.do("superToken", "DELETE", "/api/v1/roles/{roleA}", ""); rec.Code != http.StatusNotFound {
		t.Errorf("a DELETE after the deletion finished: %d, want 404", rec.Code)
	}
}
