package mail

import "github.com/edu-invite/invite/shared/domain"

// AccessEnded renders the mail that tells m.To their access to m.Role has ended.
func (r *Renderer) AccessEnded(m AccessEnded) (domain.Email, error) {
	return render(r, m.Language, accessEndedMail, m.To, m)
}
