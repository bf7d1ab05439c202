package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// JobJSON is an on-demand job: what the request that starts it answers
// (202, status queued) and what GET of its statusUrl answers, with the
// result once it succeeded.
type JobJSON struct {
	JobID      string          `json:"jobId"`
	Kind       string          `json:"kind,omitempty"`
	Status     string          `json:"status"` // queued, running, succeeded or failed
	StatusURL  string          `json:"statusUrl"`
	QueuedAt   string          `json:"queuedAt,omitempty"`
	StartedAt  string          `json:"startedAt,omitempty"`
	FinishedAt string          `json:"finishedAt,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      string          `json:"error,omitempty"`
}

// Where the jobs are polled: each API answers with its own path.
const (
	jobsPath         = "/api/v1/system/jobs/"
	externalJobsPath = "/api/external/v1/system/jobs/"
)

// startJob starts an on-demand job of kind (cron, repair, seed: longer
// than a request may take) and answers 202 with the job to poll at
// statusPath + its id.
func (a *API) startJob(kind domain.JobKind, statusPath string) func(http.ResponseWriter, *http.Request, *auth.Principal) {
	return func(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
		in := service.JobInput{Kind: kind, Cursor: r.URL.Query().Get("cursor")}
		if kind == domain.JobPerformanceSeed {
			var err error
			if in.Roles, err = intParam(r, "numberOfRole", service.DefaultSeedRoles); err == nil {
				in.Users, err = intParam(r, "numberOfUsers", service.DefaultSeedUsers)
			}
			if err != nil {
				writeError(w, r, err)
				return
			}
		}
		id, err := a.Service.StartJob(r.Context(), p, in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		w.Header().Set("Location", statusPath+id)
		writeJSON(w, http.StatusAccepted, JobJSON{JobID: id, Kind: string(kind), Status: domain.JobQueued, StatusURL: statusPath + id})
	}
}

// job answers the state of an on-demand job.
func (a *API) job(statusPath string) func(http.ResponseWriter, *http.Request, *auth.Principal) {
	return func(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
		id := r.PathValue("id")
		run, err := a.Service.Job(r.Context(), p, id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		out := JobJSON{JobID: id, StatusURL: statusPath + id}
		out.Status, out.QueuedAt, out.StartedAt, out.FinishedAt = jobTimes(run)
		switch out.Status {
		case domain.JobFailed:
			out.Error = run.Summary
		case domain.JobSucceeded:
			if json.Valid([]byte(run.Summary)) {
				out.Result = json.RawMessage(run.Summary)
			}
		}
		writeJSON(w, http.StatusOK, out)
	}
}

// jobTimes is a run's state and its times (RFC 3339, empty when not yet).
func jobTimes(run domain.JobRun) (status, queued, started, finished string) {
	at := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	return run.Status(), at(run.QueuedAt), at(run.StartedAt), at(run.FinishedAt)
}
