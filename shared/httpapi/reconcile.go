package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// reconcileRequest is the body of a reconcile run. dryRun defaults to
// true: a plan is shown unless the caller asks for the repairs.
type reconcileRequest struct {
	SP             string   `json:"sp"`
	DryRun         *bool    `json:"dryRun"`
	MaxDeleteShare *float64 `json:"maxDeleteShare"`
}

// RepairJSON is one planned or made repair.
type RepairJSON struct {
	Action   string `json:"action"`
	Kind     string `json:"kind"`
	LocalID  int64  `json:"localId"`
	RemoteID string `json:"remoteId,omitempty"`
	Detail   string `json:"detail,omitempty"`
	Error    string `json:"error,omitempty"`
}

// ReconcileJSON is what a reconcile run found and did at one SP.
type ReconcileJSON struct {
	SP       string       `json:"sp"`
	DryRun   bool         `json:"dryRun"`
	Users    int          `json:"users"`
	Groups   int          `json:"groups"`
	Listed   bool         `json:"listed"`
	Repairs  []RepairJSON `json:"repairs"`
	Stopped  string       `json:"stopped,omitempty"`
	Repaired int          `json:"repaired"`
	Failed   int          `json:"failed"`
}

func reconcileJSON(r domain.ReconcileReport) ReconcileJSON {
	return ReconcileJSON{SP: r.SP, DryRun: r.DryRun, Users: r.Users, Groups: r.Groups, Listed: r.Listed, Stopped: r.Stopped,
		Repaired: r.Repaired, Failed: r.Failed, Repairs: mapSlice(r.Repairs, func(x domain.Repair) RepairJSON {
			return RepairJSON{Action: string(x.Action), Kind: string(x.Kind), LocalID: x.LocalID, RemoteID: x.RemoteID,
				Detail: x.Detail, Error: x.Error}
		})}
}

// ReconcileJobJSON is an on-demand reconcile run: what POST answers (202,
// status queued) and what GET of its statusUrl answers until it is done.
type ReconcileJobJSON struct {
	JobID      string         `json:"jobId"`
	Status     string         `json:"status"` // queued, running, succeeded or failed
	StatusURL  string         `json:"statusUrl"`
	StartedAt  string         `json:"startedAt,omitempty"`
	FinishedAt string         `json:"finishedAt,omitempty"`
	Report     *ReconcileJSON `json:"report,omitempty"`
	Error      string         `json:"error,omitempty"`
}

const reconcileJobsPath = "/api/v1/system/deliveries/reconcile/"

// reconcileSP starts comparing one SP with the service and repairing it,
// or planning the repairs (dryRun, the default). A large SP takes longer
// than a request may, so the answer is 202 with the job to poll.
func (a *API) reconcileSP(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	var req reconcileRequest
	if !decode(w, r, &req) {
		return
	}
	in := service.ReconcileInput{SPID: req.SP, DryRun: req.DryRun == nil || *req.DryRun}
	if req.MaxDeleteShare != nil {
		in.MaxDeleteShare = *req.MaxDeleteShare
	}
	id, err := a.Service.StartReconcile(r.Context(), p, in)
	if err == nil {
		w.Header().Set("Location", reconcileJobsPath+id)
	}
	respond(w, r, http.StatusAccepted, ReconcileJobJSON{JobID: id, Status: domain.JobQueued, StatusURL: reconcileJobsPath + id}, err)
}

// reconcileJob is the state of an on-demand reconcile run, with its report
// once it is done.
func (a *API) reconcileJob(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	id := r.PathValue("id")
	run, err := a.Service.ReconcileJob(r.Context(), p, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := ReconcileJobJSON{JobID: id, StatusURL: reconcileJobsPath + id}
	out.Status, _, out.StartedAt, out.FinishedAt = jobTimes(run)
	switch out.Status {
	case domain.JobFailed:
		out.Error = run.Summary
	case domain.JobSucceeded:
		var rep domain.ReconcileReport
		if err := json.Unmarshal([]byte(run.Summary), &rep); err != nil {
			out.Status, out.Error = domain.JobFailed, "the report could not be read"
		} else {
			j := reconcileJSON(rep)
			out.Report = &j
		}
	}
	writeJSON(w, http.StatusOK, out)
}
