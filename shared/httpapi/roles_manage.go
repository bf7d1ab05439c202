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

// allVisibleRoles is the internal variant of listRoles: every role the caller may
// see, as an array.
func (a *API) allVisibleRoles(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	// The forced listing in pages, to the end: this array is every role.
	var roles []domain.Role
	for number := 0; ; number++ {
		page, _, err := a.Service.ListRoles(r.Context(), p, domain.PageRequest{Number: number}, true)
		if err != nil {
			writeError(w, r, err)
			return
		}
		roles = append(roles, page.Items...)
		if len(page.Items) == 0 || int64(len(roles)) >= page.Total {
			break
		}
	}
	respond(w, r, http.StatusOK, rolesJSON(roles), nil)
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
