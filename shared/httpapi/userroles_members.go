package httpapi

import (
	"net/http"
	"strconv"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// membersOfRole answers every membership of a role with its user: as one
// array (up to service.MaxMembersListed members), or, when the caller asks
// for a page (pageNumber, pageSize or pageToken), one page of them by name
// in the page envelope with a Link to the next (walkPageRequest), so that a
// role of any size is listed page by page.
func (a *API) membersOfRole(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	if q := r.URL.Query(); q.Has("pageNumber") || q.Has("pageSize") || q.Has(pageTokenParam) {
		req, err := walkPageRequest(r, service.MemberSortName)
		if err != nil {
			writeError(w, r, err)
			return
		}
		page, err := a.Service.PageMembersOfRole(r.Context(), p, roleID, req)
		if err == nil {
			setNextLink(w, r, req, page.Next)
		}
		respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, memberJSON), req, page.Total), err)
		return
	}
	_, members, err := a.Service.MembersOfRole(r.Context(), p, roleID)
	respond(w, r, http.StatusOK, mapSlice(members, memberJSON), err)
}

// searchMembersOfRole answers a page of a role's guests or non-guests; by
// name without a query, with a Link to the next (walkPageRequest).
func (a *API) searchMembersOfRole(w http.ResponseWriter, r *http.Request) {
	p, roleID, ok := callerAndPathID(w, r, "roleId")
	if !ok {
		return
	}
	guests, err := strconv.ParseBool(r.PathValue("guests"))
	if err != nil {
		writeError(w, r, domain.Invalidf("guests must be true or false"))
		return
	}
	req, err := walkPageRequest(r, service.MemberSortName, service.MemberSorts...)
	if err != nil {
		writeError(w, r, err)
		return
	}
	page, err := a.Service.SearchMembersOfRole(r.Context(), p, roleID, guests, req)
	if err == nil {
		setNextLink(w, r, req, page.Next)
	}
	respond(w, r, http.StatusOK, newPage(mapSlice(page.Items, memberSearchItemJSON), req, page.Total), err)
}

// userRoleProvisioningRequest is the body of a user-role provisioning.
type userRoleProvisioningRequest struct {
	RoleIdentifiers        []int64 `json:"roleIdentifiers"`
	IntendedAuthority      string  `json:"intendedAuthority"`
	Sub                    string  `json:"sub"`
	Email                  string  `json:"email"`
	EduPersonPrincipalName string  `json:"eduPersonPrincipalName"`
	GivenName              string  `json:"givenName"`
	FamilyName             string  `json:"familyName"`
	Name                   string  `json:"name"`
	SchacHomeOrganization  string  `json:"schacHomeOrganization"`
	GuestRoleIncluded      bool    `json:"guestRoleIncluded"`
}

// provisionUserRoles answers 201 with the user and all their memberships.
func (a *API) provisionUserRoles(w http.ResponseWriter, r *http.Request) {
	p, req, ok := callerAndBody[userRoleProvisioningRequest](w, r)
	if !ok {
		return
	}
	res, err := a.Service.ProvisionUserRoles(r.Context(), p, service.UserRoleProvisioningInput{
		RoleIDs: req.RoleIdentifiers, IntendedAuthority: req.IntendedAuthority, Sub: req.Sub, Email: req.Email,
		EduPersonPrincipalName: req.EduPersonPrincipalName, GivenName: req.GivenName, FamilyName: req.FamilyName,
		Name: req.Name, SchacHomeOrganization: req.SchacHomeOrganization, GuestRoleIncluded: req.GuestRoleIncluded,
	})
	respond(w, r, http.StatusCreated, provisionedUserJSON(res), err)
}

// removeUserRole takes a membership, or one part of it, away: 204.
func (a *API) removeUserRole(w http.ResponseWriter, r *http.Request) {
	p, id, ok := callerAndID(w, r)
	if !ok {
		return
	}
	guestPart, err := strconv.ParseBool(r.PathValue("isGuest"))
	if err != nil {
		writeError(w, r, domain.Invalidf("isGuest must be true or false"))
		return
	}
	_, err = a.Service.RemoveUserRole(r.Context(), p, id, guestPart)
	respondNoContent(w, r, err)
}
