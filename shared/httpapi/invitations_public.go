package httpapi

import "github.com/edu-invite/invite/shared/domain"

// PublicInvitationJSON is the answer to anyone holding an invitation's
// link: what an acceptance page shows, and nothing about the organization's
// internals (no placeholder identifier, organization GUID, remote API user,
// role URN or identifier, CRM ids, counts or audit).
type PublicInvitationJSON struct {
	ID                    int64                      `json:"id"`
	IntendedAuthority     domain.Authority           `json:"intendedAuthority"`
	Language              domain.Language            `json:"language"`
	Status                string                     `json:"status"`
	Email                 string                     `json:"email"`
	Message               string                     `json:"message,omitempty"`
	EnforceEmailEquality  bool                       `json:"enforceEmailEquality"`
	FedIDOnly             bool                       `json:"fedIDOnly"`
	RequestedAuthnContext string                     `json:"requestedAuthnContext,omitempty"`
	GuestRoleIncluded     bool                       `json:"guestRoleIncluded"`
	ExpiryDate            *string                    `json:"expiryDate,omitempty"`
	RoleExpiryDate        *string                    `json:"roleExpiryDate,omitempty"`
	Roles                 []PublicInvitationRoleJSON `json:"roles"`
	Inviter               map[string]any             `json:"inviter"`
}

// PublicInvitationRoleJSON is one role of a public invitation.
type PublicInvitationRoleJSON struct {
	ID   int64          `json:"id"`
	Role PublicRoleJSON `json:"role"`
}

// PublicRoleJSON is what a guest learns of a role before accepting.
type PublicRoleJSON struct {
	ID                int64            `json:"id"`
	Name              string           `json:"name"`
	Description       string           `json:"description"`
	DefaultExpiryDays int              `json:"defaultExpiryDays,omitempty"`
	DefaultExpiryDate *string          `json:"defaultExpiryDate,omitempty"`
	ApplicationMaps   []map[string]any `json:"applicationMaps"`
}

func publicInvitationJSON(inv domain.Invitation, roles []domain.Role) PublicInvitationJSON {
	out := PublicInvitationJSON{
		ID: inv.ID, IntendedAuthority: inv.IntendedAuthority, Language: inv.Language, Status: string(inv.Status), Email: inv.Email,
		Message: inv.Message, EnforceEmailEquality: inv.EnforceEmailEquality, FedIDOnly: inv.FedIDOnly,
		RequestedAuthnContext: inv.RequestedAuthnContext, GuestRoleIncluded: inv.GuestRoleIncluded,
		ExpiryDate: isoTime(inv.ExpiryDate), RoleExpiryDate: isoTimePtr(inv.RoleExpiryDate),
		Roles: []PublicInvitationRoleJSON{}, Inviter: map[string]any{"name": inv.InviterName},
	}
	for _, r := range roles {
		pr := PublicRoleJSON{ID: r.ID, Name: r.Name, Description: r.Description, DefaultExpiryDays: r.DefaultExpiryDays,
			DefaultExpiryDate: isoTimePtr(r.DefaultExpiryDate), ApplicationMaps: []map[string]any{}}
		if r.InviterDisplayName != "" {
			out.Inviter["name"] = r.InviterDisplayName
		}
		for _, u := range r.ApplicationUsages {
			pr.ApplicationMaps = append(pr.ApplicationMaps, map[string]any{"name": u.Application.Name, "landingPage": u.LandingPage})
		}
		out.Roles = append(out.Roles, PublicInvitationRoleJSON{ID: r.ID, Role: pr})
	}
	return out
}
