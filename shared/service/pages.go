package service

import (
	"context"
	"regexp"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// What the pages need beyond the API's use cases. Each method keeps the
// rules in the service, so that a page only shows what these return.

// LinkState is where the invitation behind a link stands.
type LinkState string

const (
	LinkOpen     LinkState = "open"
	LinkExpired  LinkState = "expired"
	LinkAccepted LinkState = "accepted"
)

// InvitationLink is what the holder of an invitation link may see: the
// invitation, its roles and who invited, whatever its state, so that an
// expired invitation can name the inviter to ask for a new one.
type InvitationLink struct {
	Invitation domain.Invitation
	Roles      []domain.Role
	State      LinkState
	// Inviter is how the invitation names the inviter (InviterName).
	Inviter string
	// RequiredACR is the authentication context the roles ask for, if any.
	RequiredACR string
}

// InvitationByLink returns the invitation of a link in any state; unknown
// links are a not-found error. Unlike OpenInvitation it is not an error
// that the invitation is expired or accepted: the page explains those.
func (s *Service) InvitationByLink(ctx context.Context, secret string) (InvitationLink, error) {
	if strings.TrimSpace(secret) == "" {
		return InvitationLink{}, domain.NotFoundf("no invitation for this link")
	}
	inv, err := s.Store.GetInvitationByHashDigest(ctx, HashDigest(secret))
	if err != nil {
		if domain.IsNotFound(err) {
			return InvitationLink{}, domain.NotFoundf("no invitation for this link")
		}
		return InvitationLink{}, err
	}
	roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
	if err != nil {
		return InvitationLink{}, err
	}
	roles = s.withRegistryApplications(roles)
	link := InvitationLink{Invitation: inv, Roles: roles, State: LinkOpen, Inviter: s.InviterName(ctx, inv, roles)}
	switch err := checkOpen(inv, s.now()); domain.KindOf(err) {
	case domain.KindConflict:
		link.State = LinkAccepted
	case domain.KindGone:
		link.State = LinkExpired
	}
	link.RequiredACR = requiredContext(inv, roles)
	return link, nil
}

// requiredContext is the authentication context accepting inv needs: the
// invitation's, else that of the first of its roles that asks for one.
func requiredContext(inv domain.Invitation, roles []domain.Role) string {
	if inv.RequestedAuthnContext != "" {
		return inv.RequestedAuthnContext
	}
	for _, r := range roles {
		if r.RequestedAuthnContext != "" {
			return r.RequestedAuthnContext
		}
	}
	return ""
}

// InviterName is how pages and e-mails name who invited: a role's
// inviterDisplayName, else the inviting person's name as the IdP gave it,
// else the description of the API token (or the name of the machine
// caller) that invited. Never an eppn or an address; "" when none of these
// names anyone, and the text then names the organization instead
// (InvitingOrganization).
func (s *Service) InviterName(ctx context.Context, inv domain.Invitation, roles []domain.Role) string {
	for _, r := range roles {
		if r.InviterDisplayName != "" {
			return r.InviterDisplayName
		}
	}
	if inv.InviterUserID == 0 {
		return programName(inv.InviterName)
	}
	u, err := s.Store.GetUser(ctx, inv.InviterUserID)
	if err != nil {
		return ""
	}
	return firstNonEmpty(strings.TrimSpace(u.Name), strings.TrimSpace(u.GivenName+" "+u.FamilyName))
}

// tokenSuffix is how an API token's actions are attributed after its
// description (auth.TokenName).
var tokenSuffix = regexp.MustCompile(` \(API token [0-9]+\)$`)

// programName is the name a program invited under, as a guest may read it:
// a token's description without its id, a machine caller's display name;
// "" for the bootstrap token, which names nobody.
func programName(recorded string) string {
	name := strings.TrimSpace(tokenSuffix.ReplaceAllString(recorded, ""))
	if name == auth.BootstrapTokenName || strings.Contains(name, "@") {
		return ""
	}
	return name
}

// InvitingOrganization is the name, in lang, of the organization an
// invitation comes from (its own, else its first role's); "" when the
// registry names neither.
func (s *Service) InvitingOrganization(ctx context.Context, inv domain.Invitation, roles []domain.Role, lang string) string {
	return invitingOrganization(s.OrganizationChoices(ctx), inv, roles, lang)
}

// invitingOrganization is InvitingOrganization among orgs.
func invitingOrganization(orgs []domain.Organization, inv domain.Invitation, roles []domain.Role, lang string) string {
	guid := inv.OrganizationGUID
	for _, r := range roles {
		if guid == "" {
			guid = r.OrganizationGUID
		}
	}
	// Only a name: an organization the registry does not name is left
	// out (the text then says "you have been invited"), never its GUID.
	o, known := domain.OrganizationOf(orgs, guid)
	if guid == "" || !known {
		return ""
	}
	if name := o.DisplayName(lang); name != guid {
		return name
	}
	return ""
}

// AcceptBlock names why a signed-in person cannot accept an open invitation
// as they signed in; "" when nothing stands in the way.
type AcceptBlock string

const (
	BlockNone          AcceptBlock = ""
	BlockEmailMismatch AcceptBlock = "email-mismatch"
	BlockFederatedOnly AcceptBlock = "federated-only"
	BlockStepUp        AcceptBlock = "step-up"
)

// AcceptanceBlock applies the invitation's conditions to the person: the
// same e-mail and federated-account rules Accept enforces (acceptRefusal),
// and the authentication context the roles ask for, which a browser
// sign-in asserts in its acr claim.
func (s *Service) AcceptanceBlock(link InvitationLink, person auth.Person) AcceptBlock {
	if b := acceptRefusal(link.Invitation, person); b != BlockNone {
		return b
	}
	if !s.Contexts.Satisfies(person.ACR, link.RequiredACR) {
		return BlockStepUp
	}
	return BlockNone
}

// acceptRefusal is the person-dependent half of Accept's checks.
func acceptRefusal(inv domain.Invitation, person auth.Person) AcceptBlock {
	switch {
	case inv.EnforceEmailEquality && !strings.EqualFold(strings.TrimSpace(person.Email), inv.Email):
		return BlockEmailMismatch
	case inv.FedIDOnly && person.FedID == "":
		return BlockFederatedOnly
	}
	return BlockNone
}

// Access is one membership of the signed-in person as "my access" shows it.
type Access struct {
	Role         domain.Role
	UserRole     domain.UserRole
	Applications []AccessApplication
}

// AccessApplication is an application a membership gives access to, with
// where the person stands at its SCIM targets: failed when one failed,
// else pending while one is pending, else provisioned.
type AccessApplication struct {
	Name string
	// Application is the registry's entry (names in both languages, logo,
	// organization), or what the role stored when the registry lacks it.
	Application domain.Application
	LandingPage string
	Status      domain.ProvisioningStatus
	LastError   string
}

// MyAccess lists the signed-in person's memberships with their
// applications and provisioning state; an unknown person has none.
func (s *Service) MyAccess(ctx context.Context, p *auth.Principal) ([]Access, error) {
	me, err := s.Me(ctx, p)
	if err != nil || !me.Known {
		return nil, err
	}
	statuses, err := s.UserProvisioning(ctx, p, me.User.ID)
	if err != nil {
		return nil, err
	}
	bySP := map[string]ProvisioningStatus{}
	for _, st := range statuses {
		bySP[st.SP] = st
	}
	out := make([]Access, 0, len(me.UserRoles))
	for _, ur := range me.UserRoles {
		role, ok := me.Roles[ur.RoleID]
		if !ok {
			continue
		}
		a := Access{Role: role, UserRole: ur}
		for _, usage := range role.ApplicationUsages {
			app := AccessApplication{Name: firstNonEmpty(usage.Application.Name, usage.Application.ManageID),
				LandingPage: firstNonEmpty(usage.LandingPage, usage.Application.LandingPage), Status: domain.StatusProvisioned}
			var targets []string
			app.Application = s.registryApplication(usage.Application)
			app.Name = firstNonEmpty(app.Application.Name, app.Name)
			if reg, ok := s.Registry.Application(usage.Application.ManageID); ok {
				targets = reg.ProvisioningIDs
			}
			for _, sp := range targets {
				st, ok := bySP[sp]
				switch {
				case !ok || st.Status == domain.StatusPending:
					if app.Status != domain.StatusFailed {
						app.Status = domain.StatusPending
					}
				case st.Status == domain.StatusFailed:
					app.Status, app.LastError = domain.StatusFailed, st.LastError
				}
			}
			a.Applications = append(a.Applications, app)
		}
		out = append(out, a)
	}
	return out, nil
}

// registryApplication is the registry's entry for an application a role
// uses, for what pages show of it (names, logo, organization); a role
// stores little more than the manage id. Unknown entries stay as stored.
func (s *Service) registryApplication(stored domain.Application) domain.Application {
	if s.Registry == nil {
		return stored
	}
	reg, ok := s.Registry.Application(stored.ManageID)
	if !ok {
		return stored
	}
	reg.Name = firstNonEmpty(reg.Name, stored.Name)
	reg.LandingPage = firstNonEmpty(reg.LandingPage, stored.LandingPage)
	return reg
}

// withRegistryApplications returns copies of roles whose usages carry the
// registry's entries; the roles passed in are not changed.
func (s *Service) withRegistryApplications(roles []domain.Role) []domain.Role {
	out := make([]domain.Role, len(roles))
	for i, r := range roles {
		usages := make([]domain.ApplicationUsage, len(r.ApplicationUsages))
		for j, u := range r.ApplicationUsages {
			u.Application = s.registryApplication(u.Application)
			usages[j] = u
		}
		r.ApplicationUsages = usages
		out[i] = r
	}
	return out
}
