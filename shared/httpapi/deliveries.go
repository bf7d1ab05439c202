package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// DeliveryJSON is a dead letter as operators see it: ids, the reason and
// the SP's answer, no personal data beyond ids and no secrets.
type DeliveryJSON struct {
	ID            string  `json:"id"`
	SP            string  `json:"sp"`
	Kind          string  `json:"kind"`
	UserID        int64   `json:"userId,omitempty"`
	RoleID        int64   `json:"roleId,omitempty"`
	Status        string  `json:"status"`
	Attempts      int     `json:"attempts"`
	Replays       int     `json:"replays"`
	Reason        string  `json:"reason,omitempty"`
	CorrelationID string  `json:"correlationId,omitempty"`
	CreatedAt     *string `json:"createdAt,omitempty"`
	UpdatedAt     *string `json:"updatedAt,omitempty"`
}

func deliveryJSON(d domain.Delivery) DeliveryJSON {
	return DeliveryJSON{ID: d.ID, SP: d.SPID, Kind: string(d.Kind), UserID: d.UserID, RoleID: d.RoleID, Status: string(d.Status),
		Attempts: d.Attempts, Replays: d.Replays, Reason: d.LastError, CorrelationID: d.CorrelationID,
		CreatedAt: isoTime(d.CreatedAt), UpdatedAt: isoTime(d.UpdatedAt)}
}

// FailedOverviewJSON answers the dead-letter listing without sp: every SP's
// dead letters, oldest first, with counts per SP and per kind of reason.
type FailedOverviewJSON struct {
	Total      int            `json:"total"`
	BySP       map[string]int `json:"bySp"`
	ByReason   map[string]int `json:"byReason"`
	Truncated  bool           `json:"truncated"`
	Deliveries []DeliveryJSON `json:"deliveries"`
}

// failedDeliveries lists the dead letters of one SP (an array), or of every
// SP with counts (an object) when sp is absent.
func (a *API) failedDeliveries(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	if sp := strings.TrimSpace(r.URL.Query().Get("sp")); sp != "" {
		ds, err := a.Service.FailedDeliveries(r.Context(), p, sp)
		respond(w, r, http.StatusOK, mapSlice(ds, deliveryJSON), err)
		return
	}
	o, err := a.Service.FailedDeliveriesOfAllSPs(r.Context(), p)
	respond(w, r, http.StatusOK, FailedOverviewJSON{Total: len(o.Deliveries), BySP: o.BySP, ByReason: o.ByReason,
		Truncated: o.Truncated, Deliveries: mapSlice(o.Deliveries, deliveryJSON)}, err)
}

type selectionRequest struct {
	IDs []string `json:"ids"`
	SP  string   `json:"sp"`
}

func (a *API) replayDeliveries(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	a.selection(w, r, p, "replayed", a.Service.Replay)
}

func (a *API) discardDeliveries(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	a.selection(w, r, p, "discarded", a.Service.Discard)
}

func (a *API) selection(w http.ResponseWriter, r *http.Request, p *auth.Principal, verb string,
	act func(ctx context.Context, p *auth.Principal, sel service.Selection) (int, error)) {
	var req selectionRequest
	if !decode(w, r, &req) {
		return
	}
	n, err := act(r.Context(), p, service.Selection{IDs: req.IDs, SPID: req.SP})
	respond(w, r, http.StatusOK, map[string]int{verb: n}, err)
}
