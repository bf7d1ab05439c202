package scim

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

const userBody = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
 "id":"u-1","externalId":"jdoe@example.edu","userName":"jdoe@example.edu","displayName":"J Doe",
 "name":{"familyName":"Doe","givenName":"J"},"emails":[{"type":"work","value":"jdoe@example.edu"}],
 "meta":{"resourceType":"User","created":"2026-01-01T00:00:00Z","lastModified":"2026-01-01T00:00:00Z","location":"https://sp/v1/Users/u-1"}}`

const groupBody = `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"id":"g-1","externalId":"urn:collab:group:x","displayName":"Guests","members":[]}`

func sampleUser() User {
	return User{
		ExternalID: "jdoe@example.edu", UserName: "jdoe@example.edu", DisplayName: "J Doe",
		Name:   &Name{FamilyName: "Doe", GivenName: "J"},
		Emails: []Email{{Type: "work", Value: "jdoe@example.edu"}},
	}
}

// TestRequests checks method, path, headers and body of every operation.
func TestRequests(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		rep        reply
		call       func(c *Client) error
		method     string
		path       string
		wantBody   string // "" means no body
		wantFilter string
	}{
		{
			name: "create user", rep: reply{Status: 201, Body: userBody, Header: map[string]string{"Location": "https://sp/v1/Users/u-1"}},
			call: func(c *Client) error {
				u, err := c.CreateUser(ctx, sampleUser())
				if err == nil && (u.ID != "u-1" || u.Meta == nil || u.Meta.Location == "") {
					t.Errorf("returned user %+v", u)
				}
				return err
			},
			method: "POST", path: "/v1/Users",
			wantBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"externalId":"jdoe@example.edu","userName":"jdoe@example.edu",
				"name":{"familyName":"Doe","givenName":"J"},"displayName":"J Doe","emails":[{"type":"work","value":"jdoe@example.edu"}]}`,
		},
		{
			name: "create user answered 200", rep: reply{Status: 200, Body: userBody},
			call:   func(c *Client) error { _, err := c.CreateUser(ctx, sampleUser()); return err },
			method: "POST", path: "/v1/Users",
			wantBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"externalId":"jdoe@example.edu","userName":"jdoe@example.edu",
				"name":{"familyName":"Doe","givenName":"J"},"displayName":"J Doe","emails":[{"type":"work","value":"jdoe@example.edu"}]}`,
		},
		{
			name: "replace user carries id and no meta", rep: reply{Status: 200, Body: userBody},
			call: func(c *Client) error {
				u := sampleUser()
				u.Meta = &Meta{ResourceType: "User"}
				_, err := c.ReplaceUser(ctx, "u-1", u)
				return err
			},
			method: "PUT", path: "/v1/Users/u-1",
			wantBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"id":"u-1","externalId":"jdoe@example.edu","userName":"jdoe@example.edu",
				"name":{"familyName":"Doe","givenName":"J"},"displayName":"J Doe","emails":[{"type":"work","value":"jdoe@example.edu"}]}`,
		},
		{
			name: "delete user 204", rep: reply{Status: 204},
			call:   func(c *Client) error { return c.DeleteUser(ctx, "u-1") },
			method: "DELETE", path: "/v1/Users/u-1",
		},
		{
			name: "delete user 200 without body", rep: reply{Status: 200},
			call:   func(c *Client) error { return c.DeleteUser(ctx, "u-1") },
			method: "DELETE", path: "/v1/Users/u-1",
		},
		{
			name: "get user escapes id", rep: reply{Status: 200, Body: userBody},
			call:   func(c *Client) error { _, err := c.GetUser(ctx, "a/b c"); return err },
			method: "GET", path: "/v1/Users/a%2Fb%20c",
		},
		{
			name: "find users", rep: reply{Status: 200, Body: `{"schemas":["` + SchemaListResponse + `"],"totalResults":1,"Resources":[` + userBody + `]}`},
			call: func(c *Client) error {
				us, err := c.FindUsers(ctx, "externalId", "jdoe@example.edu")
				if err == nil && (len(us) != 1 || us[0].ID != "u-1") {
					t.Errorf("found %+v", us)
				}
				return err
			},
			method: "GET", path: "/v1/Users", wantFilter: `externalId eq "jdoe@example.edu"`,
		},
		{
			name: "create group with empty members", rep: reply{Status: 201, Body: groupBody},
			call: func(c *Client) error {
				g, err := c.CreateGroup(ctx, Group{ExternalID: "urn:collab:group:x", DisplayName: "Guests"})
				if err == nil && g.ID != "g-1" {
					t.Errorf("returned group %+v", g)
				}
				return err
			},
			method: "POST", path: "/v1/Groups",
			wantBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"externalId":"urn:collab:group:x","displayName":"Guests","members":[]}`,
		},
		{
			name: "replace group with members", rep: reply{Status: 200, Body: groupBody},
			call: func(c *Client) error {
				_, err := c.ReplaceGroup(ctx, "g-1", Group{ExternalID: "urn:collab:group:x", DisplayName: "Guests",
					Members: []Member{{Value: "u-1", ExternalID: "7"}, {Value: "u-2", ExternalID: "8"}}})
				return err
			},
			method: "PUT", path: "/v1/Groups/g-1",
			wantBody: `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"id":"g-1","externalId":"urn:collab:group:x","displayName":"Guests",
				"members":[{"value":"u-1","externalId":"7"},{"value":"u-2","externalId":"8"}]}`,
		},
		{
			name: "patch add", rep: reply{Status: 200, Body: groupBody},
			call: func(c *Client) error {
				return c.PatchGroupMembers(ctx, "g-1", PatchAdd, []Member{{Value: "u-1", ExternalID: "7"}, {Value: "u-2"}})
			},
			method: "PATCH", path: "/v1/Groups/g-1",
			wantBody: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"id":"g-1",
				"Operations":[{"op":"add","path":"members","value":[{"value":"u-1"},{"value":"u-2"}]}]}`,
		},
		{
			name: "patch remove answered 204", rep: reply{Status: 204},
			call: func(c *Client) error {
				return c.PatchGroupMembers(ctx, "g-1", PatchRemove, []Member{{Value: "u-1"}})
			},
			method: "PATCH", path: "/v1/Groups/g-1",
			wantBody: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"id":"g-1",
				"Operations":[{"op":"remove","path":"members","value":[{"value":"u-1"}]}]}`,
		},
		{
			name: "find groups", rep: reply{Status: 200, Header: map[string]string{"Content-Type": "application/json; charset=utf-8"},
				Body: `{"totalResults":0,"Resources":[]}`},
			call: func(c *Client) error {
				gs, err := c.FindGroups(ctx, "displayName", "Guests")
				if err == nil && (gs == nil || len(gs) != 0) {
					t.Errorf("found %#v, want empty non-nil", gs)
				}
				return err
			},
			method: "GET", path: "/v1/Groups", wantFilter: `displayName eq "Guests"`,
		},
		{
			name: "delete group", rep: reply{Status: 204},
			call:   func(c *Client) error { return c.DeleteGroup(ctx, "g-1") },
			method: "DELETE", path: "/v1/Groups/g-1",
		},
		{
			name: "get group", rep: reply{Status: 200, Body: groupBody},
			call:   func(c *Client) error { _, err := c.GetGroup(ctx, "g-1"); return err },
			method: "GET", path: "/v1/Groups/g-1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := newFakeSP(t, tt.rep)
			c := NewClient(basicTarget(sp.URL+"/"), sp.Client())
			if err := tt.call(c); err != nil {
				t.Fatalf("call: %v", err)
			}
			got := sp.only(t)
			if got.Method != tt.method || got.Path != tt.path {
				t.Errorf("request %s %s, want %s %s", got.Method, got.Path, tt.method, tt.path)
			}
			if a := got.Header.Get("Accept"); a != "application/json" {
				t.Errorf("Accept %q", a)
			}
			if a := got.Header.Get("Authorization"); a != "Basic aW52aXRlcjpzM2NyZXQtcHc=" {
				t.Errorf("Authorization %q", a)
			}
			if tt.wantBody == "" {
				if len(got.Body) != 0 || got.Header.Get("Content-Type") != "" {
					t.Errorf("unexpected body %q (Content-Type %q)", got.Body, got.Header.Get("Content-Type"))
				}
			} else {
				if ct := got.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q", ct)
				}
				assertJSON(t, got.Body, tt.wantBody)
			}
			if got.Query != tt.wantFilter {
				t.Errorf("filter %q, want %q", got.Query, tt.wantFilter)
			}
			if tt.wantFilter != "" && strings.Contains(got.RawQuery, "+") {
				t.Errorf("raw query %q encodes spaces as +", got.RawQuery)
			}
		})
	}
}

func TestAuthorizationHeader(t *testing.T) {
	tests := []struct {
		name   string
		target func(string) Target
		want   string
	}{
		{"basic", basicTarget, "Basic aW52aXRlcjpzM2NyZXQtcHc="}, // base64("inviter:s3cret-pw")
		{"bearer", bearerTarget, "Bearer tok-very-secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := newFakeSP(t, reply{Status: 204})
			if err := NewClient(tt.target(sp.URL), nil).DeleteUser(context.Background(), "x"); err != nil {
				t.Fatal(err)
			}
			if got := sp.only(t).Header.Get("Authorization"); got != tt.want {
				t.Errorf("Authorization %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRefusedWithoutRequest covers inputs that must never reach the SP.
func TestRefusedWithoutRequest(t *testing.T) {
	ctx := context.Background()
	sp := newFakeSP(t, reply{Status: 204})
	c := NewClient(basicTarget(sp.URL), nil)
	tests := []struct {
		name string
		call func() error
	}{
		{"empty user id on delete", func() error { return c.DeleteUser(ctx, "") }},
		{"empty group id on put", func() error { _, err := c.ReplaceGroup(ctx, "", Group{}); return err }},
		{"unknown patch op", func() error { return c.PatchGroupMembers(ctx, "g", "replace", []Member{{Value: "u"}}) }},
		{"member without value", func() error { return c.PatchGroupMembers(ctx, "g", PatchAdd, []Member{{ExternalID: "7"}}) }},
		{"filter attribute injection", func() error { _, err := c.FindUsers(ctx, `userName pr or id`, "x"); return err }},
		{"bad base url", func() error {
			return NewClient(Target{BaseURL: "ftp://x", Credentials: Credentials{Method: AuthBearer, Token: "t"}}, nil).DeleteUser(ctx, "u")
		}},
		{"user info in base url", func() error {
			return NewClient(Target{BaseURL: "https://a:b@x", Credentials: Credentials{Method: AuthBearer, Token: "t"}}, nil).DeleteUser(ctx, "u")
		}},
		{"unknown auth method", func() error {
			return NewClient(Target{BaseURL: sp.URL, Credentials: Credentials{Method: "digest"}}, nil).DeleteUser(ctx, "u")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil {
				t.Fatal("want an error")
			}
			if IsRetryable(err) {
				t.Errorf("%v must not be retryable", err)
			}
		})
	}
	// An empty member list is a no-op, not an error: see PatchGroupMembers.
	if err := c.PatchGroupMembers(ctx, "g", PatchRemove, nil); err != nil {
		t.Errorf("empty remove: %v", err)
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if len(sp.seen) != 0 {
		t.Errorf("SP saw %d requests, want none", len(sp.seen))
	}
}

func TestSuccessResponseProblems(t *testing.T) {
	tests := []struct {
		name string
		rep  reply
	}{
		{"html page", reply{Status: 201, Header: map[string]string{"Content-Type": "text/html"}, Body: "<html>login</html>"}},
		{"no body", reply{Status: 201}},
		{"broken json", reply{Status: 201, Body: `{"id":`}},
		{"unexpected 204", reply{Status: 204}},
		{"redirect status", reply{Status: 304}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := newFakeSP(t, tt.rep)
			_, err := NewClient(basicTarget(sp.URL), nil).CreateUser(context.Background(), sampleUser())
			if err == nil {
				t.Fatal("want an error")
			}
			if IsRetryable(err) {
				t.Errorf("%v must not be retryable", err)
			}
		})
	}
}

func TestDefaultVersion(t *testing.T) {
	sp := newFakeSP(t, reply{Status: http.StatusNoContent})
	tg := bearerTarget(sp.URL)
	tg.Version = ""
	if err := NewClient(tg, nil).DeleteGroup(context.Background(), "g"); err != nil {
		t.Fatal(err)
	}
	if p := sp.only(t).Path; p != "/v1/Groups/g" {
		t.Errorf("path %q", p)
	}
}
