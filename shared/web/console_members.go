package web

import (
	"context"
	"net/http"
	"strconv"

	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// The member and invitation actions of the role page. Each form carries
// the role's id only to come back to its page; the use case decides.

// returnTo is the role, person or administrators page a form came from.
func returnTo(r *http.Request) string {
	if r.PostFormValue("from") == "admins" {
		return adminsHref(r.PostFormValue("org"))
	}
	if id, err := strconv.ParseInt(r.PostFormValue("person"), 10, 64); err == nil && id > 0 {
		return "/console/people/" + strconv.FormatInt(id, 10)
	}
	if id, err := strconv.ParseInt(r.PostFormValue("role"), 10, 64); err == nil && id > 0 {
		return "/console/roles/" + strconv.FormatInt(id, 10)
	}
	return "/console/roles"
}

// consoleMembershipEndDate sets (or with an empty date clears) the end of a
// membership.
func (p *Pages) consoleMembershipEndDate(w http.ResponseWriter, r *http.Request) {
	pr, _, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	var end *time.Time
	if s := r.PostFormValue("endDate"); s != "" {
		d, err := parseDay(s)
		if err != nil {
			back(w, r, returnTo(r), "badDate")
			return
		}
		end = &d
	}
	if _, err := p.cfg.Service.UpdateEndDate(r.Context(), pr, id, end); err != nil {
		if domain.KindOf(err) == domain.KindInvalid {
			back(w, r, returnTo(r), "badDate")
			return
		}
		p.refuse(w, r, err)
		return
	}
	back(w, r, returnTo(r), "extended")
}

func (p *Pages) consoleMembershipRemove(w http.ResponseWriter, r *http.Request) {
	p.actOnPathID(w, r, returnTo(r), "removed", func(ctx context.Context, pr *auth.Principal, id int64) error {
		_, err := p.cfg.Service.RemoveUserRole(ctx, pr, id, false)
		return err
	})
}

// consoleInvitationResend gives the invitation a new link, e-mails it, and
// shows the new link once so that it can be copied.
func (p *Pages) consoleInvitationResend(w http.ResponseWriter, r *http.Request) {
	pr, lang, id, ok := p.consoleItem(w, r)
	if !ok {
		return
	}
	u, err := p.cfg.Service.ResendInvitation(r.Context(), pr, id)
	if err != nil {
		p.refuse(w, r, err)
		return
	}
	out := invitedPage{consolePage: p.consoleBase(r, pr, lang, "console.resent.title", "roles"), RoleHref: returnTo(r), Lead: i18n.T(lang, "console.resent.lead"),
		Recipients: []invitedRow{newInvitedRow(lang, 0, u.Recipient, u.InvitationURL, i18n.T(lang, "console.invited.mailQueued"))}}
	p.render(w, r, http.StatusOK, "console/invited", out)
}

func (p *Pages) consoleInvitationDelete(w http.ResponseWriter, r *http.Request) {
	p.actOnPathID(w, r, returnTo(r), "withdrawn", p.cfg.Service.DeleteInvitation)
}
