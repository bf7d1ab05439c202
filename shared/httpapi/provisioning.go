package httpapi

import (
	"context"
	"net/http"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/service"
)

// ProvisioningJSON is the status of a user or group at one SP.
type ProvisioningJSON struct {
	SP            string  `json:"sp"`
	Status        string  `json:"status"`
	RemoteID      string  `json:"remoteId,omitempty"`
	ProvisionedAt *string `json:"provisionedAt,omitempty"`
	UpdatedAt     *string `json:"updatedAt,omitempty"`
	Attempts      int     `json:"attempts,omitempty"`
	Reason        string  `json:"reason,omitempty"`
}

func provisioningJSON(s service.ProvisioningStatus) ProvisioningJSON {
	return ProvisioningJSON{SP: s.SP, Status: string(s.Status), RemoteID: s.RemoteID,
		ProvisionedAt: isoTimePtr(s.ProvisionedAt), UpdatedAt: isoTime(s.UpdatedAt), Attempts: s.Attempts, Reason: s.LastError}
}

// userProvisioning is GET /api/v1/users/{id}/provisioning.
func (a *API) userProvisioning(w http.ResponseWriter, r *http.Request) {
	a.provisioning(w, r, a.Service.UserProvisioning)
}

// roleProvisioning is GET /api/v1/roles/{id}/provisioning.
func (a *API) roleProvisioning(w http.ResponseWriter, r *http.Request) {
	a.provisioning(w, r, a.Service.RoleProvisioning)
}

func (a *API) provisioning(w http.ResponseWriter, r *http.Request,
	read func(ctx context.Context, p *auth.Principal, id int64) ([]service.ProvisioningStatus, error)) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	ss, err := read(r.Context(), p, id)
	respond(w, r, http.StatusOK, mapSlice(ss, provisioningJSON), err)
}
