package browsertest

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// TestConsoleJourney is the console's main path in Chromium: an
// institution admin (who invites) creates a role on the sample application,
// invites three guests (one with a placeholder identifier; an invalid
// address is rejected beside the field first), each guest accepts from the
// captured e-mail in their own browser context, the role page shows all
// three provisioned and the SCIM SP holds them (the placeholder as
// externalId); a manager extends one membership and removes another (the
// SP loses that member); a super user sees the dead letters of an SP whose
// credentials broke, replays them once fixed, and the state recovers.
func TestConsoleJourney(t *testing.T) {
	const org = "org-console"
	base := roleInOrg(t, "Staff", org)
	admin := makePerson(t, "Ines Admin", "ines.admin@example.org", base, "GUEST", func(u *domain.User) {
		u.InstitutionAdmin, u.OrganizationGUID = true, org
	})
	ctx := consoleSignIn(t, admin.person, "en")

	// Create the role.
	open(t, ctx, stk.URL+"/console/roles")
	checkAxe(t, ctx)
	click(t, ctx, "#new-role")
	checkAxe(t, ctx)
	roleName := "Lab notebooks " + time.Now().Format("150405")
	setValue(t, ctx, "#name", roleName)
	setValue(t, ctx, "#description", "The lab's electronic notebooks")
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#app-sample-app"))))
	setValue(t, ctx, "#landing0", "https://notebooks.example.org/")
	click(t, ctx, "#save-role")
	if !strings.Contains(location(t, ctx), "/console/roles/") || text(t, ctx, "h1") != roleName {
		t.Fatalf("after saving, the browser is at %s with heading %q", location(t, ctx), text(t, ctx, "h1"))
	}
	if got := text(t, ctx, ".flash"); got != "The role was created." {
		t.Errorf("flash = %q", got)
	}
	rolePage := location(t, ctx)
	rolePage = strings.SplitN(rolePage, "?", 2)[0]
	checkAxe(t, ctx)

	// Invite: an invalid address is named beside the field, what was typed stays.
	click(t, ctx, "#invite")
	typed := "bob.lab@example.org\ncarol.lab@example.org,EMP-0042\nnot-an-address"
	setValue(t, ctx, "#recipients", typed)
	setValue(t, ctx, "#message", "Welcome to the lab!")
	if got := click(t, ctx, "#send"); got != http.StatusBadRequest {
		t.Fatalf("invite with an invalid address = %d, want 400", got)
	}
	if got := text(t, ctx, "#recipient-errors"); got != "not-an-address: this is not an e-mail address." {
		t.Errorf("recipient errors = %q", got)
	}
	if got := attr(t, ctx, "#recipients", "aria-invalid"); got != "true" {
		t.Errorf("recipients aria-invalid = %q", got)
	}
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("recipients").value`))
	must(t, err)
	if kept != typed {
		t.Errorf("the form lost what was typed: %q", kept)
	}
	checkAxe(t, ctx)
	screenshot(t, ctx, "console-invite-form.png", 800)
	screenshot(t, ctx, "console-invite-form-320.png", 320)

	setValue(t, ctx, "#recipients", "bob.lab@example.org\ncarol.lab@example.org,EMP-0042\ndave.lab@example.org")
	if got := click(t, ctx, "#send"); got != http.StatusCreated {
		t.Fatalf("invite = %d, want 201", got)
	}
	for _, email := range []string{"bob.lab@example.org", "carol.lab@example.org", "dave.lab@example.org"} {
		row := text(t, ctx, `li[data-recipient="`+email+`"]`)
		if !strings.Contains(row, "E-mail sent") {
			t.Errorf("result for %s = %q", email, row)
		}
	}
	checkAxe(t, ctx)

	// Each guest accepts from the captured e-mail in their own context.
	guests := map[string]string{"bob.lab@example.org": "Bob Lab", "carol.lab@example.org": "Carol Lab", "dave.lab@example.org": "Dave Lab"}
	for email, name := range guests {
		g := newTab(t)
		open(t, g, mailLink(t, email))
		click(t, g, "#signin")
		signInAtIdP(t, g, person{Name: name, Email: email})
		click(t, g, "#accept")
		if !strings.Contains(location(t, g), "/my/welcome") {
			t.Fatalf("%s after Accept is at %s", email, location(t, g))
		}
	}

	// The inviter sees all three members provisioned.
	eventually(t, "three members provisioned on the role page", func() bool {
		open(t, ctx, rolePage)
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#members li[data-status="provisioned"]').length`))
		must(t, err)
		return n == 3
	})
	checkAxe(t, ctx)
	screenshot(t, ctx, "console-role-page.png", 1024)
	screenshot(t, ctx, "console-role-page-320.png", 320)

	spUser := func(email string) *scim.User {
		for _, u := range stk.SP.Users() {
			if u.UserName == email {
				return &u
			}
		}
		return nil
	}
	for email := range guests {
		if spUser(email) == nil {
			t.Errorf("the SP does not hold %s", email)
		}
	}
	if u := spUser("carol.lab@example.org"); u != nil && u.ExternalID != "EMP-0042" {
		t.Errorf("carol's externalId at the SP = %q, want the placeholder EMP-0042", u.ExternalID)
	}

	// A manager extends one membership and removes another.
	roleID := roleIDOf(t, rolePage)
	manager := makePerson(t, "Mia Manager", "mia.manager@example.org", roleID, "MANAGER", nil)
	m := consoleSignIn(t, manager.person, "en")
	open(t, m, rolePage)
	checkAxe(t, m)
	newEnd := clock.Now().AddDate(0, 3, 0).UTC().Format(time.DateOnly)
	bobRow := `tr[data-member="bob.lab@example.org"]`
	setValue(t, m, bobRow+` input[type="date"]`, newEnd)
	click(t, m, bobRow+` form[action$="/end-date"] button`)
	if got := text(t, m, ".flash"); got != "The end date was changed." {
		t.Errorf("after extending, flash = %q", got)
	}
	if got := attr(t, m, bobRow+` input[type="date"]`, "value"); got != newEnd {
		t.Errorf("bob's end date = %q, want %s", got, newEnd)
	}
	click(t, m, `tr[data-member="dave.lab@example.org"] form[action$="/remove"] button`)
	if got := text(t, m, ".flash"); got != "The member was removed." || exists(t, m, `tr[data-member="dave.lab@example.org"]`) {
		t.Errorf("after removing dave: flash %q, row still there: %v", got, exists(t, m, `tr[data-member="dave.lab@example.org"]`))
	}
	eventually(t, "the SP loses dave", func() bool { return spUser("dave.lab@example.org") == nil })

	// A super user: an SP's credentials break, deliveries dead-letter, the
	// operations page shows them; fixed and replayed, the state recovers.
	super := makePerson(t, "Sam Super", "sam.super@example.org", base, "GUEST", func(u *domain.User) { u.SuperUser = true })
	s := consoleSignIn(t, super.person, "en")
	good := os.Getenv("SAMPLE_SP_TOKEN")
	os.Setenv("SAMPLE_SP_TOKEN", "a-revoked-token")
	restored := false
	defer func() {
		if !restored {
			os.Setenv("SAMPLE_SP_TOKEN", good)
		}
	}()
	makePerson(t, "Eve Late", "eve.late@example.org", roleID, "GUEST", nil)
	section := `section[data-sp="sample-sp"]`
	eventually(t, "dead letters of the sample SP on the operations page", func() bool {
		open(t, s, stk.URL+"/console/operations")
		return exists(t, s, section+" .replay-all")
	})
	if got := text(t, s, section+" .dead-count"); !strings.Contains(got, "failed deliver") { // one delivery or more: the plural form
		t.Errorf("dead letter count = %q", got)
	}
	if got := text(t, s, section); !strings.Contains(got, "401") || strings.Contains(got, "a-revoked-token") {
		t.Errorf("the reason should name the 401, never the token: %q", got)
	}
	checkAxe(t, s)
	shootBothWidths(t, s, "journey-dead-letters", "en")
	must(t, chromedp.Do(s, chromedp.EmulateViewport(320, 700)))
	noSidewaysScroll(t, s, "/console/operations with dead letters", ".scroll")
	checkAxe(t, s)
	must(t, chromedp.Do(s, chromedp.EmulateViewport(1024, 800)))
	open(t, s, rolePage)
	if got := text(t, s, `tr[data-member="eve.late@example.org"]`); !strings.Contains(got, "401") {
		t.Errorf("eve's row should say why she is not in the application: %q", got)
	}
	shootBothWidths(t, s, "journey-role-failed", "en")
	os.Setenv("SAMPLE_SP_TOKEN", good)
	restored = true
	open(t, s, stk.URL+"/console/operations")
	click(t, s, section+" .replay-all")
	if got := text(t, s, ".flash"); got != "The deliveries are on their way again." {
		t.Errorf("after replay, flash = %q", got)
	}
	eventually(t, "eve provisioned after the replay", func() bool {
		open(t, s, rolePage)
		return exists(t, s, `tr[data-member="eve.late@example.org"] li[data-status="provisioned"]`)
	})
	if _, err := stk.RunJob(context.Background(), "cleanup"); err != nil {
		t.Fatal(err)
	}
	open(t, s, stk.URL+"/console/operations")
	if got := text(t, s, `tr[data-job="cleanup"]`); !strings.Contains(got, "Succeeded") || !strings.Contains(got, " ago") || !strings.Contains(got, `"invitations"`) {
		t.Errorf("the cleanup job's last run = %q", got)
	}
	if got := text(t, s, `tr[data-job="expiry"]`); !strings.Contains(got, "Not run yet") {
		t.Errorf("the expiry job's last run = %q", got)
	}
	if got := text(t, s, section+" .dead-count"); got != "Nothing failed." {
		t.Errorf("after the replay the operations page says %q", got)
	}
	if spUser("eve.late@example.org") == nil {
		t.Error("the SP does not hold eve after the replay")
	}

	// The audit log says who removed dave, filtered by person and action;
	// bob's page shows his history and where he stands.
	open(t, s, stk.URL+"/console/audit")
	setValue(t, s, "#q", "dave.lab")
	setValue(t, s, "#action", "DELETE")
	click(t, s, "form.filters button")
	if strings.Contains(location(t, s), "dave") {
		t.Errorf("the person searched for is in the address: %s", location(t, s))
	}
	if got := text(t, s, "#audit tbody"); !strings.Contains(got, "Access ended") || !strings.Contains(got, "mia.manager@example.org") {
		t.Errorf("audit of dave's removal = %q", got)
	}
	checkAxe(t, s)
	open(t, s, rolePage)
	click(t, s, `tr[data-member="bob.lab@example.org"] a`)
	if got := text(t, s, "#person-audit"); !strings.Contains(got, "Access changed") || !strings.Contains(got, "Access given") {
		t.Errorf("bob's history = %q", got)
	}
	if !exists(t, s, `#provisioning li[data-status="provisioned"]`) {
		t.Error("bob's page does not show him provisioned")
	}
	checkAxe(t, s)
}

func roleIDOf(t *testing.T, rolePage string) int64 {
	t.Helper()
	var id int64
	for _, c := range rolePage[strings.LastIndex(rolePage, "/")+1:] {
		id = id*10 + int64(c-'0')
	}
	return id
}
