package dynamo_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// BenchmarkSaveAcceptance measures one acceptance transaction (invitation,
// new user and sub, two memberships, two audit entries, two deliveries)
// through the SDK against DynamoDB Local: the store's cost there, without the
// network latency of DynamoDB.
func BenchmarkSaveAcceptance(b *testing.B) {
	s := dynamotest.NewStore(b, func() time.Time { return testNow })
	for i := int64(1); b.Loop(); i++ {
		b.StopTimer()
		inv := invitation(i, fmt.Sprint("digest-", i), 1, 2)
		if err := s.CreateInvitations(b.Context(), []domain.Invitation{inv}); err != nil {
			b.Fatal(err)
		}
		a := acceptance()
		a.Invitation.ID, a.Invitation.HashDigest = i, inv.HashDigest
		a.User = user(i, fmt.Sprint("sub-", i))
		a.NewUserRoles = []domain.UserRole{membership(2*i, i, 1), membership(2*i+1, i, 2)}
		for j := range a.Audit {
			a.Audit[j].ID, a.Audit[j].UserID = 2*i+int64(j), i
		}
		for j := range a.Deliveries {
			a.Deliveries[j].ID = fmt.Sprint("d-", i, "-", j)
		}
		b.StartTimer()
		if err := s.SaveAcceptance(b.Context(), a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetRole measures one consistent GetItem and its decoding.
func BenchmarkGetRole(b *testing.B) {
	s := dynamotest.NewStore(b, nil)
	if err := s.CreateRole(b.Context(), role(1, "Role", "app-a", "app-b"), nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.GetRole(b.Context(), 1); err != nil {
			b.Fatal(err)
		}
	}
}
