package service_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// slowMailer takes delay per mail, like SES at a few dozen mails a
// second, and counts what it sent.
type slowMailer struct {
	mu    sync.Mutex
	delay time.Duration
	sent  map[string]int
}

func (m *slowMailer) Send(ctx context.Context, e domain.Email) error {
	m.mu.Lock()
	delay := m.delay
	m.mu.Unlock()
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		return ctx.Err()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent[e.To]++
	return nil
}

func (m *slowMailer) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sent)
}

// writeCountingService is a service whose store counts the write
// operations (TransactWriteItems, BatchWriteItem, PutItem, UpdateItem) it
// sends, by name.
func writeCountingService(t *testing.T) (*service.Service, *sync.Map) {
	t.Helper()
	client, table := dynamotest.NewClient(t)
	var ops sync.Map
	counted := dynamodb.New(client.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countOps",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					n, _ := ops.LoadOrStore(middleware.GetOperationName(ctx), new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
					return next.HandleInitialize(ctx, in)
				}), middleware.Before)
		})
	})
	reg, err := config.Parse([]byte(testkit.Registry))
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return now }
	return &service.Service{Store: dynamo.New(counted, table, clock), Queue: &testkit.RecordingQueue{}, Registry: reg, Clock: clock,
		PublicBaseURL: testkit.PublicBaseURL}, &ops
}

func opCount(ops *sync.Map, name string) int64 {
	if n, ok := ops.Load(name); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

// TestLargeInvitationIsQueued: one request inviting 500 addresses writes
// its invitations and e-mails in a few transactions, sends only what fits
// in its few seconds (SES is slow here) and leaves the rest in the mail
// outbox, which one sweep then sends completely; nobody gets two mails.
func TestLargeInvitationIsQueued(t *testing.T) {
	s, ops := writeCountingService(t)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	mailer := &slowMailer{delay: 200 * time.Millisecond, sent: map[string]int{}}
	s.Mailer, s.Renderer = mailer, renderer
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Bulk"))
	if err != nil {
		t.Fatal(err)
	}
	in := service.InvitationInput{IntendedAuthority: "GUEST", RoleIDs: []int64{role.ID}, ExpiryDate: ptr(now.Add(14 * 24 * time.Hour))}
	for i := range 500 {
		in.Invites = append(in.Invites, fmt.Sprintf("guest%03d@example.org", i))
	}
	writesBefore := opCount(ops, "TransactWriteItems") + opCount(ops, "BatchWriteItem")
	res, err := s.Invite(ctx, &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "bulk (API token 9)"}, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.URLs) != 500 {
		t.Fatalf("%d invitation links, want 500", len(res.URLs))
	}
	// 500 invitations with their role links (1,000 items) and 500 mails:
	// 15 transactions of 100; one each would be 1,000.
	if writes := opCount(ops, "TransactWriteItems") + opCount(ops, "BatchWriteItem") - writesBefore; writes > 20 {
		t.Errorf("the request wrote in %d transactions, want at most 20", writes)
	}
	inline := mailer.count()
	if inline == 0 || inline >= 100 {
		t.Errorf("the request itself sent %d mails; want some, and the rest left to the sweep", inline)
	}
	open, err := s.Store.ListOpenInvitationsOfRole(ctx, role.ID)
	if err != nil || len(open) != 500 {
		t.Fatalf("%d open invitations, %v", len(open), err)
	}

	mailer.mu.Lock()
	mailer.delay = 0
	mailer.mu.Unlock()
	swept, err := s.SendPendingMails(ctx, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if swept.Sent != 500-inline || mailer.count() != 500 {
		t.Errorf("the sweep sent %d (after %d at once): %d of 500 recipients have their mail", swept.Sent, inline, mailer.count())
	}
	for to, n := range mailer.sent {
		if n != 1 {
			t.Errorf("%s got %d mails", to, n)
		}
	}
}

// BenchmarkInviteFiveHundred is one request inviting 500 addresses with
// their e-mails queued (SES answering at once): API Gateway answers after
// 30 s, the function's timeout is 10 s.
func BenchmarkInviteFiveHundred(b *testing.B) {
	s, _ := testkit.NewService(b, func() time.Time { return now })
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		b.Fatal(err)
	}
	s.Mailer, s.Renderer, s.InvitationsPerDay = &slowMailer{sent: map[string]int{}}, renderer, -1
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Bench"))
	if err != nil {
		b.Fatal(err)
	}
	for n := 0; b.Loop(); n++ {
		in := service.InvitationInput{IntendedAuthority: "GUEST", RoleIDs: []int64{role.ID}, ExpiryDate: ptr(now.Add(14 * 24 * time.Hour))}
		for i := range 500 {
			in.Invites = append(in.Invites, fmt.Sprintf("guest%d-%03d@example.org", n, i))
		}
		if _, err := s.Invite(ctx, root, in); err != nil {
			b.Fatal(err)
		}
	}
}
