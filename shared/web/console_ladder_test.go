package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/testkit"
)

// TestConsoleAuthorityLadder is issue 21 item 2 on the console's invite
// form: over every kind of person, every intended authority and every
// target role, a form posted (whatever the page offered) creates an
// invitation exactly when the caller may grant that authority there; the
// ceilings are the API ladder's (shared/httpapi TestAuthorityLadder),
// written out by hand.
func TestConsoleAuthorityLadder(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	svc, _ := testkit.NewService(t, clock)
	store := svc.Store.(*dynamo.Store)
	ctx := context.Background()
	root := &auth.Principal{Kind: auth.KindPerson, SuperUser: true, Name: "root", Person: &auth.Person{Name: "Root"}}
	role := func(name, org string, apps ...string) int64 {
		var usages []service.ApplicationUsageInput
		for _, app := range apps {
			usages = append(usages, service.ApplicationUsageInput{ManageID: app})
		}
		r, err := svc.CreateRole(ctx, root, service.RoleInput{Name: name, OrganizationGUID: org, DefaultExpiryDays: 30,
			ApplicationUsages: usages})
		if err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	// A is org-a's wiki and lms role the people hold; D shares wiki in
	// org-a, E shares the platform application lms from org-b (which opens
	// nothing: the organization is the boundary), F is org-a without a
	// shared application, B is org-b's.
	roles := map[string]int64{"A": role("Role A", "org-a", "wiki", "lms"), "B": role("Role B", "org-b", "drive"),
		"D": role("Role D", "org-a", "wiki"), "E": role("Role E", "org-b", "lms"), "F": role("Role F", "org-a", "drive")}
	person := func(name string, m map[int64]domain.Authority) *auth.Principal {
		return &auth.Principal{Kind: auth.KindPerson, Name: name + "@example.org", Memberships: m,
			Person: &auth.Person{Sub: name, Name: name, Email: name + "@example.org", EduPersonPrincipalName: name + "@example.org"}}
	}
	instAdmin := person("instadmin", nil)
	instAdmin.OrganizationGUID = "org-a"
	instAdmin.User = &domain.User{ID: 900, InstitutionAdmin: true, OrganizationGUID: "org-a"}
	callers := map[string]*auth.Principal{
		"super":      root,
		"instAdmin":  instAdmin,
		"appManager": person("appmanager", map[int64]domain.Authority{roles["A"]: domain.ApplicationManager}),
		"manager":    person("manager", map[int64]domain.Authority{roles["A"]: domain.Manager}),
		"inviter":    person("inviter", map[int64]domain.Authority{roles["A"]: domain.Inviter}),
		"guest":      person("guest", map[int64]domain.Authority{roles["A"]: domain.Guest}),
	}
	ceiling := map[string]map[string]domain.Authority{
		"super":      {"A": domain.SuperUser, "B": domain.SuperUser, "D": domain.SuperUser, "E": domain.SuperUser, "F": domain.SuperUser},
		"instAdmin":  {"A": domain.ApplicationManager, "D": domain.ApplicationManager, "F": domain.ApplicationManager},
		"appManager": {"A": domain.Manager, "D": domain.Guest},
		"manager":    {"A": domain.Manager, "D": domain.Guest},
		"inviter":    {"A": domain.Guest},
		"guest":      {},
	}
	pages, err := New(Config{Service: svc, Authenticator: &auth.Authenticator{}, Sessions: store, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	invited := func(roleID int64, email string) bool {
		invs, err := store.ListOpenInvitationsOfRole(ctx, roleID)
		if err != nil {
			t.Fatal(err)
		}
		for _, inv := range invs {
			if strings.EqualFold(inv.Email, email) {
				return true
			}
		}
		return false
	}
	n := 0
	for name, pr := range callers {
		for target, roleID := range roles {
			max := ceiling[name][target]
			for _, intended := range []domain.Authority{domain.Guest, domain.Inviter, domain.Manager, domain.ApplicationManager, domain.InstitutionAdmin} {
				n++
				email := fmt.Sprintf("c%d@example.org", n)
				want := max != "" && !intended.Higher(max)
				form := url.Values{"role": {fmt.Sprint(roleID)}, "authority": {string(intended)}, "recipients": {email},
					"expiry": {now.AddDate(0, 1, 0).Format(time.DateOnly)}, "nomail": {"1"}}
				r := httptest.NewRequest(http.MethodPost, "/console/invite", strings.NewReader(form.Encode()))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				r = r.WithContext(context.WithValue(r.Context(), visitKey{}, &visit{principal: pr, acceptLanguage: "en"}))
				w := httptest.NewRecorder()
				pages.consoleInvite(w, r)
				got := invited(roleID, email)
				if got != want {
					t.Errorf("%s grants %s on role %s through the console: status %d, invited %v, want %v", name, intended, target, w.Code, got, want)
				}
				if !got && w.Code < 400 {
					t.Errorf("%s grants %s on role %s: refused with status %d, want 4xx", name, intended, target, w.Code)
				}
			}
		}
	}
}
