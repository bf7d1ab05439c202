package httpapi

import (
	"net/http"
)

type endDateRequest struct {
	UserRoleID int64     `json:"userRoleId"`
	EndDate    *FlexTime `json:"endDate"`
}

func (a *API) updateEndDate(w http.ResponseWriter, r *http.Request) {
	p, req, ok := callerAndBody[endDateRequest](w, r)
	if !ok {
		return
	}
	_, err := a.Service.UpdateEndDate(r.Context(), p, req.UserRoleID, req.EndDate.Ptr())
	respond(w, r, http.StatusOK, map[string]int{"status": http.StatusOK}, err)
}
