package web

import (
	"bytes"
	"strings"
	"testing"
)

// TestRowActions: the actions of a member and of an invitation are the
// forms the person may use, each drawn by the one rowaction template with
// its address, where to come back to, its date field and a button that
// names whom it is about.
func TestRowActions(t *testing.T) {
	ts, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	page := rolePage{consolePage: consolePage{basePage: basePage{Lang: "nl"}}, RoleID: "7", Today: "2026-11-24"}
	render := func(a rowAction) string {
		var buf bytes.Buffer
		if err := ts["console/role"].ExecuteTemplate(&buf, "rowaction", a); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	cases := []struct {
		name    string
		actions []rowAction
		want    [][]string // per form, the pieces of HTML it must hold
	}{
		{"member with both rights", page.MemberActions(memberRow{UserRoleID: 3, Name: "Ann", EndValue: "2027-01-31", MayExtend: true, MayRemove: true}),
			[][]string{
				{`action="/console/memberships/3/end-date"`, `<input type="hidden" name="role" value="7">`, `<label for="end-3">Nieuwe einddatum voor Ann</label>`,
					`<input type="date" id="end-3" name="endDate" value="2027-01-31" min="2026-11-24">`, `>Einddatum instellen</button>`},
				{`action="/console/memberships/3/remove"`, `<input type="hidden" name="role" value="7">`, `aria-label="Ann verwijderen"`, `>Verwijderen</button>`},
			}},
		{"member who may only be removed", page.MemberActions(memberRow{UserRoleID: 4, Name: "Bo", MayRemove: true}),
			[][]string{{`action="/console/memberships/4/remove"`}}},
		{"member without rights", page.MemberActions(memberRow{UserRoleID: 5, Name: "Cy"}), nil},
		{"invitation from a person's page", invitationActions("en", 9, "d@example.org", hiddenField{"person", "12"}),
			[][]string{
				{`action="/console/invitations/9/resend"`, `<input type="hidden" name="person" value="12">`, `aria-label="Send again to d@example.org"`},
				{`action="/console/invitations/9/delete"`, `<input type="hidden" name="person" value="12">`, `aria-label="Withdraw the invitation to d@example.org"`},
			}},
	}
	for _, c := range cases {
		if len(c.actions) != len(c.want) {
			t.Errorf("%s: %d actions, want %d", c.name, len(c.actions), len(c.want))
			continue
		}
		for i, a := range c.actions {
			html := render(a)
			for _, piece := range c.want[i] {
				if !strings.Contains(html, piece) {
					t.Errorf("%s, form %d lacks %s:\n%s", c.name, i, piece, html)
				}
			}
			if a.Date == nil && strings.Contains(html, `type="date"`) {
				t.Errorf("%s, form %d has a date field it was not given", c.name, i)
			}
		}
	}
}
