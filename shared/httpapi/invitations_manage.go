package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// searchInvitations answers a page of a role's open invitations.
func (a *API) searchInvitations(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	var roleID int64
	if v := strings.TrimSpace(r.URL.Query().Get("roleId")); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			writeError(w, r, domain.Invalidf("roleId must be a positive integer"))
			return
		}
		roleID = n
	}
	req, err := pageRequest(r, "name", service.InvitationSorts...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := a.Service.SearchInvitations(r.Context(), p, roleID, req)
	respond(w, r, http.StatusOK, newPage(invitationsJSON(page.Items), req, page.Total), err)
}

// allOpenInvitations is the reference's GET all: every open invitation, for
// super users.
func (a *API) allOpenInvitations(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	invs, err := a.Service.AllOpenInvitations(r.Context(), p)
	respond(w, r, http.StatusOK, invitationsJSON(invs), err)
}

// roleInvitations answers the open invitations of a role, as an array.
func (a *API) roleInvitations(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	invs, err := a.Service.RoleInvitations(r.Context(), p, roleID)
	respond(w, r, http.StatusOK, invitationsJSON(invs), err)
}

// myInvitations answers the open invitations the caller sent.
func (a *API) myInvitations(w http.ResponseWriter, r *http.Request) {
	p, ok := requireCaller(w, r)
	if !ok {
		return
	}
	invs, err := a.Service.MyInvitations(r.Context(), p)
	respond(w, r, http.StatusOK, invitationsJSON(invs), err)
}

// resendInvitation answers 201 with {"status": 201} as the reference does,
// plus the new link (the old one no longer works).
func (a *API) resendInvitation(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	u, err := a.Service.ResendInvitation(r.Context(), p, id)
	respond(w, r, http.StatusCreated, map[string]any{"status": http.StatusCreated,
		"recipientInvitationURLs": []recipientURL{recipientURLOf(u)}}, err)
}

func (a *API) deleteInvitation(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	respondNoContent(w, r, a.Service.DeleteInvitation(r.Context(), p, id))
}

func invitationsJSON(invs []service.InvitationWithRoles) []InvitationJSON {
	return mapSlice(invs, func(iw service.InvitationWithRoles) InvitationJSON { return invitationJSON(iw.Invitation, iw.Roles) })
}
