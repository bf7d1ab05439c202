package httpapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
)

// Issue 21 item 7: of concurrent accepts of one invitation, exactly one
// wins (201) and every loser answers 409; exactly one membership results.
func TestConcurrentAcceptsOneWinsEveryLoserConflicts(t *testing.T) {
	w := newWorld(t)
	w.signIn("zoe")
	inv := w.inviteByAPI("super", `{"intendedAuthority":"GUEST","invites":["zoe@example.org"],"roleIdentifiers":[{roleB}],
		"expiryDate":{futureDate},"suppressSendingEmails":true}`)[0]
	body := `{"hash":"` + inv.Secret + `","invitationId":` + itoa(inv.ID) + `}`
	const n = 8
	codes := make([]int, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			codes[i] = w.do("zoe", "POST", "/api/v1/invitations/accept", body).Code
		})
	}
	close(start)
	wg.Wait()
	won, lost := 0, 0
	for _, c := range codes {
		switch c {
		case http.StatusCreated:
			won++
		case http.StatusConflict:
			lost++
		}
	}
	if won != 1 || lost != n-1 {
		t.Errorf("answers %v: want one 201 and %d × 409", codes, n-1)
	}
	members, _, err := w.Store.ListUserRolesOfRole(context.Background(), w.RoleB, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(members) != 1 {
		t.Errorf("%d memberships of role B after the race, want 1: %+v", len(members), members)
	}
}
