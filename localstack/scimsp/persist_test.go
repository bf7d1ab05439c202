package scimsp

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/edu-invite/invite/shared/scim"
)

// What a persistent SP acknowledged is on disk: a new SP loaded from the
// file holds the same users and groups, and still finds and refuses
// duplicates as before.
func TestPersistentHandlerSurvivesARestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sp", "state.json")
	creds := scim.Credentials{Method: scim.AuthBearer, Token: "tok-1"}
	first := New(Options{BearerToken: "tok-1"})
	srv := httptest.NewServer(first.PersistentHandler(path))
	c := scim.NewClient(scim.Target{ID: "sample", BaseURL: srv.URL, Version: "v1", Credentials: creds}, srv.Client())
	alice := must(c.CreateUser(ctx, newUser("alice@uni.example", "Alice", "Archer")))(t)
	bob := must(c.CreateUser(ctx, newUser("bob@uni.example", "Bob", "Baker")))(t)
	group := must(c.CreateGroup(ctx, scim.Group{DisplayName: "Researchers", ExternalID: "urn:role:1"}))(t)
	if err := c.PatchGroupMembers(ctx, group.ID, scim.PatchAdd, []scim.Member{{Value: alice.ID}, {Value: bob.ID}}); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteUser(ctx, bob.ID); err != nil {
		t.Fatal(err)
	}
	srv.Close() // nothing is saved on close: each change was saved when made

	second := New(Options{BearerToken: "tok-1"})
	if err := second.Load(path); err != nil {
		t.Fatal(err)
	}
	if got, want := second.Users(), first.Users(); len(got) != 1 || !reflect.DeepEqual(got, want) {
		t.Fatalf("users after a restart %+v, want %+v", got, want)
	}
	if got, want := second.Groups(), first.Groups(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(groupMemberIDs(got[0]), []string{alice.ID}) {
		t.Fatalf("groups after a restart %+v, want %+v", got, want)
	}
	_, c2 := start(t, second, creds)
	if found := must(c2.FindUsers(ctx, "externalId", "alice@uni.example"))(t); len(found) != 1 || found[0].ID != alice.ID {
		t.Errorf("find after a restart: %+v", found)
	}
	if _, err := c2.CreateUser(ctx, newUser("alice@uni.example", "Alice", "Again")); !scim.IsConflict(err) {
		t.Errorf("a duplicate after a restart: %v, want a conflict", err)
	}
	if err := New(Options{BearerToken: "x"}).Load(filepath.Join(t.TempDir(), "none.json")); err != nil {
		t.Errorf("a missing file is an empty SP, got %v", err)
	}
}
