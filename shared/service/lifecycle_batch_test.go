package service_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	smithymiddleware "github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// requestLog counts DynamoDB requests by operation.
type requestLog struct {
	mu    sync.Mutex
	total atomic.Int64
	byOp  map[string]int
}

func (l *requestLog) option(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(stack *smithymiddleware.Stack) error {
		return stack.Initialize.Add(smithymiddleware.InitializeMiddlewareFunc("requestLog",
			func(ctx context.Context, in smithymiddleware.InitializeInput, next smithymiddleware.InitializeHandler) (smithymiddleware.InitializeOutput, smithymiddleware.Metadata, error) {
				l.total.Add(1)
				l.mu.Lock()
				if l.byOp == nil {
					l.byOp = map[string]int{}
				}
				l.byOp[middleware.GetOperationName(ctx)]++
				l.mu.Unlock()
				return next.HandleInitialize(ctx, in)
			}), smithymiddleware.Before)
	})
}

func (l *requestLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	ops := make([]string, 0, len(l.byOp))
	for op := range l.byOp {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	s := ""
	for _, op := range ops {
		s += fmt.Sprintf("%s %d; ", op, l.byOp[op])
	}
	return s
}

// cohortService is a service on a request-counting client with a cohort
// of guests, each with one membership of a wiki role (two SCIM targets)
// that ended yesterday.
func cohortService(t *testing.T, cohort int) (*service.Service, *requestLog) {
	t.Helper()
	log := &requestLog{}
	client, table := dynamotest.NewClient(t, log.option)
	reg, err := config.Parse([]byte(testkit.Registry))
	if err != nil {
		t.Fatal(err)
	}
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return now }
	s := &service.Service{Store: dynamo.New(client, table, clock), Queue: &testkit.RecordingQueue{}, Registry: reg, Clock: clock,
		PublicBaseURL: testkit.PublicBaseURL, Renderer: renderer}
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Cohort 2026"))
	if err != nil {
		t.Fatal(err)
	}
	end := now.Add(10 * 24 * time.Hour)
	seed := domain.Seed{}
	for i := range int64(cohort) {
		uid := 20_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-cohort-", uid), GivenName: "Student", FamilyName: fmt.Sprint(uid),
			Name: fmt.Sprint("Student ", uid), Email: fmt.Sprint("student", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 60_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest,
			CreatedAt: now, EndDate: &end})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	s.Clock = func() time.Time { return now.Add(11 * 24 * time.Hour) }
	return s, log
}

// TestExpiryRequestsPerMembership: removing a cohort costs few DynamoDB
// requests per membership, the users' removals going together.
func TestExpiryRequestsPerMembership(t *testing.T) {
	const cohort = 60
	s, log := cohortService(t, cohort)
	before := log.total.Load()
	log.byOp = nil
	res, err := s.RemoveExpired(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.UserRoles != cohort || res.Users != cohort {
		t.Fatalf("removed %+v, want %d memberships and users", res, cohort)
	}
	per := float64(log.total.Load()-before) / cohort
	t.Logf("%.2f requests per membership: %s", per, log)
}
