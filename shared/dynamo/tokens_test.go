package dynamo_test

import (
	"sync"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestAPITokens(t *testing.T) {
	s := newStore(t)
	tok := domain.APIToken{ID: 1, OrganizationGUID: "org-1", HashedValue: "hash-1", Description: "ci", CreatedAt: testNow, Owner: "admin"}
	must(t, s.CreateAPIToken(ctx(t), tok))
	must(t, s.CreateAPIToken(ctx(t), domain.APIToken{ID: 2, HashedValue: "hash-2", SuperUserToken: true, Description: "root"}))

	got, err := s.GetAPITokenByHash(ctx(t), "hash-1")
	must(t, err)
	if got != tok {
		t.Errorf("token %+v, want %+v", got, tok)
	}
	su, err := s.GetAPITokenByHash(ctx(t), "hash-2")
	must(t, err)
	if !su.SuperUserToken || su.OrganizationGUID != "" {
		t.Errorf("super-user token %+v", su)
	}
	mustNotFound(t, func() error { _, err := s.GetAPITokenByHash(ctx(t), "hash-3"); return err }())

	dup := tok
	dup.ID, dup.Description = 3, "other"
	mustKind(t, s.CreateAPIToken(ctx(t), dup), domain.KindConflict)
	if got, _ := s.GetAPITokenByHash(ctx(t), "hash-1"); got.Description != "ci" {
		t.Errorf("token overwritten: %+v", got)
	}
	// The organization's roles are not mixed up with its tokens (both live in gsi1 ORG#).
	roles, err := s.ListRolesByOrganization(ctx(t), "org-1")
	must(t, err)
	if len(roles) != 0 {
		t.Errorf("tokens listed as roles: %+v", roles)
	}
}

func TestNextIDsReservationsAreDisjoint(t *testing.T) {
	s := newStore(t)
	first, err := s.NextIDs(ctx(t), "role", 1)
	must(t, err)
	if first != 1 {
		t.Errorf("first id %d, want 1", first)
	}

	var mu sync.Mutex
	taken := map[int64]string{}
	var wg sync.WaitGroup
	for worker := range 8 {
		wg.Go(func() {
			for range 5 {
				n := worker%3 + 1
				start, err := s.NextIDs(ctx(t), "role", n)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for i := start; i < start+int64(n); i++ {
					if taken[i] != "" {
						t.Errorf("id %d reserved twice", i)
					}
					taken[i] = "role"
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	other, err := s.NextIDs(ctx(t), "user", 3)
	must(t, err)
	if other != 1 {
		t.Errorf("sequences share a counter: user starts at %d", other)
	}
	mustKind(t, func() error { _, err := s.NextIDs(ctx(t), "role", 0); return err }(), domain.KindInvalid)
}
