package service_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
)

// S1 is the seed's performance set on DynamoDB Local: S1_ROLES roles
// (default 500) and S1_USERS users with one membership each (default
// 75,000). The goals of issue 15: the load in at most 5 minutes; user
// search, role search, a role's members page and the invitation search
// under 100 ms p95 with at most 3 DynamoDB requests per page; the expiry
// job over every membership under 2 minutes when nothing is due. Run with
// -benchtime=1x (`make bench`): every sub-benchmark measures itself.
type s1Fixture struct {
	svc       *service.Service
	requests  *atomic.Int64
	firstRole int64
	roles     int
	users     int
	load      time.Duration
}

var (
	s1Once sync.Once
	s1     *s1Fixture
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

var benchAdmin = &auth.Principal{SuperUser: true, Name: "bench"}

func loadS1(b *testing.B) *s1Fixture {
	b.Helper()
	s1Once.Do(func() {
		var requests atomic.Int64
		// Not dynamotest.NewClient: its table goes with the first benchmark,
		// and every S1 benchmark reads this one.
		client := dynamodb.New(dynamodb.Options{BaseEndpoint: aws.String(dynamotest.Endpoint(b)), Region: "eu-west-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")}, countRequests(&requests))
		table := dynamotest.TableName()
		if err := dynamo.CreateTable(context.Background(), client, table); err != nil {
			b.Fatal(err)
		}
		svc := &service.Service{Store: dynamo.New(client, table, nil), Queue: nopQueue{}, PublicBaseURL: "https://invite.example.org",
			Session: service.SessionSettings{PerformanceSeedAllowed: true}}
		f := &s1Fixture{svc: svc, requests: &requests, roles: envInt("S1_ROLES", service.DefaultSeedRoles), users: envInt("S1_USERS", service.DefaultSeedUsers)}
		start := time.Now()
		res, err := svc.PerformanceSeed(context.Background(), benchAdmin, f.roles, f.users)
		if err != nil {
			b.Fatal(err)
		}
		f.load, f.firstRole = time.Since(start), res.FirstRole
		s1 = f
	})
	if s1 == nil {
		b.Fatal("the S1 load failed")
	}
	return s1
}

// countRequests is a client option that counts every DynamoDB request.
func countRequests(n *atomic.Int64) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countRequests",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					n.Add(1)
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	}
}

// A role's members page costs at most four DynamoDB requests per page (the
// role, its side's two classes of the members index, the side's counter)
// and the invitation search at most three, whatever the page and the role.
func TestPageRequestCounts(t *testing.T) {
	var requests atomic.Int64
	client, table := dynamotest.NewClient(t, countRequests(&requests))
	svc := &service.Service{Store: dynamo.New(client, table, nil), Queue: nopQueue{}, PublicBaseURL: "https://invite.example.org",
		Session: service.SessionSettings{PerformanceSeedAllowed: true}}
	ctx := context.Background()
	seeded, err := svc.PerformanceSeed(ctx, benchAdmin, 5, 100) // 20 members per role
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name        string
		maxRequests int64
		page        func(roleID int64, number int) (int, error)
	}{
		{"members of a role", 4, func(roleID int64, number int) (int, error) {
			p, err := svc.SearchMembersOfRole(ctx, benchAdmin, roleID, true, domain.PageRequest{Size: 10, Number: number})
			return len(p.Items), err
		}},
		{"invitations of a role", 3, func(roleID int64, number int) (int, error) {
			p, err := svc.SearchInvitations(ctx, benchAdmin, roleID, domain.PageRequest{Size: 10, Number: number})
			return len(p.Items), err
		}},
	} {
		for _, number := range []int{0, 1} {
			roleID := seeded.FirstRole + int64(number)
			before := requests.Load()
			n, err := tc.page(roleID, number)
			if err != nil {
				t.Fatal(err)
			}
			if got := requests.Load() - before; got > tc.maxRequests || got == 0 {
				t.Errorf("%s, page %d: %d DynamoDB requests, want 1 to %d", tc.name, number, got, tc.maxRequests)
			}
			if tc.name == "members of a role" && n != 10 {
				t.Errorf("%s, page %d: %d items, want 10", tc.name, number, n)
			}
		}
	}
}

type nopQueue struct{}

func (nopQueue) Enqueue(context.Context, []domain.Delivery) error { return nil }

func BenchmarkS1Load(b *testing.B) {
	f := loadS1(b)
	for b.Loop() {
	}
	b.ReportMetric(float64(f.users), "users")
	b.ReportMetric(float64(f.roles), "roles")
	b.ReportMetric(f.load.Seconds(), "load-s")
}

// pages runs page 50 times and reports its p50 and p95 latency and its
// DynamoDB requests per call.
func pages(b *testing.B, f *s1Fixture, page func(i int) error) {
	b.Helper()
	const runs = 50
	var took []time.Duration
	before := f.requests.Load()
	for b.Loop() {
		took = took[:0]
		before = f.requests.Load()
		for i := range runs {
			start := time.Now()
			if err := page(i); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(f.requests.Load()-before)/runs, "requests/page")
}

func BenchmarkS1UserSearch(b *testing.B) {
	f := loadS1(b)
	queries := []string{"Anna", "bakker", "Julia de", "seed.1", "Lotte Vos"}
	pages(b, f, func(i int) error {
		_, err := f.svc.SearchUsers(context.Background(), benchAdmin, domain.PageRequest{Query: queries[i%len(queries)], Size: 10, Number: i % 3})
		return err
	})
}

func BenchmarkS1RoleSearch(b *testing.B) {
	f := loadS1(b)
	queries := []string{"Performance", "role 1", "", "42"}
	pages(b, f, func(i int) error {
		_, _, err := f.svc.ListRoles(context.Background(), benchAdmin, domain.PageRequest{Query: queries[i%len(queries)], Size: 10, Number: i % 3}, false)
		return err
	})
}

func BenchmarkS1MembersPage(b *testing.B) {
	f := loadS1(b)
	pages(b, f, func(i int) error {
		_, err := f.svc.SearchMembersOfRole(context.Background(), benchAdmin, f.firstRole+int64(i%f.roles), true, domain.PageRequest{Size: 10, Number: i % 3})
		return err
	})
}

func BenchmarkS1InvitationSearch(b *testing.B) {
	f := loadS1(b)
	pages(b, f, func(i int) error {
		_, err := f.svc.SearchInvitations(context.Background(), benchAdmin, f.firstRole+int64(i%f.roles), domain.PageRequest{Size: 10, Number: i % 3})
		return err
	})
}

func BenchmarkS1ExpiryJob(b *testing.B) {
	f := loadS1(b)
	var took time.Duration
	var requests int64
	for b.Loop() {
		before, start := f.requests.Load(), time.Now()
		res, err := f.svc.RemoveExpired(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if res != (service.ExpiryResult{}) {
			b.Fatalf("nothing is due, the job did %+v", res)
		}
		took, requests = time.Since(start), f.requests.Load()-before
	}
	b.ReportMetric(took.Seconds(), "job-s")
	b.ReportMetric(float64(requests), "requests")
}
