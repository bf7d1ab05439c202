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
