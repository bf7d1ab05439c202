package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

func TestSessionLifecycle(t *testing.T) {
	ctx := context.Background()
	s := dynamotest.NewStore(t, nil)
	now := time.Now().UTC().Truncate(time.Millisecond)
	sess := domain.Session{IDDigest: "d1", CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(8 * time.Hour)}
	if err := s.PutSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetSession(ctx, "d1")
	if err != nil || got.Person != nil || !got.ExpiresAt.Equal(sess.ExpiresAt) || !got.CreatedAt.Equal(now) {
		t.Fatalf("GetSession = %+v, %v", got, err)
	}
	sess.Person, sess.IDToken = &domain.SignedInPerson{Sub: "urn:x", Email: "a@example.org", ACR: "mfa"}, "tok"
	if err := s.PutSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetSession(ctx, "d1")
	if err != nil || got.Person == nil || *got.Person != *sess.Person || got.IDToken != "tok" {
		t.Fatalf("GetSession after sign-in = %+v, %v", got, err)
	}
	if got.Expired(now.Add(7*time.Hour)) || !got.Expired(now.Add(8*time.Hour)) {
		t.Error("Expired does not follow ExpiresAt")
	}
	if err := s.DeleteSession(ctx, "d1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSession(ctx, "d1"); !domain.IsNotFound(err) {
		t.Errorf("GetSession after delete = %v, want not found", err)
	}
	if err := s.PutSession(ctx, domain.Session{}); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("PutSession without id = %v, want invalid", err)
	}
}

// TestEndSessionsOfPerson: the provider's back-channel logout ends every
// signed-in session of the person, and only theirs.
func TestEndSessionsOfPerson(t *testing.T) {
	ctx := context.Background()
	s := dynamotest.NewStore(t, nil)
	now := time.Now().UTC().Truncate(time.Millisecond)
	put := func(digest, sub string) {
		sess := domain.Session{IDDigest: digest, CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(time.Hour)}
		if sub != "" { // else an anonymous session
			sess.Person = &domain.SignedInPerson{Sub: sub}
		}
		if err := s.PutSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
	}
	put("a1", "alice")
	put("a2", "alice")
	put("b1", "bob")
	put("p1", "")
	n, err := s.EndSessionsOfPerson(ctx, "alice")
	if err != nil || n != 2 {
		t.Fatalf("EndSessionsOfPerson = %d, %v; want 2", n, err)
	}
	for digest, want := range map[string]bool{"a1": false, "a2": false, "b1": true, "p1": true} {
		_, err := s.GetSession(ctx, digest)
		if got := err == nil; got != want {
			t.Errorf("session %s exists = %v, want %v (%v)", digest, got, want, err)
		}
	}
	if n, err := s.EndSessionsOfPerson(ctx, "nobody"); err != nil || n != 0 {
		t.Errorf("EndSessionsOfPerson(nobody) = %d, %v", n, err)
	}
}
