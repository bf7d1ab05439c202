package scimsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/scim"
)

var authVariants = []struct {
	name  string
	opts  Options
	creds scim.Credentials
	wrong scim.Credentials
}{
	{"basic", Options{BasicUser: "svc", BasicPassword: "pw-1"},
		scim.Credentials{Method: scim.AuthBasic, Username: "svc", Password: "pw-1"},
		scim.Credentials{Method: scim.AuthBasic, Username: "svc", Password: "nope"}},
	{"bearer", Options{BearerToken: "tok-1"},
		scim.Credentials{Method: scim.AuthBearer, Token: "tok-1"},
		scim.Credentials{Method: scim.AuthBearer, Token: "tok-2"}},
}

// start serves sp and returns a client for it with creds.
func start(t *testing.T, sp *SP, creds scim.Credentials) (*httptest.Server, *scim.Client) {
	t.Helper()
	srv := httptest.NewServer(sp.Handler())
	t.Cleanup(srv.Close)
	return srv, scim.NewClient(scim.Target{ID: "sample", BaseURL: srv.URL, Version: "v1", Credentials: creds}, srv.Client())
}

func newUser(eppn, given, family string) scim.User {
	return scim.User{
		ExternalID: eppn, UserName: eppn, DisplayName: given + " " + family,
		Name:   &scim.Name{GivenName: given, FamilyName: family},
		Emails: []scim.Email{{Type: "work", Value: eppn}},
	}
}

// must(call())(t) returns call's value, failing t on an error; the
// curried form lets a two-result call be passed directly.
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func groupMemberIDs(g scim.Group) []string {
	var ids []string
	for _, m := range g.Members {
		ids = append(ids, m.Value)
	}
	slices.Sort(ids)
	return ids
}

func sorted(ids ...string) []string { slices.Sort(ids); return ids }

