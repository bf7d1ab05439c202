package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// TestConsoleTemplatesRender renders every console page with data in both
// languages: a template that fails at run time (a wrong field, a variable
// out of scope) fails here rather than as a 500 in a browser.
func TestConsoleTemplatesRender(t *testing.T) {
	ts, err := parseTemplates()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "nl"} {
		cp := consolePage{basePage: basePage{Lang: lang, Title: "t", SignedInAs: "Ann"}, Section: "roles",
			Nav: []navLink{{Label: "Roles", Href: "/console/roles", Current: true}}, Flash: "done"}
		st := listState{Query: "lab", Sort: "name", Page: 1, Size: 25, path: "/console/roles", TableID: "list", SearchLabel: "Search"}
		pages := map[string]any{
			"console/home":  homeConsolePage{consolePage: cp, MayCreate: true, Sections: []homeSection{{navLink: cp.Nav[0], About: "Find a role"}}},
			"console/roles": rolesPage{consolePage: cp, List: st, Headers: []sortHeader{st.header(lang, "console.roles.name", "name")}, Roles: []roleRow{{ID: 1, Name: "Lab", Href: "/console/roles/1", Applications: "Wiki", Members: 3}}, Pager: st.pager(lang, 30), MayCreate: true},
			"console/role": rolePage{consolePage: cp, Role: domain.Role{Name: "Lab", Description: "d"}, RoleID: "1", Apps: []string{"Wiki"},
				Details: []detail{{"a", "b"}}, Rights: service.RoleRights{Manage: true, Grantable: []domain.Authority{domain.Guest}}, MayInvite: true,
				Members: []memberRow{{UserRoleID: 2, Name: "Bob", Email: "bob@example.org", MayExtend: true, MayRemove: true, PersonHref: "/console/people/3", Statuses: []statusView{{SP: "SP", Status: "failed", Text: "Failed: 401"}}}},
				invitationList: invitationList{Invitations: []invitationRow{{ID: 4, Email: "c@example.org", State: "open", StateText: "Open", MayManage: true,
					Actions: invitationActions(lang, 4, "c@example.org", hiddenField{"role", "1"})},
					{ID: 5, Email: "d@example.org", State: "accepted", StateText: "Accepted"}}}},
			"console/roleform": roleFormPage{consolePage: cp, Action: "/console/roles/new", ShowApplications: true, ShowOrganization: true, Applications: []appChoice{{Index: 0, ManageID: "app", Name: "App", Checked: true}}, Errors: map[string]string{"name": "x", "form": "y", "organization": "z"},
				organizations: orgField{ID: "organization", Name: "organization", Label: "Organization", Help: "h", Prompt: "Choose", Choices: []choice{{Value: "g-1", Label: "Uni"}}}},
			"console/roledelete": roleDeletePage{consolePage: cp, RoleID: 1, Name: "Lab", Members: 2, Invitations: 1, SPs: []string{"SP"}},
			"console/invite": invitePage{consolePage: cp, Roles: []roleChoice{{ID: 1, Name: "Lab", Checked: true}}, Authorities: []choice{{Value: "GUEST", Label: "Guest", Selected: true}},
				LangChoices: []choice{{Value: "en", Label: "English"}}, Recipients: "a@b", Errors: map[string]string{"recipients": "x", "roles": "y", "expiry": "z", "endDate": "w", "authority": "v"}, RecipientErrors: []string{"bad"}},
			"console/invited": invitedPage{consolePage: cp, Recipients: []invitedRow{newInvitedRow("en", 0, "a@b", "https://x/invitation/accept?hash=h", "sent")}, RoleHref: "/console/roles/1"},
			"console/people":  peoplePage{consolePage: cp, List: st, Headers: []sortHeader{st.header(lang, "console.people.name", "name")}, People: []personRow{{Href: "/console/people/1", Name: "Bob"}}, Pager: st.pager(lang, 1)},
			"console/person": personPage{consolePage: cp, Name: "Bob", Email: "b@x", Placeholder: "P", Memberships: []personMembership{{RoleHref: "/console/roles/1", Role: "Lab"}}, Statuses: []statusView{{SP: "SP", Status: "provisioned", Text: "Ready"}}, Audit: []auditRow{{When: "now", Action: "Access given"}},
				invitationList: invitationList{Invitations: []invitationRow{{ID: 4, Email: "b@x", Roles: "Lab", State: "accepted", StateText: "Accepted"}}, InvitationRoles: true}},
			"console/audit":  auditPage{consolePage: cp, List: st, Headers: []sortHeader{st.header(lang, "console.audit.when", "createdAt")}, Entries: []auditRow{{When: "now", Action: "ADD", Person: "a@b", Role: "Lab", Detail: "SP"}}, Pager: st.pager(lang, 1), Actions: []choice{{Value: "ADD", Label: "Added"}}, Error: "bad"},
			"console/tokens": tokensPage{consolePage: cp, Tokens: []tokenRow{{ID: 1, Description: "CI", Kind: "Org"}}, ShowOrganization: true, OrganizationSelect: orgField{ID: "organization", Name: "organization", Label: "Organization", Prompt: "Choose", Error: "y", Choices: []choice{{Value: "g-1", Label: "Uni", Selected: true}}}, Super: true, NewToken: &copyLink{FieldID: "new-token", Link: "secret"}, Errors: map[string]string{"description": "x", "organization": "y"}},
			"console/applications": applicationsPage{consolePage: cp, Applications: []applicationRow{{Href: "/console/applications/wiki", Name: "Wiki", Type: "SAML20_SP", LandingPage: "https://wiki", Organization: "Org", Connections: "SP"}},
				Connections: []connectionRow{{ID: "sp", Name: "SP", BaseURL: "https://sp/scim/v2", Auth: "basic", Membership: "PATCH", Credential: "Configured"}}},
			"console/connection": connectionPage{consolePage: cp, Connection: connectionRow{ID: "sp", Name: "SP"}, Apps: []string{"Wiki"}, Tested: true,
				Report: &reportView{Summary: "s", Lines: []detail{{"a", "b"}}, Recommendation: "PATCH", Warnings: []string{"w"}}},
			"console/registryform": registryFormPage{consolePage: cp, Action: "/console/connections/new", Submit: "Save", Cancel: "/console/applications", FormError: "e",
				Fields: []formField{{Name: "id", Label: "ID", Type: "text", Value: "sp", Hint: "h", Error: "x", Required: true}, {Name: "method", Label: "M", Type: "select", Options: []formOption{{Value: "basic", Label: "Basic", Selected: true}}},
					{Name: "provisionings", Label: "P", Type: "checkboxes", Options: []formOption{{Value: "sp", Label: "SP", Selected: true}}, Error: "y"}, {Name: "secret", Label: "S", Type: "password"}}},
			"console/registrydelete": registryDeletePage{consolePage: cp, Action: "/console/connections/sp/delete", Name: "SP", Cancel: "/console/applications", Refusal: "in use"},
			"console/admins": adminsPage{consolePage: cp, Super: true, Organization: "org", OrganizationName: "Uni", Choice: orgField{ID: "org", Name: "org", Label: "Organization", Prompt: "Choose", Choices: []choice{{Value: "org", Label: "Uni", Selected: true}}}, Email: "x", EmailError: "bad",
				Admins: []adminRow{{ID: 1, Name: "Ann", PersonHref: "/console/people/1", MayRemove: true, Actions: []rowAction{{Action: "/console/admins/1/remove", Button: "Remove"}}},
					{ID: 2, Name: "Bo", AppointedOtherway: "config"}},
				Managers: []managerRow{{UserRoleID: 3, Name: "Cy", RoleHref: "/console/roles/1", Role: "Lab", MayRemove: true,
					Actions: []rowAction{{Action: "/console/memberships/3/remove", Hidden: []hiddenField{{"from", "admins"}}, Button: "Remove", ButtonAL: "Remove Cy"}}}}},
			"console/organizations": organizationsPage{consolePage: cp, Organizations: []organizationRow{{GUID: "g-1", Name: "Uni", NameNL: "Uni NL", Source: "a super user", EditHref: "/console/organizations/g-1/edit", EditLabel: "Rename Uni"}},
				GUID: "g-2", Name: "", Errors: map[string]string{"name": "x", "guid": "y"}},
			"console/organization": organizationFormPage{consolePage: cp, GUID: "g-1", Name: "Uni", Action: "/console/organizations/g-1/edit", Errors: map[string]string{"name": "x"}},
			"console/operations": operationsPage{consolePage: cp, SPs: []deadLetterView{{SPID: "sp", Name: "SP", Count: 1, Oldest: "1 minute", Reasons: []reasonCount{{"401", 1}}, Items: []deadLetterItem{{ID: "d", Kind: "user.create", Reason: "401", Age: "1"}}}},
				Jobs: []jobView{{Name: "expiry", When: "1 minute ago", State: "OK", Summary: "{}"}, {Name: "cleanup", When: "never"}}},
			"console/reconcile": reconcileJobPage{consolePage: cp, ID: "j", SP: "sp", Status: "succeeded", StatusText: "Done", Done: true, DryRun: true, Stopped: "too many",
				Counts: []detail{{"Users", "3"}}},
		}
		for _, name := range consolePageNames {
			page, ok := pages["console/"+name]
			if !ok {
				t.Errorf("no test data for console/%s", name)
				continue
			}
			var buf bytes.Buffer
			if err := ts["console/"+name].ExecuteTemplate(&buf, "layout", page); err != nil {
				t.Errorf("%s %s: %v", lang, name, err)
				continue
			}
			if strings.Contains(buf.String(), "console.") {
				t.Errorf("%s %s shows a message key: %s", lang, name, buf.String())
			}
		}
	}
}
