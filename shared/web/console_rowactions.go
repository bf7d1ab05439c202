package web

import (
	"strconv"

	"github.com/edu-invite/invite/shared/i18n"
)

// rowAction is one form among a table row's or list item's actions (set an
// end date, remove, send again, withdraw): the rowaction template draws
// every one of them the same way, from what is decided here.
type rowAction struct {
	Action   string        // the form's address
	Hidden   []hiddenField // the page to come back to
	Date     *dateField    // a date sent with the action, nil for none
	Button   string        // the button's text
	ButtonAL string        // the button's accessible name when its text does not say whom it is about
}

type hiddenField struct{ Name, Value string }

// dateField is a labelled date field of a row action.
type dateField struct{ ID, Name, Label, Value, Min string }

// MemberActions are the actions on a member of the role's page that the
// person may take.
func (p rolePage) MemberActions(m memberRow) []rowAction {
	back := []hiddenField{{"role", p.RoleID}}
	path := "/console/memberships/" + strconv.FormatInt(m.UserRoleID, 10)
	var out []rowAction
	if m.MayExtend {
		out = append(out, rowAction{Action: path + "/end-date", Hidden: back, Button: p.T("console.role.setEnd"),
			Date: &dateField{ID: "end-" + strconv.FormatInt(m.UserRoleID, 10), Name: "endDate", Label: p.T("console.role.newEnd", m.Name),
				Value: m.EndValue, Min: p.Today}})
	}
	if m.MayRemove {
		out = append(out, rowAction{Action: path + "/remove", Hidden: back, Button: p.T("console.role.remove"),
			ButtonAL: p.T("console.role.removeWho", m.Name)})
	}
	return out
}

// invitationActions are send again and withdraw, for an invitation the
// person may manage; back names the page they return to.
func invitationActions(lang string, id int64, email string, back hiddenField) []rowAction {
	path := "/console/invitations/" + strconv.FormatInt(id, 10)
	hidden := []hiddenField{back}
	return []rowAction{
		{Action: path + "/resend", Hidden: hidden, Button: i18n.T(lang, "console.role.resend"), ButtonAL: i18n.T(lang, "console.role.resendTo", email)},
		{Action: path + "/delete", Hidden: hidden, Button: i18n.T(lang, "console.role.withdraw"), ButtonAL: i18n.T(lang, "console.role.withdrawTo", email)},
	}
}