// TestLifecycle drives the SP through the service's client, in the order
// the service provisions (spec 3.1, 3.2), for both authentication methods.
func TestLifecycle(t *testing.T) {
	for _, v := range authVariants {
		t.Run(v.name, func(t *testing.T) {
			ctx := context.Background()
			sp := New(v.opts)
			srv, c := start(t, sp, v.creds)

			// Create user: 201 with id, Location and meta.
			alice := must(c.CreateUser(ctx, newUser("alice@uni.example", "Alice", "Archer")))(t)
			if alice.ID == "" || alice.Meta == nil || alice.Meta.ResourceType != "User" || alice.Meta.Created == "" {
				t.Fatalf("created user %+v", alice)
			}
			if !slices.Contains(alice.Schemas, scim.SchemaEnterpriseUser) {
				t.Errorf("schemas %v lack the enterprise extension", alice.Schemas)
			}
			reqs := sp.Requests()
			if last := reqs[len(reqs)-1]; last != (RecordedRequest{Method: "POST", Path: "/v1/Users", Status: 201}) {
				t.Errorf("recorded %+v", last)
			}
			bob := must(c.CreateUser(ctx, newUser("bob@uni.example", "Bob", "Baker")))(t)

			// Find by externalId and by userName (case-insensitive).
			found := must(c.FindUsers(ctx, "externalId", "alice@uni.example"))(t)
			if len(found) != 1 || found[0].ID != alice.ID {
				t.Errorf("by externalId: %+v", found)
			}
			found = must(c.FindUsers(ctx, "userName", "BOB@uni.example"))(t)
			if len(found) != 1 || found[0].ID != bob.ID {
				t.Errorf("by userName: %+v", found)
			}
			if found = must(c.FindUsers(ctx, "externalId", "ALICE@uni.example"))(t); len(found) != 0 {
				t.Errorf("externalId is case-exact, found %+v", found)
			}

			// Duplicate userName: 409 uniqueness.
			_, err := c.CreateUser(ctx, newUser("Alice@uni.example", "Other", "Alice"))
			var se *scim.Error
			if !scim.IsConflict(err) || scim.IsRetryable(err) || !errors.As(err, &se) || se.SCIMType != "uniqueness" {
				t.Errorf("duplicate userName: %v", err)
			}

			// PUT user.
			changed := newUser("alice@uni.example", "Alicia", "Archer")
			got := must(c.ReplaceUser(ctx, alice.ID, changed))(t)
			if got.ID != alice.ID || got.DisplayName != "Alicia Archer" || got.Name.GivenName != "Alicia" {
				t.Errorf("replaced user %+v", got)
			}
			if got := must(c.GetUser(ctx, alice.ID))(t); got.DisplayName != "Alicia Archer" {
				t.Errorf("read back %+v", got)
			}

			// Group with no members, then PATCH add two, remove one.
			g := must(c.CreateGroup(ctx, scim.Group{ExternalID: "urn:collab:group:uni.example:guests", DisplayName: "Guests"}))(t)
			if g.ID == "" || g.Members == nil || len(g.Members) != 0 {
				t.Fatalf("created group %+v", g)
			}
			if err := c.PatchGroupMembers(ctx, g.ID, scim.PatchAdd, []scim.Member{{Value: alice.ID}, {Value: bob.ID}}); err != nil {
				t.Fatal(err)
			}
			if ids := groupMemberIDs(must(c.GetGroup(ctx, g.ID))(t)); !slices.Equal(ids, sorted(alice.ID, bob.ID)) {
				t.Errorf("after add: %v", ids)
			}
			// Adding again changes nothing.
			if err := c.PatchGroupMembers(ctx, g.ID, scim.PatchAdd, []scim.Member{{Value: alice.ID}}); err != nil {
				t.Fatal(err)
			}
			if err := c.PatchGroupMembers(ctx, g.ID, scim.PatchRemove, []scim.Member{{Value: bob.ID}}); err != nil {
				t.Fatal(err)
			}
			if ids := groupMemberIDs(must(c.GetGroup(ctx, g.ID))(t)); !slices.Equal(ids, []string{alice.ID}) {
				t.Errorf("after remove: %v", ids)
			}

			// PUT group with all members.
			put := must(c.ReplaceGroup(ctx, g.ID, scim.Group{ExternalID: g.ExternalID, DisplayName: "Guests",
				Members: []scim.Member{{Value: alice.ID, ExternalID: "1"}, {Value: bob.ID, ExternalID: "2"}}}))(t)
			if ids := groupMemberIDs(put); !slices.Equal(ids, sorted(alice.ID, bob.ID)) {
				t.Errorf("after PUT: %v", ids)
			}
			fg := must(c.FindGroups(ctx, "externalId", "urn:collab:group:uni.example:guests"))(t)
			if len(fg) != 1 || fg[0].ID != g.ID {
				t.Errorf("group by externalId: %+v", fg)
			}

			// Deleting a user removes its membership.
			if err := c.DeleteUser(ctx, bob.ID); err != nil {
				t.Fatal(err)
			}
			if ids := groupMemberIDs(must(c.GetGroup(ctx, g.ID))(t)); !slices.Equal(ids, []string{alice.ID}) {
				t.Errorf("after deleting bob: %v", ids)
			}
			if groups := sp.Groups(); len(groups) != 1 || len(groups[0].Members) != 1 {
				t.Errorf("snapshot %+v", groups)
			}

			// Unknown ids: 404, not retryable; DELETE twice is IsNotFound.
			if err := c.DeleteUser(ctx, bob.ID); !scim.IsNotFound(err) || scim.IsRetryable(err) {
				t.Errorf("second delete: %v", err)
			}
			if err := c.PatchGroupMembers(ctx, "no-such-group", scim.PatchAdd, []scim.Member{{Value: alice.ID}}); !scim.IsNotFound(err) {
				t.Errorf("patch unknown group: %v", err)
			}

			// DELETE group.
			if err := c.DeleteGroup(ctx, g.ID); err != nil {
				t.Fatal(err)
			}
			if err := c.DeleteGroup(ctx, g.ID); !scim.IsNotFound(err) {
				t.Errorf("second group delete: %v", err)
			}
			if users, groups := sp.Users(), sp.Groups(); len(users) != 1 || users[0].ID != alice.ID || len(groups) != 0 {
				t.Errorf("final state users %+v groups %+v", users, groups)
			}

			// Wrong credentials: 401, not retryable, nothing changes.
			bad := scim.NewClient(scim.Target{ID: "sample", BaseURL: srv.URL, Credentials: v.wrong}, srv.Client())
			_, err = bad.CreateUser(ctx, newUser("mallory@uni.example", "M", "M"))
			if !errors.As(err, &se) || se.Status != http.StatusUnauthorized || scim.IsRetryable(err) {
				t.Errorf("wrong credentials: %v", err)
			}
			if len(sp.Users()) != 1 {
				t.Error("a refused request changed state")
			}
		})
	}
}

