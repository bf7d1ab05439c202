package dynamo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// jobRunRecord is a run of a job (pk JOB#<name>, sk LAST): one item per
// scheduled job, overwritten at every run, and one per on-demand job
// (its name has "#<id>"), which TTL removes domain.OnDemandJobRetention
// after it was queued.
type jobRunRecord struct {
	itemKey
	Entity     string    `dynamodbav:"entity"`
	Name       string    `dynamodbav:"name"`
	QueuedAt   time.Time `dynamodbav:"queuedAt"`
	StartedAt  time.Time `dynamodbav:"startedAt"`
	FinishedAt time.Time `dynamodbav:"finishedAt"`
	Failed     bool      `dynamodbav:"failed"`
	Summary    string    `dynamodbav:"summary"`
	// Claimed is set by the one runner that claimed the run (a
	// conditional write), so that a retried invocation does not run it
	// again.
	Claimed  bool      `dynamodbav:"claimed,omitempty"`
	RunUntil time.Time `dynamodbav:"runUntil,omitempty"`
	TTL      int64     `dynamodbav:"ttl,omitempty"`
}

func jobRunKey(name string) itemKey { return itemKey{PK: "JOB#" + name, SK: "LAST"} }

// PutJobRun records a run of a job; a run with a StartedAt is claimed.
func (s *Store) PutJobRun(ctx context.Context, r domain.JobRun) error {
	rec := jobRunRecord{itemKey: jobRunKey(r.Name), Entity: "jobrun", Name: r.Name, QueuedAt: r.QueuedAt.UTC(), StartedAt: r.StartedAt.UTC(),
		FinishedAt: r.FinishedAt.UTC(), Failed: r.Failed, Summary: r.Summary, Claimed: !r.StartedAt.IsZero(), RunUntil: r.RunUntil.UTC()}
	if strings.Contains(r.Name, "#") {
		from := r.QueuedAt
		if from.IsZero() {
			from = r.StartedAt
		}
		rec.TTL = from.Add(domain.OnDemandJobRetention).Unix()
	}
	return s.putItem(ctx, rec)
}

// ClaimJobRun marks the queued run called name as started at now, with
// its runner's time limit (runUntil, zero for none), in one conditional
// update: only a run that exists and that no runner claimed yet is
// claimed (true), so that two invocations of one job run it once.
func (s *Store) ClaimJobRun(ctx context.Context, name string, now, runUntil time.Time) (domain.JobRun, bool, error) {
	update := "SET #c = :t, #s = :now"
	names := map[string]string{"#c": "claimed", "#s": "startedAt", "#pk": attrPK}
	values := map[string]types.AttributeValue{
		":t":   &types.AttributeValueMemberBOOL{Value: true},
		":now": &types.AttributeValueMemberS{Value: now.UTC().Format(time.RFC3339Nano)},
	}
	if !runUntil.IsZero() {
		update += ", #u = :until"
		names["#u"] = "runUntil"
		values[":until"] = &types.AttributeValueMemberS{Value: runUntil.UTC().Format(time.RFC3339Nano)}
	}
	out, err := s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       jobRunKey(name).attributes(),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String("attribute_exists(#pk) AND attribute_not_exists(#c)"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllNew,
	})
	if isConditionFailed(err) {
		return domain.JobRun{}, false, nil
	}
	if err != nil {
		return domain.JobRun{}, false, fmt.Errorf("claim job run: %w", err)
	}
	var rec jobRunRecord
	if err := unmarshal(out.Attributes, &rec); err != nil {
		return domain.JobRun{}, false, err
	}
	return rec.jobRun(), true, nil
}

// GetJobRuns reads the runs of the named jobs in one BatchGetItem; a job
// that never ran is left out.
func (s *Store) GetJobRuns(ctx context.Context, names []string) ([]domain.JobRun, error) {
	keys := make([]itemKey, len(names))
	for i, n := range names {
		keys[i] = jobRunKey(n)
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("get job runs: %w", err)
	}
	out := make([]domain.JobRun, 0, len(items))
	for _, it := range items {
		var rec jobRunRecord
		if err := unmarshal(it, &rec); err != nil {
			return nil, err
		}
		out = append(out, rec.jobRun())
	}
	return out, nil
}

func (rec jobRunRecord) jobRun() domain.JobRun {
	return domain.JobRun{Name: rec.Name, QueuedAt: rec.QueuedAt, StartedAt: rec.StartedAt, FinishedAt: rec.FinishedAt, Failed: rec.Failed, Summary: rec.Summary, RunUntil: rec.RunUntil}
}
