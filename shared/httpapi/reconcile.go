package httpapi

import (
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

// reconcileSP compares one SP with the service and repairs it, or shows
// the plan (dryRun, the default).
func (a *API) reconcileSP(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	var req reconcileRequest
	if !decode(w, r, &req) {
		return
	}
	in := service.ReconcileInput{SPID: req.SP, DryRun: req.DryRun == nil || *req.DryRun}
	if req.MaxDeleteShare != nil {
		in.MaxDeleteShare = *req.MaxDeleteShare
	}
	rep, err := a.Service.Reconcile(r.Context(), p, in)
	respond(w, r, http.StatusOK, reconcileJSON(rep), err)
}
