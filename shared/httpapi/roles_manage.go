package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// listRoles answers a page of the roles the caller may see. force (default
// true, as in the reference) returns every role in one page when there are
// at most service.RoleForcedPageSize, else pages of that many.
func (a *API) listRoles(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	force, err := boolParam(r, "force", true)
	if err != nil {
		writeError(w, r, err)
		return
	}
	req, err := pageRequest(r, "name", service.RoleSorts...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, req, err := a.Service.ListRoles(r.Context(), p, req, force)
	respond(w, r, http.StatusOK, newPage(rolesJSON(page.Items), req, page.Total), err)
}

// allVisibleRoles is the internal variant of listRoles: the roles the
// caller may see, as an array of up to service.RoleForcedPageSize (one
// page of the role listing, by name), so that an answer costs one listing
// page however many roles exist; a caller who sees more is told to ask for
// pages (pageNumber, pageSize: the page envelope, as listRoles).
func (a *API) allVisibleRoles(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	if q := r.URL.Query(); q.Has("pageNumber") || q.Has("pageSize") {
		req, err := pageRequest(r, "name", service.RoleSorts...)
		if err != nil {
			writeError(w, r, err)
			return
		}
		page, req, err := a.Service.ListRoles(r.Context(), p, req, false)
		respond(w, r, http.StatusOK, newPage(rolesJSON(page.Items), req, page.Total), err)
		return
	}
	page, _, err := a.Service.ListRoles(r.Context(), p, domain.PageRequest{}, true)
	if err == nil && page.Total > int64(len(page.Items)) {
		err = domain.Invalidf("more than %d roles, more than one answer lists: ask for pages (pageNumber, pageSize)", len(page.Items))
	}
	respond(w, r, http.StatusOK, rolesJSON(page.Items), err)
}

// roleUpdateRequest is the body of a role update: a Role as getRole answers it; fields that
// never change (shortName, urn, identifier, auditable) are ignored.
type roleUpdateRequest struct {
	ID int64 `json:"id"`
	roleRequest
}

func (a *API) updateRole(status int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { a.updateRoleAnswering(w, r, status) }
}

func (a *API) updateRoleAnswering(w http.ResponseWriter, r *http.Request, status int) {
	p, req, ok := callerAndBody[roleUpdateRequest](w, r)
	if !ok {
		return
	}
	role, err := a.Service.UpdateRole(r.Context(), p, req.ID, req.input())
	respond(w, r, status, roleJSON(role), err)
}

func (a *API) rolesOfApplication(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	roles, err := a.Service.RolesOfApplication(r.Context(), p, r.PathValue("manageId"))
	respond(w, r, http.StatusOK, rolesJSON(roles), err)
}

func (a *API) rolesOfOrganizationApplication(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	roles, err := a.Service.RolesOfOrganizationApplication(r.Context(), p, r.PathValue("organizationGUID"), r.PathValue("manageId"))
	respond(w, r, http.StatusOK, rolesJSON(roles), err)
}

func rolesJSON(roles []domain.Role) []RoleJSON { return mapSlice(roles, roleJSON) }
