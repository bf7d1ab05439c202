package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
)

// Issue 21 item 4: free text is bounded and free of control and bidi
// characters, guest-facing URLs are https, addresses are deliverable and
// de-duplicated case-insensitively; each refusal is a 400 naming the field.
func TestInputIsNormalizedAndBounded(t *testing.T) {
	w := newWorld(t)
	n := 0
	role := func(name, extra string) string {
		n++
		return `{"name":"` + name + `","organizationGUID":"org-a","applicationUsages":[{"application":{"manageId":"wiki"}` + extra + `}]}`
	}
	invite := func(recipients string) string {
		return `{"intendedAuthority":"GUEST","invites":[` + recipients + `],"roleIdentifiers":[{roleA}],"suppressSendingEmails":true,"expiryDate":{futureDate}}`
	}
	for _, tc := range []struct {
		name, path, body string
		status           int
		field            string
	}{
		{"NUL in name", "/api/v1/roles", role(`a\u0000b`, ""), 400, "name"},
		{"ESC in name", "/api/v1/roles", role(`\u001b[31mred`, ""), 400, "name"},
		{"bidi override", "/api/v1/roles", role(`\u202egnp.exe`, ""), 400, "name"},
		{"isolate", "/api/v1/roles", role(`a\u2066b`, ""), 400, "name"},
		{"long name", "/api/v1/roles", role(strings.Repeat("n", 256), ""), 400, "name"},
		{"plain name", "/api/v1/roles", role("Research group Ω", ""), 201, ""},
		{"http landing page", "/api/v1/roles", role("L1", `,"landingPage":"http://wiki.example.org"`), 400, "landingPage"},
		{"javascript landing page", "/api/v1/roles", role("L2", `,"landingPage":"javascript:alert(1)"`), 400, "landingPage"},
		{"localhost landing page", "/api/v1/roles", role("L3", `,"landingPage":"http://localhost:8080/x"`), 201, ""},
		{"https landing page", "/api/v1/roles", role("L4", `,"landingPage":"https://wiki.example.org/start"`), 201, ""},
		{"no domain", "/api/v1/invitations", invite(`"a@localhost"`), 400, "e-mail"},
		{"IP domain", "/api/v1/invitations", invite(`"a@1.2.3.4"`), 400, "e-mail"},
		{"display name", "/api/v1/invitations", invite(`"A <a@example.org>"`), 400, "e-mail"},
		{"case duplicate", "/api/v1/invitations", invite(`"Dup@Example.org","dup@example.ORG"`), 400, "twice"},
		{"NUL in message", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["m@example.org"],"roleIdentifiers":[{roleA}],"message":"hi\u0000","expiryDate":{futureDate}}`, 400, "message"},
		{"multiline message", "/api/v1/invitations", `{"intendedAuthority":"GUEST","invites":["m@example.org"],"roleIdentifiers":[{roleA}],"message":"hi\nthere","suppressSendingEmails":true,"expiryDate":{futureDate}}`, 201, ""},
		{"token description", "/api/v1/tokens", `{"description":"x\u202e"}`, 400, "description"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := w.do("super", "POST", tc.path, tc.body)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body.String())
			}
			if tc.field != "" {
				if msg := decode[map[string]any](t, rec)["message"].(string); !strings.Contains(msg, tc.field) {
					t.Errorf("message %q does not name %s", msg, tc.field)
				}
			}
		})
	}
	if rec := w.do("super", "GET", "/api/v1/roles", ""); rec.Code != http.StatusOK {
		t.Fatal(rec.Code)
	}
}
