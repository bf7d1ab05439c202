package service

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// InvitationWithRoles is an invitation with the roles it grants (those
// still existing).
type InvitationWithRoles struct {
	Invitation domain.Invitation
	Roles      []domain.Role
}

// resendExtension is how long a resent invitation that had expired is
// valid again (the reference's 14 days).
const resendExtension = 14 * 24 * time.Hour

// mayReadInvitationsOf reports whether a caller may read the invitations
// of a role: whoever may manage it, and who holds at least INVITER on it
// (the reference's role access with INVITER).
func mayReadInvitationsOf(p *auth.Principal, r domain.Role) bool {
	return p.CanManageRole(r) || p.Memberships[r.ID].AtLeast(domain.Inviter)
}

// authorizeInvitationsRead answers nil when p may read the invitations of
// the role roleID, else why not: unauthenticated, the role's absence, or
// the refusal (as absence where the role is another organization's).
func (s *Service) authorizeInvitationsRead(ctx context.Context, p *auth.Principal, roleID int64) error {
	if p == nil {
		return domain.Unauthenticatedf("authentication required")
	}
	role, err := s.Store.GetRole(ctx, roleID)
	if err != nil {
		return err
	}
	if !mayReadInvitationsOf(p, role) {
		return s.refuseRole(ctx, p, role, domain.Forbiddenf("no access to the invitations of role %d", roleID))
	}
	return nil
}

// RoleInvitations is I5: the open invitations to a role.
func (s *Service) RoleInvitations(ctx context.Context, p *auth.Principal, roleID int64) ([]InvitationWithRoles, error) {
	if err := s.authorizeInvitationsRead(ctx, p, roleID); err != nil {
		return nil, err
	}
	invs, err := s.Store.ListOpenInvitationsOfRole(ctx, roleID)
	if err != nil {
		return nil, err
	}
	return s.withRoles(ctx, invs)
}

// InvitationSorts are the sort keys of I4 besides the default "name"
// (which, as invitations have no name, sorts by e-mail address).
// (and the names the reference's client sends: intended_authority,
// created_at, expiry_date).
var InvitationSorts = []string{"email", "id", "createdAt", "expiryDate", "intendedAuthority", "intended_authority", "created_at", "expiry_date"}

// SearchInvitations is I4: a page of the open invitations of a role,
// whose e-mail address or inviter name has words starting with every word
// of the query. Without a role, super users (only, as in the reference)
// search all open invitations.
func (s *Service) SearchInvitations(ctx context.Context, p *auth.Principal, roleID int64, req domain.PageRequest) (domain.Page[InvitationWithRoles], error) {
	if p == nil {
		return domain.Page[InvitationWithRoles]{}, domain.Unauthenticatedf("authentication required")
	}
	if roleID == 0 {
		if !p.SuperUser {
			return domain.Page[InvitationWithRoles]{}, domain.Forbiddenf("only super users search invitations without a roleId")
		}
		return s.searchAllOpenInvitations(ctx, req)
	}
	if err := s.authorizeInvitationsRead(ctx, p, roleID); err != nil {
		return domain.Page[InvitationWithRoles]{}, err
	}
	// The open invitations of one role are bounded by how many its
	// inviters send before they are accepted or expire: read whole.
	invs, err := s.Store.ListOpenInvitationsOfRole(ctx, roleID)
	if err != nil {
		return domain.Page[InvitationWithRoles]{}, err
	}
	if terms := searchWords(req.Query); len(terms) > 0 {
		invs = slices.DeleteFunc(invs, func(inv domain.Invitation) bool {
			return !matchesWordPrefixes(terms, inv.Email, inv.InviterName)
		})
	}
	sortInvitations(invs, req.Sort, req.Descending)
	from := min(req.Offset(), len(invs))
	page, err := s.withRoles(ctx, invs[from:min(from+req.Size, len(invs))])
	if err != nil {
		return domain.Page[InvitationWithRoles]{}, err
	}
	return domain.Page[InvitationWithRoles]{Items: page, Total: int64(len(invs))}, nil
}

