package mail

import (
	"errors"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/i18n"
)

// invitationView is an Invitation with what the templates cannot work out
// themselves: dates in the reader's language and the role names for the subject.
type invitationView struct {
	Invitation
	RoleNames []string
	// AuthorityWords is the authority in words, "" when none is given.
	AuthorityWords string
	ExpiresOn      string
	RoleEndsOn     string // empty when the access does not end
}

// Invitation renders the mail that invites m.To to m.Roles.
func (r *Renderer) Invitation(m Invitation) (domain.Email, error) {
	// Without roles the invitation grants an authority over an organization
	// (an institution admin); it must say which.
	if len(m.Roles) == 0 && (m.Authority == "" || strings.TrimSpace(m.Organization) == "") {
		return domain.Email{}, errors.New("mail: invitation: at least one role, or an authority and an organization, is required")
	}
	// Without the link the invitation cannot be accepted; better not to send it.
	if strings.TrimSpace(m.URL) == "" {
		return domain.Email{}, errors.New("mail: invitation: accept URL is required")
	}
	lang := resolveLanguage(m.Language)
	v := invitationView{Invitation: m, ExpiresOn: formatDate(lang, m.ExpiresAt)}
	if m.Authority != "" {
		v.AuthorityWords = i18n.Authority(lang, m.Authority)
	}
	for _, role := range m.Roles {
		v.RoleNames = append(v.RoleNames, role.Name)
	}
	if m.RoleEndDate != nil {
		v.RoleEndsOn = formatDate(lang, *m.RoleEndDate)
	}
	return render(r, lang, invitationMail, m.To, v)
}
