package stack

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// RunJob runs one scheduled job (app.Jobs) as its Lambda would, at the
// stack's clock; locally a timer runs them, and `make job JOB=<name>` runs
// one on demand.
func (s *Stack) RunJob(ctx context.Context, name string) (any, error) {
	return s.App.RunJob(ctx, name, s.now())
}

// every runs the named jobs each interval until ctx ends, as the
// EventBridge schedules do in AWS.
func (s *Stack) every(ctx context.Context, interval time.Duration, jobs ...string) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, name := range jobs {
				if res, err := s.RunJob(ctx, name); err != nil && ctx.Err() == nil {
					s.App.Logger.Warn("scheduled job failed", "job", name, "error", err)
				} else if err == nil {
					s.App.Logger.Debug("scheduled job ran", "job", name, "result", res)
				}
			}
		}
	}
}

// serveJob is POST /local/jobs/{name}: the on-demand trigger of the local
// stack (in AWS: `aws lambda invoke` of the function, or S5/S6).
func (s *Stack) serveJob(w http.ResponseWriter, r *http.Request) {
	res, err := s.RunJob(r.Context(), r.PathValue("name"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(res)
}
