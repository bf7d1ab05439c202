package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func (a *API) me(w http.ResponseWriter, r *http.Request) {
	uwr, err := a.Service.Me(r.Context(), callerOf(r))
	respond(w, r, http.StatusOK, userWithRolesJSON(uwr), err)
}

func (a *API) otherUser(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	uwr, err := a.Service.OtherUser(r.Context(), p, id)
	respond(w, r, http.StatusOK, userWithRolesJSON(uwr), err)
}

// sessionConfig answers anonymous callers too.
func (a *API) sessionConfig(w http.ResponseWriter, r *http.Request) {
	guest, err := boolParam(r, "guest", false)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, a.Service.SessionConfig(callerOf(r), guest))
}

func (a *API) institutionAdmins(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	users, err := a.Service.InstitutionAdminsOfRole(r.Context(), p, roleID)
	respond(w, r, http.StatusOK, mapSlice(users, func(u domain.User) UserJSON { return userJSON(u, true) }), err)
}

// searchUsers serves GET search and the reference's
// search-by-application: super users search all users, institution
// admins and organization tokens their organization. The reference's
// force parameter is accepted and has no effect.
func (a *API) searchUsers(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	if _, err := boolParam(r, "force", false); err != nil {
		writeError(w, r, err)
		return
	}
	req, err := pageRequest(r, "name", service.UserSorts...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := a.Service.SearchUsers(r.Context(), p, req)
	respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, userSearchItemJSON), req, page.Total), err)
}

// deleteUser removes a user (super users only) and answers 204.
func (a *API) deleteUser(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	respondNoContent(w, r, a.Service.DeleteUser(r.Context(), p, id))
}
