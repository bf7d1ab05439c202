package service_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
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
func cohortService(t testing.TB, cohort int) (*service.Service, *requestLog, int64) {
	s, log, roleID, _ := cohortWithStaff(t, cohort, 0)
	return s, log, roleID
}

// cohortWithStaff is cohortService where every staffEvery-th member (the
// first, then every staffEvery-th after it) is also a member, without end,
// of a staff role of another organization (0: none is).
func cohortWithStaff(t testing.TB, cohort, staffEvery int) (*service.Service, *requestLog, int64, int64) {
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
	var staff domain.Role
	if staffEvery > 0 {
		if staff, err = s.CreateRole(ctx, root, service.RoleInput{Name: "Staff", OrganizationGUID: "org-staff",
			ApplicationUsages: wikiRole("").ApplicationUsages}); err != nil {
			t.Fatal(err)
		}
	}
	end := now.Add(10 * 24 * time.Hour)
	seed := domain.Seed{}
	for i := range int64(cohort) {
		uid := 20_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-cohort-", uid), GivenName: "Student", FamilyName: fmt.Sprint(uid),
			Name: fmt.Sprint("Student ", uid), Email: fmt.Sprint("student", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 60_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest,
			CreatedAt: now, EndDate: &end})
		if staffEvery > 0 && i%int64(staffEvery) == 0 {
			seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 70_001 + i, UserID: uid, RoleID: staff.ID, Authority: domain.Guest, CreatedAt: now})
		}
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	if counts, err := s.Store.CountMembersOfRoles(ctx, []int64{role.ID}); err != nil || counts[role.ID] != int64(cohort) {
		t.Fatalf("the role's member count: %v, %v", counts, err)
	}
	s.Clock = func() time.Time { return now.Add(11 * 24 * time.Hour) }
	return s, log, role.ID, staff.ID
}

// Removing a cohort costs a few DynamoDB requests per membership: the
// users' removals go several to a transaction, with one id reservation
// and one status update of their deliveries each, the users and roles
// are read once a page. One removal per user cost 15.5 requests per
// membership here (a transaction, an id reservation, a read of the user
// and of its roles, and a read and a write per delivery marked sent).
func TestExpiryRequestsPerMembership(t *testing.T) {
	const cohort = 60
	s, log, roleID := cohortService(t, cohort)
	before := log.total.Load()
	log.mu.Lock()
	log.byOp = nil
	log.mu.Unlock()
	res, err := s.RemoveExpired(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.UserRoles != cohort || res.Users != cohort || res.Remaining != 0 {
		t.Fatalf("removed %+v, want %d memberships and users, none left", res, cohort)
	}
	per := float64(log.total.Load()-before) / cohort
	t.Logf("%.2f requests per membership: %s", per, log)
	log.mu.Lock()
	byOp := maps.Clone(log.byOp)
	log.mu.Unlock()
	// The counters several users share in one transaction (the role's
	// member counter, the user count, the organization's count) are right.
	ctx := context.Background()
	if urs, err := s.Store.ListUserRolesEndingBetween(ctx, now, now.Add(30*24*time.Hour), 10); err != nil || len(urs) != 0 {
		t.Errorf("memberships left: %v, %v", urs, err)
	}
	for _, org := range []string{"", "org-test"} {
		page, err := s.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 10}})
		if err != nil || page.Total != 0 || len(page.Items) != 0 {
			t.Errorf("users of %q after the cohort's removal: total %d, %d listed, %v", org, page.Total, len(page.Items), err)
		}
	}
	if counts, err := s.Store.CountMembersOfRoles(ctx, []int64{roleID}); err != nil || counts[roleID] != 0 {
		t.Errorf("the role's member count after the cohort's removal: %v, %v", counts, err)
	}
	// Per user: its memberships, its SP links and its organization items
	// (a Query each); the 31 day partitions once a run.
	if per > 5 {
		t.Errorf("%.2f requests per removed membership, want at most 5 (%s)", per, log)
	}
	for op, most := range map[string]int{"TransactWriteItems": cohort * 2 / 3, "UpdateItem": cohort / 2, "GetItem": 0, "PutItem": 0, "BatchGetItem": 5} {
		if byOp[op] > most {
			t.Errorf("%s: %d requests for %d memberships, want at most %d", op, byOp[op], cohort, most)
		}
	}
}

