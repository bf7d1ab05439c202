package httpapi_test

// tenantRule is how one route of the API keeps organizations apart. Every
// route of the route table has exactly one (TestTenantIsolation fails for a
// route without one), of one of these kinds:
//
//   - object: the path (or, with body, the request body) names an object of
//     an organization; {obj} stands for it. Every caller of organization A
//     gets exactly the same answer for organization B's object as for one
//     that does not exist, and is refused; ownCaller gets ownStatus for
//     A's own object (ownObj, when set, names which of A's objects, so that
//     twin routes that delete do not delete the same one).
//   - listing: no object is named; the answer lists what the caller may
//     see, and for no caller of A mentions anything of B.
//   - superOnly: only super users call it; every caller of A is refused.
//   - none: the route carries no organization's data; reason says why.
type tenantRule struct {
	kind      string // object, listing, superOnly, none
	object    string // role, user, userRole, invitation, token, connection, application, subject, org
	path      string // the path with {obj}; default: the pattern's first parameter is the object
	body      string // the request body with {obj}
	ownCaller string
	ownStatus int
	ownObj    string // which of A's objects the own call uses (default: object)
	// createFresh: for B's object the answer is the "not found" a read
	// gets, as the same id unknown to everybody would be created.
	createFresh bool
	reason      string
}

func object(kind, ownCaller string, ownStatus int) tenantRule {
	return tenantRule{kind: "object", object: kind, ownCaller: ownCaller, ownStatus: ownStatus}
}

func (r tenantRule) withPath(p string) tenantRule { r.path = p; return r }
func (r tenantRule) withBody(b string) tenantRule { r.body = b; return r }
func (r tenantRule) using(own string) tenantRule  { r.ownObj = own; return r }

func listing(ownCaller string, ownStatus int) tenantRule {
	return tenantRule{kind: "listing", ownCaller: ownCaller, ownStatus: ownStatus}
}

var superOnly = tenantRule{kind: "superOnly"}

func none(reason string) tenantRule { return tenantRule{kind: "none", reason: reason} }

