package httpapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// AuditEntryJSON is an audit entry. sp (the application's SCIM
// target), deliveryKind and reason are set on the entries that record a
// provisioning outcome at an SP (this service's addition).
type AuditEntryJSON struct {
	ID        int64   `json:"id"`
	UserID    int64   `json:"userId"`
	RoleID    int64   `json:"roleId"`
	UserEmail string  `json:"userEmail"`
	RoleName  string  `json:"roleName"`
	EndDate   *string `json:"endDate"`
	CreatedAt *string `json:"createdAt"`
	CreatedBy string  `json:"createdBy"`
	Authority string  `json:"authority,omitempty"`
	Action    string  `json:"action"`
	SP        string  `json:"sp,omitempty"`
	// DeliveryKind is what was sent to the SP (user.create, member.add, ...).
	DeliveryKind string `json:"deliveryKind,omitempty"`
	Reason       string `json:"reason,omitempty"`
	// Subject is what a change of a role, invitation, registry item or
	// organization was about (see domain.AuditEntry).
	Subject string `json:"subject,omitempty"`
}

func auditEntryJSON(e domain.AuditEntry) AuditEntryJSON {
	return AuditEntryJSON{ID: e.ID, UserID: e.UserID, RoleID: e.RoleID, UserEmail: e.UserEmail, RoleName: e.RoleName,
		EndDate: isoTimePtr(e.EndDate), CreatedAt: isoTime(e.CreatedAt), CreatedBy: e.CreatedBy, Authority: string(e.Authority),
		Action: string(e.Action), SP: e.SP, DeliveryKind: string(e.DeliveryKind), Reason: e.Reason, Subject: e.Subject}
}

// searchAudit reads query, roleId (empty: all roles, super users only),
// the filters userId, email, action (comma-separated) and from/to (ISO 8601
// or epoch seconds, [from, to)), and the paging parameters; newest first
// unless sort or sortDirection say otherwise.
func (a *API) searchAudit(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	req, err := pageRequest(r, service.AuditSorts[0], service.AuditSorts[1:]...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	if q.Get("sort") == "" && q.Get("sortDirection") == "" {
		req.Descending = true
	}
	f, err := auditFilter(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := a.Service.SearchAuditFiltered(r.Context(), p, f, req)
	respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, auditEntryJSON), req, page.Total), err)
}

func auditFilter(r *http.Request) (domain.AuditFilter, error) {
	q := r.URL.Query()
	var f domain.AuditFilter
	var err error
	if f.RoleID, err = positiveIDParam(q.Get("roleId"), "roleId"); err != nil {
		return f, err
	}
	if f.UserID, err = positiveIDParam(q.Get("userId"), "userId"); err != nil {
		return f, err
	}
	f.Email = strings.TrimSpace(q.Get("email"))
	for _, v := range strings.Split(q.Get("action"), ",") {
		if v = strings.ToUpper(strings.TrimSpace(v)); v == "" {
			continue
		}
		if !slices.Contains(domain.AuditActions, domain.AuditAction(v)) {
			return f, domain.Invalidf("action must be one or more (comma-separated) of %v", domain.AuditActions)
		}
		f.Actions = append(f.Actions, domain.AuditAction(v))
	}
	if f.From, err = timeParam(q.Get("from"), "from"); err != nil {
		return f, err
	}
	if f.To, err = timeParam(q.Get("to"), "to"); err != nil {
		return f, err
	}
	return f, nil
}

func positiveIDParam(v, name string) (int64, error) {
	if v = strings.TrimSpace(v); v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id <= 0 {
		return 0, domain.Invalidf("%s must be a positive integer", name)
	}
	return id, nil
}

// timeParam reads a query parameter as FlexTime does a JSON value.
func timeParam(v, name string) (time.Time, error) {
	if v = strings.TrimSpace(v); v == "" {
		return time.Time{}, nil
	}
	raw := strconv.Quote(v)
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		raw = v
	}
	var t FlexTime
	if err := t.UnmarshalJSON([]byte(raw)); err != nil {
		return time.Time{}, domain.Invalidf("%s: %s", name, err.Error())
	}
	return t.Time, nil
}
