package httpapi

import (
	"net/http"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

func (a *API) roleManagerEmails(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	emails, err := a.Service.RoleManagerEmails(r.Context(), p, roleID)
	respond(w, r, http.StatusOK, emails, err)
}

// roleDeletionConsequence is one membership a role's deletion ends.
type roleDeletionConsequence struct {
	Authority domain.Authority `json:"authority"`
	UserInfo  map[string]any   `json:"userInfo"`
}

// roleDeletionConsequences answers the memberships a role's deletion ends:
// the reference's array for a role of at most service.MaxMembersListed
// members; the page envelope (by name, totalElements the role's member
// count) for a larger role or when the caller asks for a page.
func (a *API) roleDeletionConsequences(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	req, err := pageRequest(r, service.MemberSortName)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	members, page, err := a.Service.RoleDeletionConsequences(r.Context(), p, roleID, req, q.Has("pageNumber") || q.Has("pageSize"))
	consequence := func(m domain.Member) roleDeletionConsequence {
		return roleDeletionConsequence{Authority: m.UserRole.Authority, UserInfo: memberJSON(m).UserInfo}
	}
	if err == nil && page != nil {
		respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, consequence), req, page.Total), nil)
		return
	}
	respond(w, r, http.StatusOK, mapSlice(members, consequence), err)
}

func (a *API) organizationInstitutionAdmins(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	users, err := a.Service.InstitutionAdmins(r.Context(), p, r.URL.Query().Get("organizationGUID"))
	respond(w, r, http.StatusOK, mapSlice(users, func(u domain.User) UserJSON { return userJSON(u, true) }), err)
}

func (a *API) removeInstitutionAdmin(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	err := a.Service.RemoveInstitutionAdmin(r.Context(), p, id)
	respond(w, r, http.StatusOK, map[string]int{"status": http.StatusOK}, err)
}

type validationRequest struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// validate answers any authenticated caller (deny by default: nothing
// anonymous in the API but the invitation link's own routes).
func (a *API) validate(w http.ResponseWriter, r *http.Request) {
	if _, ok := requireCaller(w, r); !ok {
		return
	}
	var req validationRequest
	if !decode(w, r, &req) {
		return
	}
	valid, err := service.Validate(req.Type, req.Value)
	respond(w, r, http.StatusOK, map[string]bool{"valid": valid}, err)
}

// auditRole is one role of the audit search's filter.
type auditRole struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// auditRoles lists the roles the caller may filter the audit search by.
func (a *API) auditRoles(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	roles, err := a.Service.AuditRoles(r.Context(), p)
	respond(w, r, http.StatusOK, mapSlice(roles, func(role domain.Role) auditRole { return auditRole{ID: role.ID, Name: role.Name} }), err)
}

// applicationManagerJSON is one row of users/applicationManagers, with the
// reference's keys (its native query's column names).
type applicationManagerJSON struct {
	ID                    int64   `json:"id"`
	Name                  string  `json:"name"`
	Email                 string  `json:"email"`
	LastActivity          *string `json:"lastActivity"`
	CreatedAt             *string `json:"createdAt"`
	SchacHomeOrganization string  `json:"schac_home_organization"`
	Roles                 string  `json:"roles"` // role names, ", "-separated
}

func (a *API) applicationManagers(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	ams, err := a.Service.ListApplicationManagers(r.Context(), p, r.URL.Query().Get("organizationGUID"))
	respond(w, r, http.StatusOK, mapSlice(ams, func(am service.ApplicationManager) applicationManagerJSON {
		return applicationManagerJSON{ID: am.User.ID, Name: am.User.Name, Email: am.User.Email,
			LastActivity: isoTime(am.User.LastActivity), CreatedAt: isoTime(am.User.CreatedAt),
			SchacHomeOrganization: am.User.SchacHomeOrganization, Roles: strings.Join(am.Roles, ", ")}
	}), err)
}

func (a *API) removeApplicationManager(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	_, err := a.Service.RemoveApplicationManager(r.Context(), p, id)
	respond(w, r, http.StatusOK, map[string]int{"status": http.StatusOK}, err)
}
