package service

import (
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// OpenInvitationLink is the link of an open invitation for a person who may
// manage it (resend or withdraw it, and so could get the link anyway by
// resending), so that the console can offer to copy it. It is empty when
// the invitation is accepted or expired (a resend renews an expired one and
// shows its link), when the person may not manage it, and when the kept
// secret is missing or no longer matches the link's digest (an invitation
// made before secrets were kept: a resend issues a new link). The link is a
// bearer secret: it goes into the page only, never into a log or an
// address.
func (s *Service) OpenInvitationLink(p *auth.Principal, iw InvitationWithRoles, now time.Time) string {
	inv := iw.Invitation
	if inv.Status != domain.InvitationOpen || inv.Expired(now) || inv.LinkSecret == "" ||
		HashDigest(inv.LinkSecret) != inv.HashDigest || !auth.CanManageInvitation(p, inv, iw.Roles) {
		return ""
	}
	return s.invitationURL(inv.LinkSecret)
}
