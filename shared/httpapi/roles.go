package httpapi

import (
	"errors"
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// roleRequest is the body of a role creation.
type roleRequest struct {
	Name                    string                 `json:"name"`
	Description             string                 `json:"description"`
	DefaultExpiryDays       int                    `json:"defaultExpiryDays"`
	DefaultExpiryDate       *FlexTime              `json:"defaultExpiryDate"`
	EnforceEmailEquality    bool                   `json:"enforceEmailEquality"`
	FedIDOnly               bool                   `json:"fedIDOnly"`
	OverrideSettingsAllowed bool                   `json:"overrideSettingsAllowed"`
	OrganizationGUID        string                 `json:"organizationGUID"`
	InviterDisplayName      string                 `json:"inviterDisplayName"`
	RequestedAuthnContext   string                 `json:"requestedAuthnContext"`
	ApplicationUsages       []ApplicationUsageJSON `json:"applicationUsages"`
}

// input is the service input of a create and an update,
// which read the same fields.
func (req roleRequest) input() service.RoleInput {
	in := service.RoleInput{Name: req.Name, Description: req.Description, DefaultExpiryDays: req.DefaultExpiryDays,
		DefaultExpiryDate: req.DefaultExpiryDate.Ptr(), EnforceEmailEquality: req.EnforceEmailEquality, FedIDOnly: req.FedIDOnly,
		OverrideSettingsAllowed: req.OverrideSettingsAllowed, OrganizationGUID: req.OrganizationGUID,
		InviterDisplayName: req.InviterDisplayName, RequestedAuthnContext: req.RequestedAuthnContext}
	for _, u := range req.ApplicationUsages {
		in.ApplicationUsages = append(in.ApplicationUsages, service.ApplicationUsageInput{
			ManageID: u.Application.ManageID, ManageType: u.Application.ManageType, LandingPage: u.LandingPage})
	}
	return in
}

func (a *API) createRole(w http.ResponseWriter, r *http.Request) {
	p, req, ok := callerAndBody[roleRequest](w, r)
	if !ok {
		return
	}
	role, err := a.Service.CreateRole(r.Context(), p, req.input())
	respond(w, r, http.StatusCreated, roleJSON(role), err)
}

func (a *API) getRole(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	role, err := a.Service.GetRole(r.Context(), p, id)
	respond(w, r, http.StatusOK, roleJSON(role), err)
}

// deleteRole answers 204. A caller without access to a role of its own
// organization gets 400, as the spec shows (spec 7); a role of another
// organization answers as a missing one (404), and so does role id 0.
func (a *API) deleteRole(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("id") == "0" {
		if _, ok := requireCaller(w, r); ok {
			writeError(w, r, domain.NotFoundf("role 0 does not exist"))
		}
		return
	}
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	if err := a.Service.DeleteRole(r.Context(), p, id); err != nil {
		var de *domain.Error
		if errors.As(err, &de) && de.Kind == domain.KindForbidden {
			// The domain error's own message: a wrapper's text is not for the caller.
			writeErrorStatus(w, r, http.StatusBadRequest, "UserRestrictionException", de.Message)
			return
		}
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
