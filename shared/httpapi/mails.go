package httpapi

import (
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// MailJSON is an undelivered e-mail as operators see it: to whom, what
// about and why, not its content.
type MailJSON struct {
	ID        string  `json:"id"`
	To        string  `json:"to"`
	Subject   string  `json:"subject"`
	Status    string  `json:"status"`
	Attempts  int     `json:"attempts"`
	Reason    string  `json:"reason,omitempty"`
	CreatedAt *string `json:"createdAt,omitempty"`
	UpdatedAt *string `json:"updatedAt,omitempty"`
}

func (a *API) undeliveredMails(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	status := domain.MailStatus(r.URL.Query().Get("status"))
	if status == "" {
		status = domain.MailFailed
	}
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, r, domain.Invalidf("limit must be an integer from 1 to 1000"))
			return
		}
		limit = n
	}
	mails, err := a.Service.UndeliveredMails(r.Context(), p, status, limit)
	respond(w, r, http.StatusOK, mapSlice(mails, mailJSON), err)
}

func mailJSON(m domain.MailDelivery) MailJSON {
	return MailJSON{ID: m.ID, To: m.Email.To, Subject: m.Email.Subject, Status: string(m.Status),
		Attempts: m.Attempts, Reason: m.LastError, CreatedAt: isoTime(m.CreatedAt), UpdatedAt: isoTime(m.UpdatedAt)}
}

// mailRetryRequest is the body of POST /api/v1/system/mails/retry.
type mailRetryRequest struct {
	IDs []string `json:"ids"`
}

func (a *API) retryMails(w http.ResponseWriter, r *http.Request, p *auth.Principal) {
	var req mailRetryRequest
	if !decode(w, r, &req) {
		return
	}
	n, err := a.Service.RetryFailedMails(r.Context(), p, req.IDs)
	respond(w, r, http.StatusOK, map[string]int{"retried": n}, err)
}
