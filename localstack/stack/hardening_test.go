package stack

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// Issue 21: on the running stack, poisoned dates are refused with a 400,
// an epoch in milliseconds is read as such, and every listing still
// answers 200.
func TestPoisonedDatesAreRefusedAndListingsAnswer(t *testing.T) {
	clock := &testClock{}
	s := startTestStack(t, clock, "")
	c := client{t: t, base: s.URL}
	admin := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}
	app := []any{map[string]any{"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}

	var role struct {
		ID int64 `json:"id"`
	}
	if got := c.do("POST", "/api/v1/roles", admin, map[string]any{"name": "Hardened", "organizationGUID": "org-e2e", "defaultExpiryDays": 30, "applicationUsages": app}, &role); got != http.StatusCreated {
		t.Fatalf("create role = %d", got)
	}
	future := time.Now().Add(30 * 24 * time.Hour)
	invite := func(expiry any) int {
		return c.do("POST", "/api/v1/invitations", admin, map[string]any{"intendedAuthority": "GUEST", "invites": []string{fmt.Sprintf("g%d@example.org", time.Now().UnixNano())},
			"roleIdentifiers": []int64{role.ID}, "suppressSendingEmails": true, "expiryDate": expiry}, nil)
	}
	var e struct {
		Message string `json:"message"`
	}
	for name, tc := range map[string]struct {
		method, path string
		body         map[string]any
	}{
		"days 2^31":       {"POST", "/api/v1/roles", map[string]any{"name": "P1", "organizationGUID": "org-e2e", "defaultExpiryDays": 2147483648, "applicationUsages": app}},
		"days int64":      {"POST", "/api/v1/roles", map[string]any{"name": "P2", "organizationGUID": "org-e2e", "defaultExpiryDays": int64(9223372036854775807), "applicationUsages": app}},
		"default date -1": {"POST", "/api/v1/roles", map[string]any{"name": "P3", "organizationGUID": "org-e2e", "defaultExpiryDate": -1, "applicationUsages": app}},
		"expiry µs": {"POST", "/api/v1/invitations", map[string]any{"intendedAuthority": "GUEST", "invites": []string{"p@example.org"},
			"roleIdentifiers": []int64{role.ID}, "expiryDate": future.UnixMilli() * 1000}},
	} {
		if got := c.do(tc.method, tc.path, admin, tc.body, &e); got != http.StatusBadRequest {
			t.Errorf("%s: %d %q, want 400", name, got, e.Message)
		}
	}
	if got := invite(future.UnixMilli()); got != http.StatusCreated {
		t.Errorf("expiry in epoch milliseconds = %d, want 201", got)
	}
	if got := invite(future.Unix()); got != http.StatusCreated {
		t.Errorf("expiry in epoch seconds = %d, want 201", got)
	}
	for _, path := range []string{"/api/v1/roles", fmt.Sprintf("/api/v1/invitations/roles/%d", role.ID), "/api/v1/invitations/all",
		"/api/v1/tokens", fmt.Sprintf("/api/v1/user_roles/roles/%d", role.ID)} {
		if got := c.do("GET", path, admin, nil, nil); got != http.StatusOK {
			t.Errorf("GET %s = %d", path, got)
		}
	}
	// The date check reads every item: a job, whose result lists nothing
	// to repair after bounded input.
	var dates struct {
		Count int `json:"count"`
	}
	if got := c.runJob("GET", "/api/v1/system/date-repair", admin, &dates); got != http.StatusAccepted || dates.Count != 0 {
		t.Errorf("GET /api/v1/system/date-repair = %d, %d dates to repair", got, dates.Count)
	}
}
