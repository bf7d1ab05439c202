package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Jobs are the scheduled functions, by the name of their Lambda; locally a
// timer runs them, and `make job JOB=<name>` runs one on demand.
var Jobs = []string{"expiry", "cleanup", "outbox-sweep", "reconcile"}

// RunJob runs one scheduled job as its Lambda would, and records the run
// (app.RunScheduled does the same in AWS) for the console.
func (s *Stack) RunJob(ctx context.Context, name string) (any, error) {
	started := s.now()
	res, err := s.runJob(ctx, name)
	if known(name) {
		s.App.Service.RecordJobRun(ctx, name, started, res, err)
	}
	return res, err
}

func known(name string) bool {
	for _, j := range Jobs {
		if j == name {
			return true
		}
	}
	return false
}

func (s *Stack) runJob(ctx context.Context, name string) (any, error) {
	switch name {
	case "expiry":
		reminded, err := s.App.Service.SendReminders(ctx)
		if err != nil {
			return nil, err
		}
		removed, err := s.App.Service.RemoveExpired(ctx)
		return map[string]any{"reminded": reminded, "removed": removed}, err
	case "cleanup":
		removed, err := s.App.Service.CleanupInvitations(ctx)
		if err != nil {
			return map[string]int{"invitations": removed}, err
		}
		tokens, err := s.App.Service.CleanupAPITokens(ctx)
		return map[string]int{"invitations": removed, "apiTokens": tokens}, err
	case "outbox-sweep":
		return s.App.Sweep(ctx, s.now())
	case "reconcile":
		return s.App.Service.ReconcileSPs(ctx, s.App.Registry.TargetIDs())
	}
	return nil, fmt.Errorf("unknown job %q (known: %v)", name, Jobs)
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
