package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Issue 21 item 1: every date and day count on input is range-checked with
// a 400 naming the field; epoch milliseconds are read as milliseconds.
func TestDatesOnInputAreBounded(t *testing.T) {
	w := newWorld(t)
	futureMillis := itoa(worldNow.Add(30 * 24 * time.Hour).UnixMilli())
	n := 0
	role := func(extra string) string {
		n++
		return `{"name":"Dated ` + itoa(int64(n)) + `","organizationGUID":"org-a","applicationUsages":[{"application":{"manageId":"wiki"}}]` + extra + `}`
	}
	invitation := func(expiry string) string {
		return `{"intendedAuthority":"GUEST","invites":["d@example.org"],"roleIdentifiers":[{roleA}],"suppressSendingEmails":true,"expiryDate":` + expiry + `}`
	}
	tests := []struct {
		name, method, path, body string
		status                   int
		field                    string
	}{
		{"days 2^31", "POST", "/api/v1/roles", role(`,"defaultExpiryDays":2147483648`), 400, "defaultExpiryDays"},
		{"days max int64", "POST", "/api/v1/roles", role(`,"defaultExpiryDays":9223372036854775807`), 400, "defaultExpiryDays"},
		{"days beyond int64", "POST", "/api/v1/roles", role(`,"defaultExpiryDays":9223372036854775808`), 400, "defaultExpiryDays"},
		{"days negative", "POST", "/api/v1/roles", role(`,"defaultExpiryDays":-1`), 400, "defaultExpiryDays"},
		{"days 100 years", "POST", "/api/v1/roles", role(`,"defaultExpiryDays":36500`), 201, ""},
		{"default date 0", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":0`), 400, "defaultExpiryDate"},
		{"default date -1", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":-1`), 400, "defaultExpiryDate"},
		{"default date year 1", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":"0001-01-01"`), 400, "defaultExpiryDate"},
		{"default date past", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":"2020-01-01"`), 400, "defaultExpiryDate"},
		{"default date null", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":null`), 201, ""},
		{"default date ms", "POST", "/api/v1/roles", role(`,"defaultExpiryDate":` + futureMillis), 201, ""},
		{"expiry ms", "POST", "/api/v1/invitations", invitation(futureMillis), 201, ""},
		{"expiry seconds", "POST", "/api/v1/invitations", invitation("{futureDate}"), 201, ""},
		{"expiry beyond 9999 ms", "POST", "/api/v1/invitations", invitation("253402300800000"), 400, "expiryDate"},
		{"expiry int64 max", "POST", "/api/v1/invitations", invitation("9223372036854775807"), 400, "expiryDate"},
		{"expiry 1e300", "POST", "/api/v1/invitations", invitation("1e300"), 400, "expiryDate"},
		{"expiry year 10000", "POST", "/api/v1/invitations", invitation(`"10000-01-01"`), 400, "expiryDate"},
		{"expiry text", "POST", "/api/v1/invitations", invitation(`"soon"`), 400, "expiryDate"},
		{"end date ms poison", "PUT", "/api/v1/user_roles", `{"userRoleId":{userRole:guest},"endDate":1796448000000000}`, 400, "endDate"},
		{"token expiry", "POST", "/api/v1/tokens", `{"description":"d","expiresAt":"0001-01-01"}`, 400, "expiresAt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.do("super", tc.method, tc.path, tc.body)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body.String())
			}
			if tc.field != "" {
				msg := decode[map[string]any](t, rec)["message"].(string)
				if !strings.Contains(msg, tc.field) || strings.Contains(msg, "int64") || strings.Contains(msg, "FlexTime") {
					t.Errorf("message %q should name %s and no Go type", msg, tc.field)
				}
			}
		})
	}
	// The invitation sent with milliseconds expires on the intended day.
	invs, err := w.Store.ListOpenInvitationsOfRole(context.Background(), w.RoleA)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, inv := range invs {
		if inv.Email == "d@example.org" && inv.ExpiryDate.Equal(worldNow.Add(30*24*time.Hour)) {
			found = true
		}
	}
	if !found {
		t.Errorf("no invitation of d@example.org expiring %v: %+v", worldNow.Add(30*24*time.Hour), invs)
	}
	// Every listing still answers.
	for _, path := range []string{"/api/v1/roles", "/api/v1/invitations/roles/{roleA}", "/api/v1/tokens"} {
		if rec := w.do("super", "GET", path, ""); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
}
