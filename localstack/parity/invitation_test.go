//go:build parity

package parity

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"
)

// TestConsoleInvitationIsMailed: an invitation made in the console reaches
// the SES substitute, sent by the web function with its own environment
// and role (apart from the SCIM path of TestConsoleToSP, so that it shows
// on its own).
func TestConsoleInvitationIsMailed(t *testing.T) {
	noDenials(t)
	admin := newBrowser(t)
	admin.signIn(superUser, "/console")
	code, page, _ := admin.post("/console/applications/new", url.Values{"manageId": {"mail-app"}, "manageType": {"OIDC10_RP"},
		"name": {"Mail app"}, "nameNl": {"Mail app"}, "organizationName": {"Parity"}, "organizationNameNl": {"Parity"},
		"landingPage": {"https://mail.parity.example.org"}, "organizationGUID": {"org-parity"}})
	if code != http.StatusOK {
		t.Fatalf("save the application: %d %.800s", code, textOf(page))
	}
	code, page, at := admin.post("/console/roles/new", url.Values{"name": {"Mail role"}, "description": {"Guests who get mail"},
		"days": {"30"}, "organization": {"org-parity"}, "app0": {"on"}, "landing0": {"https://mail.parity.example.org"}})
	roleID := regexp.MustCompile(`^/console/roles/(\d+)$`).FindStringSubmatch(at.Path)
	if code != http.StatusOK || roleID == nil {
		t.Fatalf("create the role: %d at %s: %.800s", code, at, textOf(page))
	}
	guest := "mailed@parity.example.org"
	code, page, _ = admin.post("/console/invite", url.Values{"role": {roleID[1]}, "authority": {"GUEST"},
		"recipients": {guest}, "language": {"en"}, "expiry": {time.Now().AddDate(0, 0, 14).Format("2006-01-02")}})
	if code != http.StatusCreated {
		t.Fatalf("invite: %d %.800s", code, textOf(page))
	}
	waitForMailLink(t, guest)
}
