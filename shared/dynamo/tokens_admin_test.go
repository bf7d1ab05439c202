package dynamo_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

func TestPendingAPITokenIsPersistedOnce(t *testing.T) {
	now := testNow
	s := dynamotest.NewStore(t, func() time.Time { return now })
	pending := domain.PendingAPIToken{CallerKey: "person:alice", HashedValue: "hash-a", ExpiresAt: now.Add(10 * time.Minute)}
	mustNotFound(t, func() error { _, err := s.GetPendingAPIToken(ctx(t), "person:alice"); return err }())
	must(t, s.PutPendingAPIToken(ctx(t), pending))
	got, err := s.GetPendingAPIToken(ctx(t), "person:alice")
	must(t, err)
	if got.HashedValue != "hash-a" || !got.ExpiresAt.Equal(pending.ExpiresAt) {
		t.Errorf("pending %+v", got)
	}
	mustNotFound(t, func() error { _, err := s.GetPendingAPIToken(ctx(t), "person:bob"); return err }())

	tok := domain.APIToken{ID: 7, OrganizationGUID: "org-1", HashedValue: "hash-a", Description: "ci", CreatedAt: now}
	must(t, s.CreateAPITokenFromPending(ctx(t), pending, tok))
	mustNotFound(t, func() error { _, err := s.GetPendingAPIToken(ctx(t), "person:alice"); return err }())
	// Consumed: the same pending value makes no second token.
	again := tok
	again.ID = 8
	mustKind(t, s.CreateAPITokenFromPending(ctx(t), pending, again), domain.KindConflict)
	if _, err := s.GetAPIToken(ctx(t), 8); !domain.IsNotFound(err) {
		t.Errorf("token 8 exists after a refused creation: %v", err)
	}

	// A taken id is told apart, so that the service can take another.
	must(t, s.PutPendingAPIToken(ctx(t), domain.PendingAPIToken{CallerKey: "person:alice", HashedValue: "hash-b", ExpiresAt: now.Add(time.Minute)}))
	p2, err := s.GetPendingAPIToken(ctx(t), "person:alice")
	must(t, err)
	err = s.CreateAPITokenFromPending(ctx(t), p2, domain.APIToken{ID: 7, HashedValue: "hash-b", Description: "dup id", OrganizationGUID: "org-1"})
	if !errors.Is(err, domain.ErrAPITokenIDTaken) {
		t.Errorf("taken id: %v", err)
	}
	if _, err := s.GetPendingAPIToken(ctx(t), "person:alice"); err != nil {
		t.Errorf("a failed creation consumed the pending value: %v", err)
	}

	// A pending value expires.
	now = now.Add(2 * time.Minute)
	mustNotFound(t, func() error { _, err := s.GetPendingAPIToken(ctx(t), "person:alice"); return err }())
}

