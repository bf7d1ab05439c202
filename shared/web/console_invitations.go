package web

import (
	"strconv"
	"strings"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
	"github.com/edu-invite/invite/shared/service"
)

// invitationRow is one invitation on a role's or a person's page: its
// state in words (open until, expired on, accepted on) and, while it is
// not accepted, the resend and withdraw actions the person may take, and
// while it is open its link to copy for whom may manage it.
type invitationRow struct {
	ID        int64
	Email     string
	Authority string
	Roles     string
	State     string // open, expired, accepted
	StateText string
	MayManage bool
	Copy      *copyLink   // nil: no link to show
	Actions   []rowAction // send again and withdraw, when MayManage
}

// invitationList is the part of a page that shows invitations with the
// invitationstable template.
type invitationList struct {
	Invitations     []invitationRow
	InvitationRoles bool // a column with each invitation's roles
}

// invitations are the invitations as the person sees them; a resend or
// withdraw comes back to the page back names (returnTo), and withRoles adds
// each invitation's roles.
func (p *Pages) invitations(lang string, pr *auth.Principal, invs []service.InvitationWithRoles, now time.Time, back hiddenField, withRoles bool) invitationList {
	return invitationList{Invitations: p.invitationRows(lang, pr, invs, now, back), InvitationRoles: withRoles}
}

func (p *Pages) invitationRows(lang string, pr *auth.Principal, invs []service.InvitationWithRoles, now time.Time, back hiddenField) []invitationRow {
	rows := make([]invitationRow, 0, len(invs))
	for _, iw := range invs {
		inv := iw.Invitation
		names := make([]string, 0, len(iw.Roles))
		for _, r := range iw.Roles {
			names = append(names, r.Name)
		}
		row := invitationRow{ID: inv.ID, Email: inv.Email, Authority: i18n.T(lang, "console.authority."+string(inv.IntendedAuthority)),
			Roles: strings.Join(names, ", ")}
		switch {
		case inv.Status == domain.InvitationAccepted:
			row.State = "accepted"
			row.StateText = i18n.T(lang, "console.inv.accepted")
			if inv.AcceptedAt != nil {
				row.StateText = i18n.T(lang, "console.inv.acceptedOn", i18n.Date(lang, *inv.AcceptedAt))
			}
		case inv.Status == domain.InvitationExpired || inv.Expired(now):
			row.State, row.StateText = "expired", i18n.T(lang, "console.inv.expiredOn", i18n.Date(lang, inv.ExpiryDate))
			row.MayManage = auth.CanManageInvitation(pr, inv, iw.Roles)
		default:
			row.State, row.StateText = "open", i18n.T(lang, "console.inv.openUntil", i18n.Date(lang, inv.ExpiryDate))
			row.MayManage = auth.CanManageInvitation(pr, inv, iw.Roles)
			if link := p.cfg.Service.OpenInvitationLink(pr, iw, now); link != "" {
				c := newCopyLink(lang, "link-inv-"+strconv.FormatInt(inv.ID, 10), inv.Email, link)
				row.Copy = &c
			}
		}
		if row.MayManage {
			row.Actions = invitationActions(lang, inv.ID, inv.Email, back)
		}
		rows = append(rows, row)
	}
	return rows
}
