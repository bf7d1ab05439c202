package mail

import "github.com/edu-invite/invite/shared/domain"

// reminderView is a Reminder with its end date in the reader's language.
type reminderView struct {
	Reminder
	EndsOn string
}

// Reminder renders the mail that warns m.To that access to m.Role ends soon.
func (r *Renderer) Reminder(m Reminder) (domain.Email, error) {
	lang := resolveLanguage(m.Language)
	return render(r, lang, reminderMail, m.To, reminderView{Reminder: m, EndsOn: formatDate(lang, m.EndDate)})
}