func TestAPITokenAdministration(t *testing.T) {
	now := testNow
	s := dynamotest.NewStore(t, func() time.Time { return now })
	exp := testNow.Add(36 * time.Hour)
	for _, tok := range []domain.APIToken{
		{ID: 12, OrganizationGUID: "org-1", HashedValue: "h12", Description: "b", CreatedAt: testNow},
		{ID: 3, OrganizationGUID: "org-1", HashedValue: "h3", Description: "a", CreatedAt: testNow, ExpiresAt: &exp},
		{ID: 5, OrganizationGUID: "org-2", HashedValue: "h5", Description: "c", CreatedAt: testNow},
		{ID: 1, SuperUserToken: true, HashedValue: "h1", Description: "root", CreatedAt: testNow},
	} {
		must(t, s.CreateAPIToken(ctx(t), tok))
	}
	mustKind(t, s.CreateAPIToken(ctx(t), domain.APIToken{ID: 99, HashedValue: "h12"}), domain.KindConflict)
	if err := s.CreateAPIToken(ctx(t), domain.APIToken{ID: 12, HashedValue: "h-other"}); !errors.Is(err, domain.ErrAPITokenIDTaken) {
		t.Errorf("duplicate id: %v", err)
	}

	ids := func(toks []domain.APIToken, err error) []int64 {
		t.Helper()
		must(t, err)
		var out []int64
		for _, tok := range toks {
			out = append(out, tok.ID)
		}
		return out
	}
	if got := ids(s.ListAPITokens(ctx(t), "org-1")); !slices.Equal(got, []int64{3, 12}) {
		t.Errorf("org-1 tokens %v", got)
	}
	if got := ids(s.ListAPITokens(ctx(t), "")); !slices.Equal(got, []int64{1, 3, 5, 12}) {
		t.Errorf("all tokens %v", got)
	}
	got, err := s.GetAPIToken(ctx(t), 3)
	must(t, err)
	if got.HashedValue != "h3" || got.ExpiresAt == nil || !got.ExpiresAt.Equal(exp) {
		t.Errorf("token 3: %+v", got)
	}
	mustNotFound(t, func() error { _, err := s.GetAPIToken(ctx(t), 4); return err }())

	// Expiry: found by day range, refused by hash once expired.
	if got := ids(s.ListAPITokensExpiringBetween(ctx(t), testNow, exp, 10)); len(got) != 0 {
		t.Errorf("expiring before %v: %v", exp, got)
	}
	if got := ids(s.ListAPITokensExpiringBetween(ctx(t), testNow, exp.Add(time.Second), 10)); !slices.Equal(got, []int64{3}) {
		t.Errorf("expiring by %v: %v", exp.Add(time.Second), got)
	}
	_, err = s.GetAPITokenByHash(ctx(t), "h3")
	must(t, err)
	now = exp
	mustNotFound(t, func() error { _, err := s.GetAPITokenByHash(ctx(t), "h3"); return err }())

	must(t, s.DeleteAPIToken(ctx(t), got))
	mustNotFound(t, func() error { _, err := s.GetAPIToken(ctx(t), 3); return err }())
	if got := ids(s.ListAPITokens(ctx(t), "")); !slices.Equal(got, []int64{1, 5, 12}) {
		t.Errorf("after delete %v", got)
	}
	must(t, s.DeleteAPIToken(ctx(t), got)) // already gone: no error
	// The id is free again.
	must(t, s.CreateAPIToken(ctx(t), domain.APIToken{ID: 3, HashedValue: "h3-new", OrganizationGUID: "org-1"}))
}

func TestRecentAuditEntriesAndAllRoles(t *testing.T) {
	s := newStore(t)
	var entries []domain.AuditEntry
	for i := int64(1); i <= 5; i++ {
		roleID := int64(1)
		if i%2 == 0 {
			roleID = 2
		}
		entries = append(entries, domain.AuditEntry{ID: i, RoleID: roleID, UserID: 10 + i, UserEmail: "u" + id(i) + "@example.org",
			Action: domain.AuditAdd, CreatedAt: testNow.Add(time.Duration(i) * time.Minute)})
	}
	must(t, s.DeleteUserRoles(ctx(t), nil, entries, nil))

	ids := func(es []domain.AuditEntry, err error) []int64 {
		t.Helper()
		must(t, err)
		var out []int64
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out
	}
	if got := ids(s.ListRecentAuditEntries(ctx(t), 1, time.Time{}, 10)); !slices.Equal(got, []int64{5, 3, 1}) {
		t.Errorf("role 1, newest first: %v", got)
	}
	if got := ids(s.ListRecentAuditEntries(ctx(t), 0, time.Time{}, 3)); !slices.Equal(got, []int64{5, 4, 3}) {
		t.Errorf("all roles, newest 3: %v", got)
	}

	must(t, s.CreateRole(ctx(t), role(1, "Zeta", "wiki"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "alpha"), nil))
	roles, err := s.ListAllRoles(ctx(t))
	must(t, err)
	if roleNames(roles) != "2:alpha 1:Zeta " {
		t.Errorf("all roles: %s", roleNames(roles))
	}
}
