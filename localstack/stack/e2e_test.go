package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/testkit"
)

// testClock is wall time plus an offset the test moves forward.
type testClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

// Set puts the clock at wall time plus d.
func (c *testClock) Set(d time.Duration) {
	c.mu.Lock()
	c.offset = d
	c.mu.Unlock()
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

type client struct {
	t    testing.TB
	base string
}

// do sends a JSON request and decodes the JSON answer into out (if not nil).
func (c client) do(method, path string, headers map[string]string, body any, out any) int {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

type errorBody struct {
	Timestamp int64  `json:"timestamp"`
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Exception string `json:"exception"`
	Message   string `json:"message"`
	Path      string `json:"path"`
}

func (e errorBody) check(t *testing.T, status int, path string) {
	t.Helper()
	if e.Status != status || e.Timestamp == 0 || e.Error == "" || e.Exception == "" || e.Message == "" || e.Path != path {
		t.Fatalf("error body = %+v, want status %d on %s with every field set", e, status, path)
	}
}

// eventually polls cond until it holds or 30 seconds have passed.
var eventually = testkit.Eventually

// startTestStack starts the local stack on a free port with substitutes of
// its own; appsConfig "" keeps the seeded sample application.
func startTestStack(t testing.TB, clock *testClock, appsConfig string) *Stack {
	t.Helper()
	return startTestStackWith(t, clock, appsConfig, Options{VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond})
}

// startTestStackWith is startTestStack with options of the caller's (the
// address, clock and job interval are the test's).
func startTestStackWith(t testing.TB, clock *testClock, appsConfig string, opts Options) *Stack {
	t.Helper()
	t.Setenv("BOOTSTRAP_API_TOKEN", "e2e-bootstrap-token-0123456789abcdef")
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_SESV2",
		"AWS_ENDPOINT_URL_SECRETS_MANAGER", "OIDC_ISSUER", "PUBLIC_BASE_URL", "TABLE_NAME", "REMINDER_DAYS", sampleSPTokenEnv} {
		t.Setenv(k, "")
	}
	opts.Applications = appsConfig
	t.Setenv("TABLE_NAME", dynamotest.TableName()) // on the process's shared DynamoDB Local
	opts.Addr, opts.Clock, opts.JobInterval = "127.0.0.1:0", clock.Now, -1
	s, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

var linkPattern = regexp.MustCompile(`/invitation/accept\?hash=([A-Za-z0-9_\-]+)`)

func TestInviteAcceptProvisionEndToEnd(t *testing.T) {
	clock := &testClock{}
	s := startTestStack(t, clock, "")
	c := client{t: t, base: s.URL}
	admin := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}

	if got := c.do("GET", "/health", nil, nil, nil); got != 200 {
		t.Fatalf("health = %d", got)
	}

	// 1. A role linked to the sample application: its group appears at the SP, empty.
	var role struct {
		ID   int64  `json:"id"`
		URN  string `json:"urn"`
		Name string `json:"name"`
	}
	roleBody := map[string]any{"name": "Researchers", "description": "Research wiki", "organizationGUID": "org-e2e", "defaultExpiryDays": 365,
		"applicationUsages": []any{map[string]any{"landingPage": "https://wiki.example.org",
			"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}}
	if got := c.do("POST", "/api/v1/roles", admin, roleBody, &role); got != http.StatusCreated || role.ID == 0 || role.URN == "" {
		t.Fatalf("create role = %d %+v", got, role)
	}
	eventually(t, "the group at the SP", func() bool { return len(s.SP.Groups()) == 1 })
	group := s.SP.Groups()[0]
	if group.DisplayName != "Researchers" || group.ExternalID != role.URN || len(group.Members) != 0 {
		t.Fatalf("group at SP = %+v, want Researchers with externalId %s and no members", group, role.URN)
	}

	// A second role with the same name (any case) is refused and changes nothing.
	var dup errorBody
	roleBody["name"] = "researchers"
	if got := c.do("POST", "/api/v1/roles", admin, roleBody, &dup); got != http.StatusConflict {
		t.Fatalf("duplicate role name = %d, want 409", got)
	}
	dup.check(t, 409, "/api/v1/roles")

	// 2. Invite two recipients: one plain (I2), one with a placeholder id (I3).
	expiry := clock.Now().Add(14 * 24 * time.Hour).Unix()
	var inv1, inv2 struct {
		Status int `json:"status"`
		URLs   []struct {
			Recipient     string `json:"recipient"`
			InvitationURL string `json:"invitationURL"`
		} `json:"recipientInvitationURLs"`
	}
	if got := c.do("POST", "/api/external/v1/invitations", admin, map[string]any{
		"intendedAuthority": "GUEST", "message": "Welcome to the wiki", "language": "en", "guestRoleIncluded": true,
		"invites": []string{"alice@example.org"}, "roleIdentifiers": []int64{role.ID}, "expiryDate": expiry,
	}, &inv1); got != http.StatusCreated || inv1.Status != 201 || len(inv1.URLs) != 1 || inv1.URLs[0].Recipient != "alice@example.org" {
		t.Fatalf("invite alice = %d %+v", got, inv1)
	}
	if got := c.do("POST", "/api/external/v1/internal/invite/invitations", admin, map[string]any{
		"intendedAuthority": "GUEST", "language": "nl", "guestRoleIncluded": true,
		"invitations":     []any{map[string]any{"email": "bob@example.org", "internalPlaceholderIdentifier": "staff-4711"}},
		"roleIdentifiers": []int64{role.ID}, "expiryDate": time.Unix(expiry, 0).UTC().Format(time.RFC3339),
	}, &inv2); got != http.StatusCreated || len(inv2.URLs) != 1 {
		t.Fatalf("invite bob = %d %+v", got, inv2)
	}

	// 3. The e-mails, read from the SES substitute, carry the links.
	hashes := map[string]string{}
	eventually(t, "two invitation e-mails", func() bool {
		mails, err := s.SES.Mails(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mails {
			if match := linkPattern.FindStringSubmatch(m.HTML + m.Text); match != nil && len(m.To) > 0 {
				hashes[m.To[0]] = match[1]
			}
		}
		return len(hashes) == 2
	})
	if !strings.Contains(inv1.URLs[0].InvitationURL, hashes["alice@example.org"]) {
		t.Fatalf("e-mailed link differs from the response's URL %s", inv1.URLs[0].InvitationURL)
	}

	// 4. Each person reads the invitation and accepts it, signed in at the IdP.
	people := map[string]map[string]any{
		"alice@example.org": {"sub": "urn:collab:person:example.org:alice", "eduperson_principal_name": "alice@example.org",
			"given_name": "Alice", "family_name": "Archer", "email": "alice@example.org", "schac_home_organization": "example.org"},
		"bob@example.org": {"sub": "urn:collab:person:example.org:bob", "eduperson_principal_name": "bob@example.org",
			"given_name": "Bob", "family_name": "Baker", "email": "bob@example.org", "schac_home_organization": "example.org"},
	}
	tokens := map[string]string{}
	invitationIDs := map[string]int64{}
	for email, claims := range people {
		var open struct {
			ID     int64  `json:"id"`
			Email  string `json:"email"`
			Status string `json:"status"`
			Roles  []struct {
				Role struct{ Name string } `json:"role"`
			} `json:"roles"`
		}
		if got := c.do("GET", "/api/v1/invitations/public?hash="+hashes[email], nil, nil, &open); got != 200 ||
			open.Email != email || open.Status != "OPEN" || len(open.Roles) != 1 || open.Roles[0].Role.Name != "Researchers" {
			t.Fatalf("open invitation for %s = %d %+v", email, got, open)
		}
		invitationIDs[email] = open.ID
		tok, err := s.IdP.Mint(claims, "invite", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		tokens[email] = tok
		var accepted struct {
			UserID    int64 `json:"userId"`
			UserRoles []struct {
				Authority string `json:"authority"`
				EndDate   string `json:"endDate"`
			} `json:"userRoles"`
		}
		if got := c.do("POST", "/api/v1/invitations/accept", map[string]string{"Authorization": "Bearer " + tok},
			map[string]any{"hash": hashes[email], "invitationId": open.ID}, &accepted); got != http.StatusCreated ||
			accepted.UserID == 0 || len(accepted.UserRoles) != 1 || accepted.UserRoles[0].Authority != "GUEST" || accepted.UserRoles[0].EndDate == "" {
			t.Fatalf("accept for %s = %d %+v", email, got, accepted)
		}
	}

	// 5. Both users arrive at the SP with the right attributes, and in the group.
	eventually(t, "two members in the group at the SP", func() bool {
		gs := s.SP.Groups()
		return len(s.SP.Users()) == 2 && len(gs) == 1 && len(gs[0].Members) == 2
	})
	users := s.SP.Users()
	sort.Slice(users, func(i, j int) bool { return users[i].UserName < users[j].UserName })
	want := []struct{ userName, externalID, given, family string }{
		{"alice@example.org", "alice@example.org", "Alice", "Archer"},
		{"bob@example.org", "staff-4711", "Bob", "Baker"},
	}
	for i, w := range want {
		u := users[i]
		if u.UserName != w.userName || u.ExternalID != w.externalID || u.Name == nil || u.Name.GivenName != w.given ||
			u.Name.FamilyName != w.family || len(u.Emails) != 1 || u.Emails[0].Value != w.userName {
			t.Errorf("SP user %d = %+v, want %+v", i, u, w)
		}
	}
	memberIDs := map[string]bool{}
	for _, m := range s.SP.Groups()[0].Members {
		memberIDs[m.Value] = true
	}
	for _, u := range users {
		if !memberIDs[u.ID] {
			t.Errorf("user %s (%s) is not a member of the group at the SP", u.UserName, u.ID)
		}
	}

	// 6. Clear errors that change nothing.
	t.Run("already accepted", func(t *testing.T) {
		var e errorBody
		got := c.do("POST", "/api/v1/invitations/accept", map[string]string{"Authorization": "Bearer " + tokens["alice@example.org"]},
			map[string]any{"hash": hashes["alice@example.org"], "invitationId": invitationIDs["alice@example.org"]}, &e)
		if got != http.StatusConflict {
			t.Fatalf("second accept = %d, want 409", got)
		}
		e.check(t, 409, "/api/v1/invitations/accept")
	})
	t.Run("unknown hash", func(t *testing.T) {
		var e errorBody
		got := c.do("POST", "/api/v1/invitations/accept", map[string]string{"Authorization": "Bearer " + tokens["bob@example.org"]},
			map[string]any{"hash": "not-a-real-hash", "invitationId": 1}, &e)
		if got != http.StatusNotFound {
			t.Fatalf("unknown hash = %d, want 404", got)
		}
		e.check(t, 404, "/api/v1/invitations/accept")
		if got := c.do("GET", "/api/v1/invitations/public?hash=not-a-real-hash", nil, nil, &e); got != http.StatusNotFound {
			t.Fatalf("unknown hash read = %d, want 404", got)
		}
	})
	t.Run("expired invitation", func(t *testing.T) {
		var res struct {
			URLs []struct {
				InvitationURL string `json:"invitationURL"`
			} `json:"recipientInvitationURLs"`
			IDs []int64 `json:"invitationIdentifiers"`
		}
		c.do("POST", "/api/external/v1/invitations", admin, map[string]any{
			"intendedAuthority": "GUEST", "invites": []string{"carol@example.org"}, "roleIdentifiers": []int64{role.ID},
			"expiryDate": clock.Now().Add(time.Hour).Unix(), "suppressSendingEmails": true}, &res)
		if len(res.URLs) != 1 {
			t.Fatalf("invite carol: %+v", res)
		}
		hash := linkPattern.FindStringSubmatch(res.URLs[0].InvitationURL)[1]
		clock.Advance(2 * time.Hour)
		tok, _ := s.IdP.Mint(map[string]any{"sub": "carol", "email": "carol@example.org"}, "invite", 3*time.Hour)
		var e errorBody
		if got := c.do("POST", "/api/v1/invitations/accept", map[string]string{"Authorization": "Bearer " + tok},
			map[string]any{"hash": hash, "invitationId": res.IDs[0]}, &e); got != http.StatusGone {
			t.Fatalf("expired accept = %d, want 410", got)
		}
		e.check(t, 410, "/api/v1/invitations/accept")
		if n := len(s.SP.Users()); n != 2 {
			t.Fatalf("SP has %d users after a refused acceptance, want 2", n)
		}
	})
	t.Run("delete without access", func(t *testing.T) {
		var e errorBody
		path := fmt.Sprintf("/api/internal/roles/%d", role.ID)
		if got := c.do("DELETE", path, map[string]string{"Authorization": "Bearer " + tokens["alice@example.org"]}, nil, &e); got != http.StatusBadRequest {
			t.Fatalf("guest deleting the role = %d, want 400", got)
		}
		e.check(t, 400, path)
	})

	// 7. Deleting the role deletes the group at the SP.
	if got := c.do("DELETE", fmt.Sprintf("/api/v1/roles/%d", role.ID), admin, nil, nil); got != http.StatusNoContent {
		t.Fatalf("delete role = %d", got)
	}
	eventually(t, "the group to be gone at the SP", func() bool { return len(s.SP.Groups()) == 0 })
	var e errorBody
	if got := c.do("GET", fmt.Sprintf("/api/v1/roles/%d", role.ID), admin, nil, &e); got != http.StatusNotFound {
		t.Fatalf("deleted role read = %d, want 404", got)
	}
	assertNoDuplicateUsers(t, s.SP.Users())
}

func assertNoDuplicateUsers(t *testing.T, users []scim.User) {
	t.Helper()
	seen := map[string]bool{}
	for _, u := range users {
		if seen[u.UserName] {
			t.Fatalf("user %s exists twice at the SP", u.UserName)
		}
		seen[u.UserName] = true
	}
}