// searchAllOpenInvitations pages through every open invitation. Without a
// query a page is read straight from the index of open invitations in
// creation order (a COUNT query for the total, keys-only reads to skip
// earlier pages); with a query, or another sort key, all open invitations
// are read and filtered in memory: their number is bounded by what
// inviters send before acceptance or expiry, not by the number of users.
func (s *Service) searchAllOpenInvitations(ctx context.Context, req domain.PageRequest) (domain.Page[InvitationWithRoles], error) {
	var invs []domain.Invitation
	var total int64
	var err error
	if byCreation := req.Sort == "createdAt"; len(searchWords(req.Query)) == 0 && byCreation {
		invs, total, err = s.Store.ListOpenInvitations(ctx, req.Offset(), req.Size, req.Descending)
		if err != nil {
			return domain.Page[InvitationWithRoles]{}, err
		}
	} else {
		if _, total, err = s.Store.ListOpenInvitations(ctx, 0, 0, false); err != nil {
			return domain.Page[InvitationWithRoles]{}, err
		}
		all, _, err := s.Store.ListOpenInvitations(ctx, 0, int(total), false)
		if err != nil {
			return domain.Page[InvitationWithRoles]{}, err
		}
		if terms := searchWords(req.Query); len(terms) > 0 {
			all = slices.DeleteFunc(all, func(inv domain.Invitation) bool {
				return !matchesWordPrefixes(terms, inv.Email, inv.InviterName)
			})
		}
		sortInvitations(all, req.Sort, req.Descending)
		total = int64(len(all))
		from := min(req.Offset(), len(all))
		invs = all[from:min(from+req.Size, len(all))]
	}
	page, err := s.withRoles(ctx, invs)
	if err != nil {
		return domain.Page[InvitationWithRoles]{}, err
	}
	return domain.Page[InvitationWithRoles]{Items: page, Total: total}, nil
}

// AllOpenInvitations is the reference's "all": every open invitation, by
// creation time, for super users only.
func (s *Service) AllOpenInvitations(ctx context.Context, p *auth.Principal) ([]InvitationWithRoles, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	if !p.SuperUser {
		return nil, domain.Forbiddenf("only super users list all invitations")
	}
	_, total, err := s.Store.ListOpenInvitations(ctx, 0, 0, false)
	if err != nil {
		return nil, err
	}
	invs, _, err := s.Store.ListOpenInvitations(ctx, 0, int(total), false)
	if err != nil {
		return nil, err
	}
	return s.withRoles(ctx, invs)
}

func sortInvitations(invs []domain.Invitation, by string, descending bool) {
	slices.SortStableFunc(invs, func(a, b domain.Invitation) int {
		var c int
		switch by {
		case "id":
			c = 0
		case "createdAt", "created_at":
			c = a.CreatedAt.Compare(b.CreatedAt)
		case "expiryDate", "expiry_date":
			c = a.ExpiryDate.Compare(b.ExpiryDate)
		case "intendedAuthority", "intended_authority":
			c = strings.Compare(string(a.IntendedAuthority), string(b.IntendedAuthority))
		default:
			c = strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email))
		}
		if c == 0 {
			c = int(a.ID - b.ID)
		}
		if descending {
			return -c
		}
		return c
	})
}

// MyInvitations is I7: the open invitations the caller sent. People who
// may list roles (at least INVITER somewhere, institution admins, super
// users) get those they sent; an API token (organization or super user, as
// the reference's token user is an institution admin) those it sent.
func (s *Service) MyInvitations(ctx context.Context, p *auth.Principal) ([]InvitationWithRoles, error) {
	if p == nil {
		return nil, domain.Unauthenticatedf("authentication required")
	}
	var invs []domain.Invitation
	var err error
	switch {
	case p.Kind == auth.KindAPIToken && auth.RoleListScopeOf(p) != auth.RolesNone:
		// The reference's token user is an institution admin (or super
		// user); its invitations are those the token sent.
		invs, err = s.Store.ListInvitationsOfRemoteAPIUser(ctx, p.Name)
	case p.User == nil || auth.RoleListScopeOf(p) == auth.RolesNone:
		return nil, domain.Forbiddenf("only people who invite have invitations of their own")
	default:
		invs, err = s.Store.ListInvitationsOfInviter(ctx, p.User.ID)
	}
	if err != nil {
		return nil, err
	}
	invs = slices.DeleteFunc(invs, func(inv domain.Invitation) bool { return inv.Status != domain.InvitationOpen })
	return s.withRoles(ctx, invs)
}

