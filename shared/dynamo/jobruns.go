package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// jobRunRecord is the last run of a scheduled job: one item per job,
// overwritten at every run (pk JOB#<name>, sk LAST).
type jobRunRecord struct {
	itemKey
	Entity     string    `dynamodbav:"entity"`
	Name       string    `dynamodbav:"name"`
	StartedAt  time.Time `dynamodbav:"startedAt"`
	FinishedAt time.Time `dynamodbav:"finishedAt"`
	Failed     bool      `dynamodbav:"failed"`
	Summary    string    `dynamodbav:"summary"`
}

func jobRunKey(name string) itemKey { return itemKey{PK: "JOB#" + name, SK: "LAST"} }

// PutJobRun records the last run of a job.
func (s *Store) PutJobRun(ctx context.Context, r domain.JobRun) error {
	return s.putItem(ctx, jobRunRecord{itemKey: jobRunKey(r.Name), Entity: "jobrun", Name: r.Name, StartedAt: r.StartedAt.UTC(),
		FinishedAt: r.FinishedAt.UTC(), Failed: r.Failed, Summary: r.Summary})
}

// GetJobRuns reads the last runs of the named jobs in one BatchGetItem;
// a job that never ran is left out.
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
		out = append(out, domain.JobRun{Name: rec.Name, StartedAt: rec.StartedAt, FinishedAt: rec.FinishedAt, Failed: rec.Failed, Summary: rec.Summary})
	}
	return out, nil
}