// A run that may take on only a few memberships (a low budget, as a run
// near its function's timeout) removes them, reports how many are left,
// and the next runs go on where it stopped until none is left; every
// membership and user goes once.
func TestExpiryOfACohortGoesOnAcrossRuns(t *testing.T) {
	const cohort, budget = 45, 12
	s, _, _ := cohortService(t, cohort)
	s.Lifecycle.ExpiryLimit = budget
	ctx := context.Background()
	removed, users, runs := 0, 0, 0
	for left := int64(cohort); left > 0; runs++ {
		if runs > cohort/budget+2 {
			t.Fatalf("after %d runs %d memberships are left", runs, left)
		}
		res, err := s.RemoveExpired(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.UserRoles < 1 || res.UserRoles > budget {
			t.Errorf("run %d removed %d memberships, want 1 to %d", runs, res.UserRoles, budget)
		}
		removed += res.UserRoles
		users += res.Users
		if want := int64(cohort - removed); res.Remaining != want {
			t.Errorf("run %d: %d remaining reported, want %d", runs, res.Remaining, want)
		}
		// The job-run record (the console's operations page) says it too.
		s.RecordJobRun(ctx, "expiry", now, res, nil)
		recorded, err := s.JobRuns(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(recorded, func(r domain.JobRun) bool { return r.Name == "expiry" }); i < 0 ||
			(res.Remaining > 0) != strings.Contains(recorded[i].Summary, fmt.Sprintf(`"remaining":%d`, res.Remaining)) {
			t.Errorf("run %d: job-run records %+v, want %d remaining", runs, recorded, res.Remaining)
		}
		left = res.Remaining
	}
	if runs < 3 || removed != cohort || users != cohort {
		t.Errorf("%d runs removed %d memberships and %d users, want %d of each in at least 3 runs", runs, removed, users, cohort)
	}
	if left, err := s.Store.CountUserRolesEndingBetween(ctx, now, now.Add(30*24*time.Hour)); err != nil || left != 0 {
		t.Errorf("memberships left: %d, %v", left, err)
	}
	if res, err := s.RemoveExpired(ctx); err != nil || res != (service.ExpiryResult{}) {
		t.Errorf("a run after the last: %+v, %v", res, err)
	}
}

// Users who keep another membership go in the same transactions as users
// who are deleted: each kept user loses only its ended membership (its
// summary and its organization's count follow), the deleted ones go whole.
func TestExpiryKeepsUsersWithOtherMembershipsInABatch(t *testing.T) {
	const cohort, kept = 9, 3
	s, log, roleID, staffID := cohortWithStaff(t, cohort, 3)
	ctx := context.Background()
	before := log.total.Load()
	log.mu.Lock()
	log.byOp = nil
	log.mu.Unlock()
	res, err := s.RemoveExpired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	log.mu.Lock()
	txns := log.byOp["TransactWriteItems"]
	log.mu.Unlock()
	t.Logf("%d requests, %d transactions", log.total.Load()-before, txns)
	if res.UserRoles != cohort || res.Users != cohort-kept {
		t.Errorf("removed %+v, want %d memberships and %d users", res, cohort, cohort-kept)
	}
	// One transaction per user would be 9, and as many marking deliveries.
	if txns > 2*cohort/2 {
		t.Errorf("%d transactions for %d users", txns, cohort)
	}
	page, err := s.Store.SearchUsersWithRoles(ctx, domain.UserSearch{Page: domain.PageRequest{Size: 20}})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != kept || len(page.Items) != kept {
		t.Fatalf("users left: %d (total %d), want the %d kept", len(page.Items), page.Total, kept)
	}
	for _, u := range page.Items {
		if (u.User.ID-20_001)%3 != 0 || !u.UserRolesKnown || len(u.UserRoles) != 1 || u.UserRoles[0].RoleID != staffID {
			t.Errorf("kept user %d with memberships %+v (known %v), want only the staff role", u.User.ID, u.UserRoles, u.UserRolesKnown)
		}
	}
	for org, want := range map[string]int64{"org-test": 0, "org-staff": kept} {
		page, err := s.Store.SearchUsers(ctx, domain.UserSearch{OrganizationGUID: org, Page: domain.PageRequest{Size: 20}})
		if err != nil || page.Total != want || int64(len(page.Items)) != want {
			t.Errorf("users of %s: total %d, %d listed, %v; want %d", org, page.Total, len(page.Items), err, want)
		}
	}
	if counts, err := s.Store.CountMembersOfRoles(ctx, []int64{roleID, staffID}); err != nil || counts[roleID] != 0 || counts[staffID] != kept {
		t.Errorf("member counts %v, %v; want 0 and %d", counts, err, kept)
	}
}
