package httpapi

import (
	"net/http"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// invitationRequest is an invitation request. The internal variant names the list
// of recipients with internal ids `invitations`.
type invitationRequest struct {
	IntendedAuthority     string                 `json:"intendedAuthority"`
	Message               string                 `json:"message"`
	Language              string                 `json:"language"`
	EnforceEmailEquality  *bool                  `json:"enforceEmailEquality"`
	FedIDOnly             *bool                  `json:"fedIDOnly"`
	RequestedAuthnContext string                 `json:"requestedAuthnContext"`
	GuestRoleIncluded     bool                   `json:"guestRoleIncluded"`
	SuppressSendingEmails bool                   `json:"suppressSendingEmails"`
	Invites               []string               `json:"invites"`
	WithPlaceholders      []placeholderRecipient `json:"invitesWithInternalPlaceholderIdentifiers"`
	Invitations           []placeholderRecipient `json:"invitations"`
	RoleIdentifiers       []int64                `json:"roleIdentifiers"`
	OrganizationGUID      string                 `json:"organizationGUID"`
	RoleExpiryDate        *FlexTime              `json:"roleExpiryDate"`
	ExpiryDate            *FlexTime              `json:"expiryDate"`
}

type placeholderRecipient struct {
	Email                         string `json:"email"`
	InternalPlaceholderIdentifier string `json:"internalPlaceholderIdentifier"`
}

type recipientURL struct {
	Recipient     string `json:"recipient"`
	InvitationURL string `json:"invitationURL"`
}

func recipientURLOf(u service.RecipientURL) recipientURL {
	return recipientURL{Recipient: u.Recipient, InvitationURL: u.InvitationURL}
}

func (a *API) invite(internal bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, req, ok := callerAndBody[invitationRequest](w, r)
		if !ok {
			return
		}
		listed, other := req.WithPlaceholders, req.Invitations
		name, otherName := "invitesWithInternalPlaceholderIdentifiers", "invitations"
		if internal {
			listed, other, name, otherName = other, listed, otherName, name
		}
		if len(other) > 0 {
			writeError(w, r, domain.Invalidf("unknown field %q: this operation takes %q", otherName, name))
			return
		}
		in := service.InvitationInput{IntendedAuthority: req.IntendedAuthority, Message: req.Message, Language: req.Language,
			EnforceEmailEquality: req.EnforceEmailEquality, FedIDOnly: req.FedIDOnly, RequestedAuthnContext: req.RequestedAuthnContext,
			GuestRoleIncluded: req.GuestRoleIncluded, SuppressSendingEmails: req.SuppressSendingEmails, Invites: req.Invites,
			RoleIDs: req.RoleIdentifiers, OrganizationGUID: req.OrganizationGUID, RoleExpiryDate: req.RoleExpiryDate.Ptr(),
			ExpiryDate: req.ExpiryDate.Ptr()}
		for _, l := range listed {
			in.WithPlaceholders = append(in.WithPlaceholders, service.PlaceholderRecipient{Email: l.Email, InternalPlaceholderIdentifier: l.InternalPlaceholderIdentifier})
		}
		res, err := a.Service.Invite(r.Context(), p, in)
		respond(w, r, http.StatusCreated,
			map[string]any{"status": res.Status, "recipientInvitationURLs": mapSlice(res.URLs, recipientURLOf),
				"invitationIdentifiers": res.IDs}, err)
	}
}

// openInvitation lets anyone holding the link read the invitation.
func (a *API) openInvitation(w http.ResponseWriter, r *http.Request) {
	inv, roles, err := a.Service.OpenInvitation(r.Context(), r.URL.Query().Get("hash"))
	respond(w, r, http.StatusOK, publicInvitationJSON(inv, roles), err)
}

type acceptRequest struct {
	Hash         string `json:"hash"`
	InvitationID int64  `json:"invitationId"`
}

func (a *API) accept(w http.ResponseWriter, r *http.Request) {
	p, req, ok := callerAndBody[acceptRequest](w, r)
	if !ok {
		return
	}
	if req.InvitationID == 0 {
		// The reference answers an absent id as a wrong one: the hash and
		// the id together name the invitation.
		writeError(w, r, domain.NotFoundf("no invitation for this link"))
		return
	}
	res, err := a.Service.Accept(r.Context(), p, req.Hash, req.InvitationID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	urs := make([]UserRoleJSON, 0, len(res.UserRoles))
	for _, ur := range res.UserRoles {
		role := res.Roles[ur.RoleID]
		urs = append(urs, userRoleJSON(ur, &role))
	}
	writeJSON(w, http.StatusCreated, map[string]any{"status": "ok", "userId": res.User.ID, "userRoles": urs})
}
