package dynamo_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// A queued on-demand run is claimed by one runner only, however many try
// at once (Lambda may deliver one asynchronous invocation twice); a run
// never queued, or already claimed, is not claimed. The claimed run keeps
// when it was queued, and its outcome keeps both times.
func TestClaimJobRunClaimsOnce(t *testing.T) {
	s := newStore(t)
	name := domain.OnDemandJobName("job-1")
	queued := testNow.Add(-time.Minute)
	must(t, s.PutJobRun(ctx(t), domain.JobRun{Name: name, QueuedAt: queued}))

	var wg sync.WaitGroup
	claims := make(chan domain.JobRun, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, ok, err := s.ClaimJobRun(ctx(t), name, testNow, time.Time{})
			if err != nil {
				t.Error(err)
			}
			if ok {
				claims <- run
			}
		}()
	}
	wg.Wait()
	close(claims)
	var won []domain.JobRun
	for r := range claims {
		won = append(won, r)
	}
	if len(won) != 1 {
		t.Fatalf("%d runners claimed the run, want 1", len(won))
	}
	if run := won[0]; !run.QueuedAt.Equal(queued) || !run.StartedAt.Equal(testNow) || run.Status() != domain.JobRunning {
		t.Errorf("claimed run %+v", run)
	}
	if _, ok, err := s.ClaimJobRun(ctx(t), domain.OnDemandJobName("never-queued"), testNow, time.Time{}); ok || err != nil {
		t.Errorf("a run never queued: claimed %v, %v", ok, err)
	}

	done := won[0]
	done.FinishedAt, done.Summary = testNow.Add(time.Second), `{"n":1}`
	must(t, s.PutJobRun(ctx(t), done))
	if _, ok, _ := s.ClaimJobRun(ctx(t), name, testNow, time.Time{}); ok {
		t.Error("a finished run was claimed again")
	}
	runs, err := s.GetJobRuns(ctx(t), []string{name})
	if err != nil || len(runs) != 1 || runs[0].Status() != domain.JobSucceeded || !runs[0].QueuedAt.Equal(queued) {
		t.Fatalf("finished run %+v %v", runs, err)
	}
}

// An on-demand run's item expires (TTL) OnDemandJobRetention after it was
// queued; a scheduled job's one item, overwritten at every run, never does.
func TestOnDemandJobRunsExpire(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	for _, tc := range []struct {
		run     domain.JobRun
		wantTTL int64
	}{
		{domain.JobRun{Name: domain.OnDemandJobName("a"), QueuedAt: testNow}, testNow.Add(domain.OnDemandJobRetention).Unix()},
		{domain.JobRun{Name: domain.ReconcileJobName("b"), QueuedAt: testNow}, testNow.Add(30 * 24 * time.Hour).Unix()},
		{domain.JobRun{Name: "expiry", StartedAt: testNow, FinishedAt: testNow}, 0},
	} {
		must(t, s.PutJobRun(ctx(t), tc.run))
		item := rawItem(t, client, table, "JOB#"+tc.run.Name, "LAST")
		var got int64
		if n, ok := item["ttl"].(*types.AttributeValueMemberN); ok {
			got, _ = strconv.ParseInt(n.Value, 10, 64)
		}
		if got != tc.wantTTL {
			t.Errorf("%s: ttl %d, want %d", tc.run.Name, got, tc.wantTTL)
		}
	}
}