func TestLocationHeader(t *testing.T) {
	sp := New(Options{BearerToken: "t"})
	// Mounted below a prefix, as the local stack does.
	mux := http.NewServeMux()
	mux.Handle("/scim-sp/", http.StripPrefix("/scim-sp", sp.Handler()))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	body := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"a@b.example"}`
	resp := do(t, srv, "POST", "/scim-sp/v1/Users", body)
	if resp.StatusCode != 201 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var u scim.User
	_ = json.NewDecoder(resp.Body).Decode(&u)
	if want := srv.URL + "/scim-sp/v1/Users/" + u.ID; resp.Header.Get("Location") != want {
		t.Errorf("Location %q, want %q", resp.Header.Get("Location"), want)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/scim+json" {
		t.Errorf("Content-Type %q", ct)
	}
	resp = do(t, srv, "PUT", "/scim-sp/v1/Users/"+u.ID, body)
	if resp.StatusCode != 200 || !strings.HasSuffix(resp.Header.Get("Location"), "/scim-sp/v1/Users/"+u.ID) {
		t.Errorf("PUT: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := sp.Requests(); len(got) != 2 || got[0].Path != "/v1/Users" || got[1].Method != "PUT" {
		t.Errorf("recorded %+v", got)
	}
}

func do(t *testing.T, srv *httptest.Server, method, path, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer t")
	req.Header.Set("Content-Type", "application/scim+json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestRawRequests covers forms the service's client does not send but other
// clients do, and refusals.
func TestRawRequests(t *testing.T) {
	sp := New(Options{BearerToken: "t"})
	srv := httptest.NewServer(sp.Handler())
	defer srv.Close()
	ctx := context.Background()
	c := scim.NewClient(scim.Target{BaseURL: srv.URL, Credentials: scim.Credentials{Method: scim.AuthBearer, Token: "t"}}, nil)
	a := must(c.CreateUser(ctx, newUser("a@x.example", "A", "A")))(t)
	b := must(c.CreateUser(ctx, newUser("b@x.example", "B", "B")))(t)
	g := must(c.CreateGroup(ctx, scim.Group{DisplayName: "G", Members: []scim.Member{{Value: a.ID}, {Value: b.ID}}}))(t)
	patch := func(ops string) string {
		return `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[` + ops + `]}`
	}

	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		wantStatus int
		wantType   string
		members    []string // members of g afterwards, if checked
	}{
		{"remove by value filter", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"remove","path":"members[value eq \"` + b.ID + `\"]"}`), 200, "", []string{a.ID}},
		{"add unknown user", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"add","path":"members","value":[{"value":"nobody"}]}`), 400, "invalidValue", []string{a.ID}},
		{"atomic: valid op before an invalid one is not applied", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"add","path":"members","value":[{"value":"` + b.ID + `"}]},{"op":"add","path":"members","value":[{"value":"nobody"}]}`),
			400, "invalidValue", []string{a.ID}},
		{"add without path", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"add","value":{"members":[{"value":"` + b.ID + `"}]}}`), 200, "", sorted(a.ID, b.ID)},
		{"replace displayName", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"replace","path":"displayName","value":"G2"}`), 200, "", sorted(a.ID, b.ID)},
		{"remove all members", "PATCH", "/v1/Groups/" + g.ID,
			patch(`{"op":"remove","path":"members"}`), 200, "", nil},
		{"create group with unknown member", "POST", "/v1/Groups",
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"X","members":[{"value":"nobody"}]}`, 400, "invalidValue", nil},
		{"user without userName", "POST", "/v1/Users", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"]}`, 400, "invalidValue", nil},
		{"PUT unknown user", "PUT", "/v1/Users/nobody", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"z"}`, 404, "", nil},
		{"PUT user onto another's userName", "PUT", "/v1/Users/" + b.ID,
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"A@x.example"}`, 409, "uniqueness", nil},
		{"unsupported filter operator", "GET", "/v1/Users?filter=userName%20sw%20%22a%22", "", 400, "invalidFilter", nil},
		{"filter on unsupported attribute", "GET", "/v1/Users?filter=name.familyName%20eq%20%22A%22", "", 400, "invalidFilter", nil},
		{"PATCH user is not offered", "PATCH", "/v1/Users/" + a.ID,
			patch(`{"op":"replace","path":"displayName","value":"x"}`), 501, "", nil},
		{"service provider config", "GET", "/v1/ServiceProviderConfig", "", 200, "", nil},
		{"schemas", "GET", "/v1/Schemas", "", 200, "", nil},
		{"resource types", "GET", "/v1/ResourceTypes", "", 200, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, srv, tt.method, tt.path, tt.body)
			raw, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.wantStatus, raw)
			}
			if tt.wantType != "" {
				var e struct{ ScimType string }
				_ = json.Unmarshal(raw, &e)
				if e.ScimType != tt.wantType {
					t.Errorf("scimType %q, want %q: %s", e.ScimType, tt.wantType, raw)
				}
			}
			if strings.Contains(tt.path, g.ID) && tt.method == "PATCH" {
				if ids := groupMemberIDs(must(c.GetGroup(ctx, g.ID))(t)); !slices.Equal(ids, tt.members) {
					t.Errorf("members %v, want %v", ids, tt.members)
				}
			}
		})
	}
}