// tenantRules is the table of tenant rules, by route pattern.
func tenantRules() map[string]tenantRule {
	const reg = "/api/v1/manage/registry"
	invite := func(list string) string {
		item := `"invites":["t@example.org"]`
		if list == "invitations" {
			item = `"invitations":[{"email":"t@example.org","internalPlaceholderIdentifier":"x"}]`
		}
		return `{"intendedAuthority":"GUEST",` + item + `,"roleIdentifiers":[{obj}],"suppressSendingEmails":true,"expiryDate":` + tenantFuture() + `}`
	}
	roleBody := `{"id":{obj},"name":"Renamed","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki"}}]}`
	newRole := `{"name":"New","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"{obj}"}}]}`
	provision := `{"roleIdentifiers":[{obj}],"email":"pat@example.org","givenName":"Pat"}`
	endDate := `{"userRoleId":{obj},"endDate":` + tenantFuture() + `}`
	rules := map[string]tenantRule{
		// users
		"GET /api/v1/users/me":                          none("the caller itself"),
		"GET /api/v1/users/config":                      none("the deployment's settings"),
		"GET /api/v1/users/search":                      listing("instAdmin", 200),
		"GET /api/v1/users/search-by-application":       listing("instAdmin", 200),
		"DELETE /api/v1/users/{id}":                     superOnly,
		"GET /api/v1/users/other/{id}":                  object("user", "instAdmin", 200),
		"GET /api/v1/users/institution-admins/{roleId}": object("role", "manager", 200),
		"GET /api/v1/users/{id}/provisioning":           object("user", "instAdmin", 200),
		"GET /api/v1/users/institutionAdmins":           object("org", "instAdmin", 200).withPath("/api/v1/users/institutionAdmins?organizationGUID={obj}"),
		// No own call for removeInstitutionAdmin: the world's institution admin
		// was not made by invitation, so nobody removes them
		// (TestRemoveInstitutionAdmin covers one made by invitation).
		"PUT /api/v1/users/removeInstitutionAdmin/{id}":                   object("user", "", 0),
		"GET /api/v1/users/applicationManagers":                           object("org", "instAdmin", 200).withPath("/api/v1/users/applicationManagers?organizationGUID={obj}"),
		"PUT /api/v1/users/removeApplicationManager/{id}":                 object("user", "instAdmin", 200).using("appManagerUser"),
		"GET /api/external/v1/users/me":                                   none("the caller itself"),
		"GET /api/external/v1/users/config":                               none("the deployment's settings"),
		"GET /api/external/v1/users/search":                               listing("orgToken", 200),
		"GET /api/external/v1/users/search-by-application":                listing("orgToken", 200),
		"DELETE /api/external/v1/users/{id}":                              superOnly,
		"GET /api/external/v1/users/other/{id}":                           object("user", "orgToken", 200),
		"GET /api/external/v1/users/institution-admins/{roleId}":          object("role", "orgToken", 200),
		"GET /api/external/v1/users/institutionAdmins":                    object("org", "orgToken", 200).withPath("/api/external/v1/users/institutionAdmins?organizationGUID={obj}"),
		"PUT /api/external/v1/users/removeInstitutionAdmin/{id}":          object("user", "", 0),
		"GET /api/external/v1/users/applicationManagers":                  object("org", "orgToken", 200).withPath("/api/external/v1/users/applicationManagers?organizationGUID={obj}"),
		"PUT /api/external/v1/users/removeApplicationManager/{id}":        object("user", "instAdmin", 200).using("spareAppManagerUser"),
		"GET /api/v1/users/ms-accept-return/{manageId}/{userId}":          none("a browser back from Entra: a redirect to the welcome page, whoever it is"),
		"GET /api/external/v1/users/ms-accept-return/{manageId}/{userId}": none("a browser back from Entra: a redirect to the welcome page, whoever it is"),
		"GET /api/external/v1/users/login":                                none("refused to everybody on the token prefix"),
		"GET /api/external/v1/users/logout":                               none("refused to everybody on the token prefix"),
		"POST /api/external/v1/users/error":                               none("refused to everybody on the token prefix"),
		"PUT /api/v1/user_roles":                                          object("userRole", "inviter", 200).withBody(endDate),
		"PUT /api/external/v1/user_roles":                                 object("userRole", "orgToken", 200).withBody(endDate),
		"GET /api/v1/user_roles/roles/{roleId}":                           object("role", "inviter", 200),
		"GET /api/external/v1/user_roles/roles/{roleId}":                  object("role", "orgToken", 200),
		"GET /api/external/v1/internal/invite/user_roles/{roleId}":        object("role", "machineA", 200),
		"GET /api/v1/user_roles/search/{roleId}/{guests}":                 object("role", "inviter", 200).withPath("/api/v1/user_roles/search/{obj}/true"),
		"GET /api/external/v1/user_roles/search/{roleId}/{guests}":        object("role", "orgToken", 200).withPath("/api/external/v1/user_roles/search/{obj}/false"),
		"POST /api/v1/user_roles/user_role_provisioning":                  object("role", "instAdmin", 201).withBody(provision),
		"POST /api/external/v1/user_roles/user_role_provisioning":         object("role", "orgToken", 201).withBody(provision),
		"DELETE /api/v1/user_roles/{id}/{isGuest}":                        object("userRole", "inviter", 204).withPath("/api/v1/user_roles/{obj}/true").using("spareUserRole1"),
		"DELETE /api/external/v1/user_roles/{id}/{isGuest}":               object("userRole", "orgToken", 204).withPath("/api/external/v1/user_roles/{obj}/true").using("spareUserRole2"),
		"GET /api/v1/user_roles/managers/{roleId}":                        object("role", "inviter", 200),
		"GET /api/external/v1/user_roles/managers/{roleId}":               object("role", "orgToken", 200),
		"GET /api/v1/user_roles/consequences/{roleId}":                    object("role", "instAdmin", 200),
		"GET /api/external/v1/user_roles/consequences/{roleId}":           object("role", "orgToken", 200),
		"GET /api/external/v1/voot/{id}":                                  object("subject", "machineA", 200),
		"GET /api/external/v1/aa/{id}":                                    object("subject", "machineA", 200),
		"GET /api/external/v1/deprovision/{id}":                           object("subject", "machineA", 200),
		"DELETE /api/external/v1/deprovision/{id}":                        object("subject", "machineA", 200).using("spareSubject"),
		"DELETE /api/external/v1/deprovision/{id}/dry-run":                object("subject", "machineA", 200).withPath("/api/external/v1/deprovision/{obj}/dry-run"),
		"GET /api/external/v1/profile":                                    object("subject", "machineA", 200).withPath("/api/external/v1/profile?collabPersonId={obj}"),

		// roles
		"POST /api/v1/roles":                                 object("application", "instAdmin", 201).withBody(newRole),
		"POST /api/external/v1/roles":                        object("application", "orgToken", 201).withBody(newRole),
		"POST /api/external/v1/internal/invite/roles":        object("application", "machineA", 201).withBody(newRole),
		"GET /api/v1/roles/{id}":                             object("role", "guest", 200),
		"GET /api/external/v1/roles/{id}":                    object("role", "orgToken", 200),
		"GET /api/external/v1/internal/invite/roles/{id}":    object("role", "machineA", 200),
		"PUT /api/v1/roles":                                  object("role", "manager", 200).withBody(roleBody),
		"PUT /api/external/v1/roles":                         object("role", "orgToken", 200).withBody(roleBody),
		"PUT /api/external/v1/internal/invite/roles":         object("role", "machineA", 200).withBody(roleBody),
		"DELETE /api/v1/roles/{id}":                          object("role", "instAdmin", 204).using("spareRole1"),
		"DELETE /api/internal/roles/{id}":                    object("role", "orgToken", 204).using("spareRole2"),
		"DELETE /api/external/v1/roles/{id}":                 object("role", "orgToken", 204).using("spareRole3"),
		"DELETE /api/external/v1/internal/invite/roles/{id}": object("role", "machineA", 204).using("spareRole4"),
		"GET /api/v1/roles":                                  listing("inviter", 200),
		"GET /api/external/v1/roles":                         listing("orgToken", 200),
		"GET /api/external/v1/internal/invite/roles":         listing("machineA", 200),
		"GET /api/external/v1/internal/invite/roles-summary": listing("machineA", 200),
		"GET /api/v1/roles/application/{manageId}":           object("application", "inviter", 200),
		"GET /api/v1/roles/{id}/provisioning":                object("role", "guest", 200),
		"GET /api/external/v1/roles/application/{manageId}":  object("application", "orgToken", 200),
		"GET /api/external/v1/internal/invite/roles/{organizationGUID}/{manageId}": object("org", "machineA", 200).
			withPath("/api/external/v1/internal/invite/roles/{obj}/wiki"),

		// invitations
		"POST /api/v1/invitations":                              object("role", "inviter", 201).withBody(invite("invites")),
		"POST /api/external/v1/invitations":                     object("role", "orgToken", 201).withBody(invite("invites")),
		"POST /api/external/v1/internal/invite/invitations":     object("role", "machineA", 201).withBody(invite("invitations")),
		"POST /api/internal/invitations":                        object("role", "orgToken", 201).withBody(invite("invitations")),
		"GET /api/v1/invitations/public":                        none("the link's secret is the credential: whoever holds it may read the invitation"),
		"GET /api/external/v1/invitations/public":               none("the link's secret is the credential: whoever holds it may read the invitation"),
		"POST /api/v1/invitations/accept":                       none("the link's secret is the credential: whoever holds it may accept"),
		"POST /api/external/v1/invitations/accept":              none("the link's secret is the credential: whoever holds it may accept"),
		"GET /api/v1/invitations/search":                        object("role", "inviter", 200).withPath("/api/v1/invitations/search?roleId={obj}"),
		"GET /api/external/v1/invitations/search":               object("role", "orgToken", 200).withPath("/api/external/v1/invitations/search?roleId={obj}"),
		"GET /api/v1/invitations/all":                           superOnly,
		"GET /api/external/v1/invitations/all":                  superOnly,
		"GET /api/v1/invitations/roles/{roleId}":                object("role", "inviter", 200),
		"GET /api/external/v1/invitations/roles/{roleId}":       object("role", "orgToken", 200),
		"GET /api/v1/invitations/mine":                          listing("inviter", 200),
		"GET /api/external/v1/invitations/mine":                 listing("orgToken", 200),
		"PUT /api/v1/invitations/{id}":                          object("invitation", "inviter", 201),
		"PUT /api/external/v1/invitations/{id}":                 object("invitation", "orgToken", 201),
		"PUT /api/external/v1/internal/invite/invitations/{id}": object("invitation", "machineA", 201),
		"DELETE /api/v1/invitations/{id}":                       object("invitation", "inviter", 204).using("spareInvitation1"),
		"DELETE /api/external/v1/invitations/{id}":              object("invitation", "orgToken", 204).using("spareInvitation2"),

		// crm: CRM systems call with their key and serve every organization
		// (the reference's CRM is the federation's); people, tokens and
		// machine callers of an organization are refused, except the
		// organization's machine caller on the profile search, which
		// answers for its own organization only.
		"POST /crm/profile":                       superOnly,
		"DELETE /crm/profile":                     superOnly,
		"POST /crm/api/v1/invite/send":            superOnly,
		"POST /crm/api/v1/invite/resend":          superOnly,
		"POST /crm/api/v1/invite/remove":          superOnly,
		"GET /crm/api/v1/profiles":                superOnly,
		"GET /crm/api/v1/organisations":           superOnly,
		"DELETE /crm/api/v1/organisations":        superOnly,
		"GET /api/profile":                        superOnly,
		"GET /api/external/v1/invite/crm/profile": object("org", "machineA", 200).withPath("/api/external/v1/invite/crm/profile?guid={obj}"),

		// tokens
		"GET /api/v1/tokens":                           listing("instAdmin", 200),
		"GET /api/v1/tokens/generate-token":            none("a fresh random value, bound to nothing yet"),
		"POST /api/v1/tokens":                          none("persists the caller's own generated token in the caller's organization"),
		"DELETE /api/v1/tokens/{id}":                   object("token", "instAdmin", 204).using("spareToken1"),
		"GET /api/v1/user_roles_audit/search":          object("role", "manager", 200).withPath("/api/v1/user_roles_audit/search?roleId={obj}"),
		"GET /api/v1/user_roles_audit/roles":           listing("instAdmin", 200),
		"GET /api/external/v1/tokens":                  listing("instAdmin", 200),
		"GET /api/external/v1/tokens/generate-token":   none("a fresh random value, bound to nothing yet"),
		"POST /api/external/v1/tokens":                 none("persists the caller's own generated token in the caller's organization"),
		"DELETE /api/external/v1/tokens/{id}":          object("token", "instAdmin", 204).using("spareToken2"),
		"GET /api/external/v1/user_roles_audit/search": object("role", "orgToken", 200).withPath("/api/external/v1/user_roles_audit/search?roleId={obj}"),
		"GET /api/external/v1/user_roles_audit/roles":  listing("orgToken", 200),

		// system
		"GET /health":                                                                 none("liveness"),
		"GET /api/docs/openapi.json":                                                  none("the API's document"),
		"GET /api/docs":                                                               none("the API's document"),
		"GET /api/docs/assets/{file}":                                                 none("the API's document"),
		"POST /api/v1/validations/validate":                                           none("checks a value's format"),
		"POST /api/external/v1/validations/validate":                                  none("checks a value's format"),
		"GET /api/v1/manage/applications":                                             listing("instAdmin", 200),
		"GET /api/v1/manage/providers":                                                superOnly,
		"GET /api/v1/manage/all-applications":                                         none("the federation's application catalogue, public metadata"),
		"GET /api/v1/manage/identity-providers":                                       superOnly,
		"GET /api/v1/manage/requested-authn-context-values":                           none("a fixed list"),
		"GET /api/v1/manage/provisionings/{id}":                                       object("application", "instAdmin", 200),
		"GET /api/v1/manage/eduid-identity-provider":                                  none("answered as absent to everybody"),
		"GET /api/v1/manage/organization-guid-validation/{organizationGUID}":          superOnly,
		"GET /api/external/v1/manage/applications":                                    listing("orgToken", 200),
		"GET /api/external/v1/manage/providers":                                       superOnly,
		"GET /api/external/v1/manage/all-applications":                                none("the federation's application catalogue, public metadata"),
		"GET /api/external/v1/manage/identity-providers":                              superOnly,
		"GET /api/external/v1/manage/requested-authn-context-values":                  none("a fixed list"),
		"GET /api/external/v1/manage/provisionings/{id}":                              object("application", "instAdmin", 200),
		"GET /api/external/v1/manage/eduid-identity-provider":                         none("answered as absent to everybody"),
		"GET /api/external/v1/manage/organization-guid-validation/{organizationGUID}": superOnly,
		"GET /api/external/v1/system/crm/sync":                                        superOnly,
		"GET " + reg + "/applications":                                                listing("instAdmin", 200),
		"POST " + reg + "/applications": {kind: "object", object: "application", ownCaller: "instAdmin", ownStatus: 201, ownObj: "newApplication", createFresh: true,
			body: `{"manageId":"{obj}","manageType":"SAML20_SP","name":"New","landingPage":"https://new.example.org","provisionings":[]}`},
		"GET " + reg + "/applications/{manageId}": object("application", "instAdmin", 200),
		"PUT " + reg + "/applications/{manageId}": object("application", "instAdmin", 200).
			withBody(`{"manageType":"SAML20_SP","name":"Renamed","provisionings":[]}`),
		"DELETE " + reg + "/applications/{manageId}": object("application", "instAdmin", 204).using("spareApplication"),
		"GET " + reg + "/connections":                listing("instAdmin", 200),
		"POST " + reg + "/connections": {kind: "object", object: "connection", ownCaller: "instAdmin", ownStatus: 201, ownObj: "newConnection", createFresh: true,
			body: `{"id":"{obj}","baseUrl":"https://new.example.org/scim","auth":{"method":"bearer"},"secret":"tenant-secret-value"}`},
		"GET " + reg + "/connections/{id}": object("connection", "instAdmin", 200),
		"PUT " + reg + "/connections/{id}": object("connection", "instAdmin", 200).
			withBody(`{"baseUrl":"https://a.example.org/scim","auth":{"method":"bearer"}}`),
		"DELETE " + reg + "/connections/{id}":                 object("connection", "instAdmin", 204).using("spareConnection"),
		"POST " + reg + "/connections/{id}/test":              object("connection", "instAdmin", 200),
		"POST " + reg + "/import":                             superOnly,
		"GET " + reg + "/changes":                             superOnly,
		"GET /api/v1/manage/organizations":                    listing("instAdmin", 200),
		"POST /api/v1/manage/organizations":                   superOnly,
		"PUT /api/v1/manage/organizations/{organizationGUID}": superOnly,
	}
	for _, p := range []string{"GET /api/v1/system/expiry-user-roles", "GET /api/v1/system/cron/expiry-notifications", "GET /api/v1/system/cron/cleanup",
		"GET /api/v1/system/deliveries/failed", "POST /api/v1/system/deliveries/replay", "POST /api/v1/system/deliveries/discard",
		"POST /api/v1/system/deliveries/reconcile", "GET /api/v1/system/deliveries/reconcile/{id}", "GET /api/v1/system/mails", "POST /api/v1/system/mails/retry", "GET /api/v1/system/unknown-roles",
		"GET /api/v1/system/landing-page-fix", "GET /api/v1/system/date-repair", "POST /api/v1/system/date-repair", "POST /api/v1/system/index-repair",
		"PUT /api/v1/system/performance-seed", "GET /api/v1/system/jobs/{id}", "GET /api/v1/manage/provider/{type}/{id}",
		"GET /api/external/v1/system/expiry-user-roles", "GET /api/external/v1/system/cron/expiry-notifications", "GET /api/external/v1/system/cron/cleanup",
		"GET /api/external/v1/system/unknown-roles", "GET /api/external/v1/system/landing-page-fix", "PUT /api/external/v1/system/performance-seed", "GET /api/external/v1/system/jobs/{id}",
		"GET /api/external/v1/manage/provider/{type}/{id}"} {
		rules[p] = superOnly
	}
	return rules
}
