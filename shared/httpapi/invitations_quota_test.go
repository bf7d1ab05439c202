package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestInvitationsPerInviterPerDay: an inviter's invitations of a day (UTC)
// are counted; a request that would pass the limit is refused whole with
// 429 and the spec's error body, creating nothing; another inviter has a
// count of their own, and the next day starts again.
func TestInvitationsPerInviterPerDay(t *testing.T) {
	w := newWorld(t)
	w.Svc.InvitationsPerDay = 10
	invite := func(caller, prefix string, n int) *http.Response {
		t.Helper()
		var to []string
		for i := range n {
			to = append(to, fmt.Sprintf(`"%s%d@example.org"`, prefix, i))
		}
		body := `{"intendedAuthority":"GUEST","suppressSendingEmails":true,"roleIdentifiers":[{roleA}],"expiryDate":` +
			itoa(w.Now.Add(14*24*time.Hour).Unix()) + `,"invites":[` + strings.Join(to, ",") + `]}`
		return w.do(caller, "POST", "/api/v1/invitations", body).Result()
	}
	openCount := func() int {
		open, err := w.Store.ListOpenInvitationsOfRole(context.Background(), w.RoleA)
		if err != nil {
			t.Fatal(err)
		}
		return len(open)
	}
	if r := invite("manager", "a", 6); r.StatusCode != http.StatusCreated {
		t.Fatalf("6 of 10: %d", r.StatusCode)
	}
	before := openCount()
	rec := w.do("manager", "POST", "/api/v1/invitations", `{"intendedAuthority":"GUEST","suppressSendingEmails":true,"roleIdentifiers":[{roleA}],"expiryDate":{futureDate},
		"invites":["b1@example.org","b2@example.org","b3@example.org","b4@example.org","b5@example.org"]}`)
	body := decode[map[string]any](t, rec)
	if rec.Code != http.StatusTooManyRequests || body["exception"] != "TooManyRequestsException" ||
		!strings.Contains(fmt.Sprint(body["message"]), "at most 10 invitations a day") {
		t.Errorf("11 of 10: %d %s", rec.Code, rec.Body.String())
	}
	if n := openCount(); n != before {
		t.Errorf("the refused request created %d invitations", n-before)
	}
	if r := invite("manager", "c", 4); r.StatusCode != http.StatusCreated {
		t.Errorf("10 of 10: %d", r.StatusCode)
	}
	if r := invite("manager", "d", 1); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("one past the limit: %d", r.StatusCode)
	}
	if r := invite("inviter", "e", 10); r.StatusCode != http.StatusCreated {
		t.Errorf("another inviter: %d", r.StatusCode)
	}
	if r := invite("orgToken", "f", 11); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("more than the limit in one request: %d", r.StatusCode)
	}
	w.Now = w.Now.Add(24 * time.Hour)
	if r := invite("manager", "g", 10); r.StatusCode != http.StatusCreated {
		t.Errorf("the next day: %d", r.StatusCode)
	}
}

// TestCRMInvitationsCountAgainstTheDailyCap: the CRM's invitations and
// sendings again are invitations of one inviter like any other, so a CRM
// key cannot mail more links a day than the cap allows either.
func TestCRMInvitationsCountAgainstTheDailyCap(t *testing.T) {
	w := newCRMWorld(t)
	// The organisation is known once the CRM sent a profile of it.
	wantText(t, w.crm("crm", "POST", "/crm/profile", crmProfileBody("c-0", "jdoe", true)), "created")
	w.Svc.InvitationsPerDay = 2
	send := func(contact string) *http.Response {
		t.Helper()
		return w.crm("crm", "POST", "/crm/api/v1/invite/send",
			`{"org_id":"`+crmOrg+`","guid":"`+contact+`","email":"`+contact+`@example.org","roles":[{"roleId":"crm-x","sabCode":"S","name":"N"}]}`).Result()
	}
	if r := send("c-1"); r.StatusCode != http.StatusOK {
		t.Fatalf("first invitation: %d", r.StatusCode)
	}
	resend := w.crm("crm", "POST", "/crm/api/v1/invite/resend", `{"org_id":"`+crmOrg+`","guid":"c-1"}`)
	if resend.Code != http.StatusOK {
		t.Fatalf("second (sent again): %d %s", resend.Code, resend.Body.String())
	}
	if r := send("c-2"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("third invitation of a cap of 2: %d, want 429", r.StatusCode)
	}
	if again := w.crm("crm", "POST", "/crm/api/v1/invite/resend", `{"org_id":"`+crmOrg+`","guid":"c-1"}`); again.Code != http.StatusTooManyRequests {
		t.Errorf("sending again past the cap: %d, want 429", again.Code)
	}
	invs, err := w.Store.ListCRMInvitations(context.Background(), crmOrg, "c-2")
	if err != nil || len(invs) != 0 {
		t.Errorf("the refused invitation was created: %v, %v", invs, err)
	}
}
