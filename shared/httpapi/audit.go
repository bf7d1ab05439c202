package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// auditRoutes serves /api/v1/user_roles_audit (A1).
func (a *API) auditRoutes(mux *routes) {
	mux.HandleFunc("GET /api/v1/user_roles_audit/search", a.searchAudit)
	mux.HandleFunc("GET /api/v1/user_roles_audit/roles", a.auditRoles)
}

// AuditEntryJSON is an audit entry of spec 2.10. sp is set on the entries
// that record a provisioning outcome at an SP (this service's addition).
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
}

func auditEntryJSON(e domain.AuditEntry) AuditEntryJSON {
	return AuditEntryJSON{ID: e.ID, UserID: e.UserID, RoleID: e.RoleID, UserEmail: e.UserEmail, RoleName: e.RoleName,
		EndDate: isoTimePtr(e.EndDate), CreatedAt: isoTime(e.CreatedAt), CreatedBy: e.CreatedBy, Authority: string(e.Authority),
		Action: string(e.Action), SP: e.SP}
}

// searchAudit is A1: query, roleId (empty: all roles, super users only)
// and the paging parameters, sort default userEmail.
func (a *API) searchAudit(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	req, err := pageRequest(r, "userEmail", service.AuditSorts...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var roleID int64
	if v := strings.TrimSpace(r.URL.Query().Get("roleId")); v != "" {
		if roleID, err = strconv.ParseInt(v, 10, 64); err != nil || roleID <= 0 {
			writeError(w, r, domain.Invalidf("roleId must be a positive integer"))
			return
		}
	}
	page, err := a.Service.SearchAudit(r.Context(), p, roleID, req)
	respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, auditEntryJSON), req, page.Total), err)
}