func TestFilterValueWithQuotes(t *testing.T) {
	sp := New(Options{BearerToken: "t"})
	_, c := start(t, sp, scim.Credentials{Method: scim.AuthBearer, Token: "t"})
	ctx := context.Background()
	u := newUser(`o"brien\x@uni.example`, "O", "Brien")
	created := must(c.CreateUser(ctx, u))(t)
	found := must(c.FindUsers(ctx, "userName", u.UserName))(t)
	if len(found) != 1 || found[0].ID != created.ID {
		t.Errorf("found %+v", found)
	}
}

func TestUnauthorized(t *testing.T) {
	for _, v := range authVariants {
		t.Run(v.name, func(t *testing.T) {
			sp := New(v.opts)
			srv := httptest.NewServer(sp.Handler())
			defer srv.Close()
			for _, auth := range []string{"", "Bearer wrong", "Basic c3ZjOm5vcGU="} {
				req, _ := http.NewRequest("GET", srv.URL+"/v1/Users", nil)
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				var e struct {
					Schemas []string
					Status  string
				}
				_ = json.NewDecoder(resp.Body).Decode(&e)
				resp.Body.Close()
				if resp.StatusCode != 401 || e.Status != "401" || len(e.Schemas) != 1 || resp.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("auth %q: status %d body %+v", auth, resp.StatusCode, e)
				}
			}
			if got := sp.Requests(); len(got) != 3 || got[0].Status != 401 {
				t.Errorf("recorded %+v", got)
			}
		})
	}
}

func TestStateAndReset(t *testing.T) {
	sp := New(Options{BasicUser: "u", BasicPassword: "p"})
	srv, c := start(t, sp, scim.Credentials{Method: scim.AuthBasic, Username: "u", Password: "p"})
	ctx := context.Background()
	must(c.CreateUser(ctx, newUser("zed@x.example", "Zed", "Z")))(t)
	must(c.CreateUser(ctx, newUser("amy@x.example", "Amy", "A")))(t)
	must(c.CreateGroup(ctx, scim.Group{DisplayName: "Staff"}))(t)

	resp, err := http.Get(srv.URL + "/state") // no credentials needed
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var state struct {
		Users  []scim.User  `json:"users"`
		Groups []scim.Group `json:"groups"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&state); err != nil || resp.StatusCode != 200 {
		t.Fatalf("state: %d %v", resp.StatusCode, err)
	}
	if len(state.Users) != 2 || state.Users[0].UserName != "amy@x.example" || len(state.Groups) != 1 {
		t.Errorf("state %+v", state)
	}
	for _, r := range sp.Requests() {
		if r.Path == "/state" {
			t.Error("GET /state was recorded")
		}
	}

	sp.Reset()
	if len(sp.Users()) != 0 || len(sp.Groups()) != 0 || len(sp.Requests()) != 0 {
		t.Error("Reset left something behind")
	}
	// After a reset the same userName is free again.
	must(c.CreateUser(ctx, newUser("amy@x.example", "Amy", "A")))(t)
}

func TestNewRefusesAmbiguousAuth(t *testing.T) {
	for _, o := range []Options{{}, {BasicUser: "u"}, {BasicUser: "u", BasicPassword: "p", BearerToken: "t"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("New(%+v) did not panic", o)
				}
			}()
			New(o)
		}()
	}
}

// TestConcurrentUse is for the race detector.
func TestConcurrentUse(t *testing.T) {
	sp := New(Options{BearerToken: "t"})
	_, c := start(t, sp, scim.Credentials{Method: scim.AuthBearer, Token: "t"})
	ctx := context.Background()
	g := must(c.CreateGroup(ctx, scim.Group{DisplayName: "G"}))(t)
	done := make(chan error)
	for i := range 8 {
		go func() {
			u, err := c.CreateUser(ctx, newUser(string(rune('a'+i))+"@x.example", "N", "N"))
			if err == nil {
				err = c.PatchGroupMembers(ctx, g.ID, scim.PatchAdd, []scim.Member{{Value: u.ID}})
			}
			if err == nil {
				_, err = c.FindUsers(ctx, "userName", u.UserName)
			}
			_ = sp.Users()
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	if n := len(must(c.GetGroup(ctx, g.ID))(t).Members); n != 8 {
		t.Errorf("members %d, want 8", n)
	}
}
