package service_test

import (
	"context"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// racingStore changes the role between the service's read and its write,
// as a concurrent request would.
type racingStore struct {
	domain.Store
	race func()
}

func (s *racingStore) GetRole(ctx context.Context, id int64) (domain.Role, error) {
	r, err := s.Store.GetRole(ctx, id)
	if s.race != nil {
		race := s.race
		s.race = nil
		race()
	}
	return r, err
}

func TestUpdateRoleLosingARaceIsAConflictAndQueuesNothing(t *testing.T) {
	s, q := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Editors"))
	if err != nil {
		t.Fatal(err)
	}
	inner := s.Store
	racing := &racingStore{Store: inner}
	racing.race = func() {
		other := &service.Service{Store: inner, Queue: q, Registry: s.Registry, Clock: s.Clock}
		if _, err := other.UpdateRole(ctx, root, role.ID, wikiRole("Authors")); err != nil {
			t.Fatal(err)
		}
	}
	s.Store = racing
	queued := len(q.Deliveries())
	_, err = s.UpdateRole(ctx, root, role.ID, wikiRole("Writers"))
	if domain.KindOf(err) != domain.KindConflict {
		t.Fatalf("err = %v, want a conflict", err)
	}
	// Only the winner's rename was queued (one group.update per SP).
	if n := len(q.Deliveries()) - queued; n != 2 {
		t.Errorf("%d deliveries queued, want the winner's 2", n)
	}
	stored, _ := inner.GetRole(ctx, role.ID)
	if stored.Name != "Authors" || stored.Version != 2 {
		t.Errorf("stored %+v, want the winner's name at version 2", stored)
	}
	// The loser's name was not reserved.
	if _, err := s.CreateRole(ctx, root, wikiRole("Writers")); err != nil {
		t.Errorf("the loser's name is taken: %v", err)
	}
}