// withRoles reads the roles of the invitations in one BatchGetItem.
func (s *Service) withRoles(ctx context.Context, invs []domain.Invitation) ([]InvitationWithRoles, error) {
	var ids []int64
	for _, inv := range invs {
		ids = append(ids, inv.RoleIDs...)
	}
	byID := map[int64]domain.Role{}
	if len(ids) > 0 {
		roles, err := s.Store.GetRoles(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, r := range roles {
			byID[r.ID] = r
		}
	}
	out := make([]InvitationWithRoles, 0, len(invs))
	for _, inv := range invs {
		iw := InvitationWithRoles{Invitation: inv}
		for _, id := range inv.RoleIDs {
			if r, ok := byID[id]; ok {
				iw.Roles = append(iw.Roles, r)
			}
		}
		out = append(out, iw)
	}
	return out, nil
}

// manageableInvitation reads an OPEN invitation that the caller may resend
// or delete.
func (s *Service) manageableInvitation(ctx context.Context, p *auth.Principal, id int64) (domain.Invitation, []domain.Role, error) {
	if p == nil {
		return domain.Invitation{}, nil, domain.Unauthenticatedf("authentication required")
	}
	inv, err := s.Store.GetInvitation(ctx, id)
	if err != nil {
		return domain.Invitation{}, nil, err
	}
	roles, err := s.Store.GetRoles(ctx, inv.RoleIDs)
	if err != nil {
		return domain.Invitation{}, nil, err
	}
	if !auth.CanManageInvitation(p, inv, roles) {
		return domain.Invitation{}, nil, s.refuseInvitation(ctx, p, inv, roles)
	}
	if inv.Status != domain.InvitationOpen {
		return domain.Invitation{}, nil, domain.Conflictf("invitation %d is %s, not OPEN", id, inv.Status)
	}
	return inv, roles, nil
}

// ResendInvitation e-mails an open invitation again, with the same link
// (an invitation made before links were kept gets a new one, and its old
// link stops working). An invitation that has expired, and is kept for
// domain.ExpiredRetention, is valid again for 14 days. The mail goes
// through the mail outbox; the link is also returned, for callers who send
// it themselves.
func (s *Service) ResendInvitation(ctx context.Context, p *auth.Principal, id int64) (RecipientURL, error) {
	inv, roles, err := s.manageableInvitation(ctx, p, id)
	if err != nil {
		return RecipientURL{}, err
	}
	now := s.now()
	secret := inv.LinkSecret
	if secret == "" || HashDigest(secret) != inv.HashDigest {
		secret, inv.HashDigest = newInvitationSecret()
		inv.LinkSecret = secret
	}
	if inv.Expired(now) {
		inv.ExpiryDate = now.Add(resendExtension)
	}
	if err := s.Store.ReissueInvitation(ctx, inv); err != nil {
		return RecipientURL{}, err
	}
	s.recordInvitations(ctx, p, domain.AuditInvitationResent, []domain.Invitation{inv}, roles)
	link := s.invitationURL(secret)
	if m, ok := s.queueInvitationMail(ctx, inv, roles, link); ok {
		s.flushMails(ctx, []domain.MailDelivery{m})
	}
	return RecipientURL{Recipient: inv.Email, InvitationURL: link}, nil
}

// DeleteInvitation withdraws an open invitation: its link stops working.
func (s *Service) DeleteInvitation(ctx context.Context, p *auth.Principal, id int64) error {
	inv, roles, err := s.manageableInvitation(ctx, p, id)
	if err != nil {
		return err
	}
	if err := s.Store.DeleteInvitations(ctx, []domain.Invitation{inv}); err != nil {
		return err
	}
	s.recordInvitations(ctx, p, domain.AuditInvitationDeleted, []domain.Invitation{inv}, roles)
	return nil
}
