package httpapi

import (
	"net/http"
	"slices"

	"github.com/edu-invite/invite/shared/domain"
)

// Group names a resource group, i.e. one API Lambda.
type Group string

const (
	GroupUsers       Group = "users"
	GroupRoles       Group = "roles"
	GroupInvitations Group = "invitations"
	GroupCRM         Group = "crm"
	GroupTokens      Group = "tokens"
	GroupSystem      Group = "system"
)

// Prefixes are the path prefixes API Gateway routes to each group's Lambda
// (the CDK stack declares the same routes). Every route of a group in
// routeTable lies under one of its prefixes; TestOpenAPIDocumentsEveryRoute
// checks it.
var Prefixes = map[Group][]string{
	GroupUsers: {"/api/v1/users", "/api/external/v1/users", "/api/v1/user_roles", "/api/external/v1/user_roles", "/api/external/v1/internal/invite/user_roles",
		"/api/external/v1/voot", "/api/external/v1/aa", "/api/external/v1/deprovision", "/api/external/v1/profile"},
	GroupRoles:       {"/api/v1/roles", "/api/internal/roles", "/api/external/v1/roles", "/api/external/v1/internal/invite/roles", "/api/external/v1/internal/invite/roles-summary"},
	GroupInvitations: {"/api/v1/invitations", "/api/internal/invitations", "/api/external/v1/invitations", "/api/external/v1/internal/invite/invitations"},
	GroupCRM:         {"/crm", "/api/profile", "/api/external/v1/invite/crm"},
	GroupTokens:      {"/api/v1/tokens", "/api/v1/user_roles_audit", "/api/external/v1/tokens", "/api/external/v1/user_roles_audit"},
	GroupSystem:      {"/api/v1/system", "/api/v1/manage", "/api/external/v1/system", "/api/external/v1/manage", "/api/docs", "/health", "/api/v1/validations", "/api/external/v1/validations"},
}

// WebRoutes are documented operations that the pages (shared/web) serve,
// not this package: the reference client's session routes need the browser
// session, so API Gateway sends exactly these paths to the web function
// (infra), and the local stack mounts them there (web.Mounts).
var WebRoutes = []string{"GET /api/v1/users/login", "GET /api/v1/users/logout", "GET /api/v1/csrf",
	"POST /api/v1/users/error", "GET /api/v1/disclaimer"}

// route is one line of the route table: a "METHOD /path" pattern and the
// handler that serves it.
type route struct {
	pattern string
	handler http.HandlerFunc
	// documents lists the documented patterns a wider pattern serves, when
	// net/http refuses to register them side by side (see userSection and
	// roleAspect); empty means the pattern documents itself.
	documents []string
}

// routeTable is every route of the JSON API, by Lambda group. Handlers
// check the caller themselves (requireCaller and friends, middleware.go);
// superUser wraps the operations only super users may call. The operation
// codes of the reference (U1, R5, ...) are keyed in OPERATIONS.md.
func (a *API) routeTable() map[Group][]route {
	const registry = "/api/v1/manage/registry"
	apps, conns := a.applications(), a.connections()
	return map[Group][]route{
		// users: the signed-in user and user search; memberships
		// (user_roles, on /api/v1 and /api/external/v1 as the reference maps
		// its user-role controller on both, the member list also for the
		// internal machine callers); and OpenConext-Invite's platform
		// features VOOT, attribute aggregation and the user lifecycle API.
		GroupUsers: {
			{"GET /api/v1/users/me", a.me, nil},
			{"GET /api/v1/users/config", a.sessionConfig, nil},
			{"GET /api/v1/users/search", a.searchUsers, nil},
			{"GET /api/v1/users/search-by-application", a.searchUsers, nil},
			{"DELETE /api/v1/users/{id}", a.deleteUser, nil},
			{pattern: "GET /api/v1/users/{section}/{param}", handler: a.userSection,
				documents: []string{"GET /api/v1/users/other/{id}", "GET /api/v1/users/institution-admins/{roleId}"}},
			{"GET /api/v1/users/{id}/provisioning", a.userProvisioning, nil},
			{"GET /api/v1/users/institutionAdmins", a.organizationInstitutionAdmins, nil},
			{"PUT /api/v1/users/removeInstitutionAdmin/{id}", a.removeInstitutionAdmin, nil},
			{"GET /api/v1/users/applicationManagers", a.applicationManagers, nil},
			{"PUT /api/v1/users/removeApplicationManager/{id}", a.removeApplicationManager, nil},
			// The /api/external/v1 twins (the reference maps its user
			// controller on both prefixes); no provisioning twin, so the
			// two-segment paths need no userSection here.
			{"GET /api/external/v1/users/me", a.me, nil},
			{"GET /api/external/v1/users/config", a.sessionConfig, nil},
			{"GET /api/external/v1/users/search", a.searchUsers, nil},
			{"GET /api/external/v1/users/search-by-application", a.searchUsers, nil},
			{"DELETE /api/external/v1/users/{id}", a.deleteUser, nil},
			{"GET /api/external/v1/users/other/{id}", a.otherUser, nil},
			{"GET /api/external/v1/users/institution-admins/{roleId}", a.institutionAdmins, nil},
			{"GET /api/external/v1/users/institutionAdmins", a.organizationInstitutionAdmins, nil},
			{"PUT /api/external/v1/users/removeInstitutionAdmin/{id}", a.removeInstitutionAdmin, nil},
			{"GET /api/external/v1/users/applicationManagers", a.applicationManagers, nil},
			{"PUT /api/external/v1/users/removeApplicationManager/{id}", a.removeApplicationManager, nil},
			// Decided answers (reference_decisions.go, README decisions):
			// the Entra B2B return goes to the welcome page; the session
			// routes on the token prefix answer 403 naming the /api/v1 route.
			{"GET /api/v1/users/ms-accept-return/{manageId}/{userId}", a.msAcceptReturn, nil},
			{"GET /api/external/v1/users/ms-accept-return/{manageId}/{userId}", a.msAcceptReturn, nil},
			{"GET /api/external/v1/users/login", browserSessionOnly, nil},
			{"GET /api/external/v1/users/logout", browserSessionOnly, nil},
			{"POST /api/external/v1/users/error", browserSessionOnly, nil},

			{"PUT /api/v1/user_roles", a.updateEndDate, nil},
			{"PUT /api/external/v1/user_roles", a.updateEndDate, nil},
			{"GET /api/v1/user_roles/roles/{roleId}", a.membersOfRole, nil},
			{"GET /api/external/v1/user_roles/roles/{roleId}", a.membersOfRole, nil},
			{"GET /api/external/v1/internal/invite/user_roles/{roleId}", a.membersOfRole, nil},
			{"GET /api/v1/user_roles/search/{roleId}/{guests}", a.searchMembersOfRole, nil},
			{"GET /api/external/v1/user_roles/search/{roleId}/{guests}", a.searchMembersOfRole, nil},
			{"POST /api/v1/user_roles/user_role_provisioning", a.provisionUserRoles, nil},
			{"POST /api/external/v1/user_roles/user_role_provisioning", a.provisionUserRoles, nil},
			{"DELETE /api/v1/user_roles/{id}/{isGuest}", a.removeUserRole, nil},
			{"DELETE /api/external/v1/user_roles/{id}/{isGuest}", a.removeUserRole, nil},
			{"GET /api/v1/user_roles/managers/{roleId}", a.roleManagerEmails, nil},
			{"GET /api/external/v1/user_roles/managers/{roleId}", a.roleManagerEmails, nil},
			{"GET /api/v1/user_roles/consequences/{roleId}", a.roleDeletionConsequences, nil},
			{"GET /api/external/v1/user_roles/consequences/{roleId}", a.roleDeletionConsequences, nil},

			{"GET /api/external/v1/voot/{id}", a.vootGroups, nil},
			{"GET /api/external/v1/aa/{id}", a.aggregatedAttributes, nil},
			{"GET /api/external/v1/deprovision/{id}", a.deprovision(false), nil},
			{"DELETE /api/external/v1/deprovision/{id}", a.deprovision(true), nil},
			{"DELETE /api/external/v1/deprovision/{id}/dry-run", a.deprovisionDryRun, nil},
			{"GET /api/external/v1/profile", a.userProfile, nil},
		},

		// roles: create, read, update, delete and list roles; the same
		// operations under the reference's external and internal
		// (InternalInviteController) prefixes.
		GroupRoles: {
			{"POST /api/v1/roles", a.createRole, nil},
			{"POST /api/external/v1/roles", a.createRole, nil},
			{"POST /api/external/v1/internal/invite/roles", a.createRole, nil},
			{"GET /api/v1/roles/{id}", a.getRole, nil},
			{"GET /api/external/v1/roles/{id}", a.getRole, nil},
			{"GET /api/external/v1/internal/invite/roles/{id}", a.getRole, nil},
			// The reference answers the internal update with 201; an update
			// answers 200 on every path here (issue 21 item 7, a README
			// decision).
			{"PUT /api/v1/roles", a.updateRole(http.StatusOK), nil},
			{"PUT /api/external/v1/roles", a.updateRole(http.StatusOK), nil},
			{"PUT /api/external/v1/internal/invite/roles", a.updateRole(http.StatusOK), nil},
			{"DELETE /api/v1/roles/{id}", a.deleteRole, nil},
			{"DELETE /api/internal/roles/{id}", a.deleteRole, nil},
			{"DELETE /api/external/v1/roles/{id}", a.deleteRole, nil},
			{"DELETE /api/external/v1/internal/invite/roles/{id}", a.deleteRole, nil},
			{"GET /api/v1/roles", a.listRoles, nil},
			{"GET /api/external/v1/roles", a.listRoles, nil},
			{"GET /api/external/v1/internal/invite/roles", a.allVisibleRoles, nil},
			{"GET /api/external/v1/internal/invite/roles-summary", a.rolesSummary, nil},
			{pattern: "GET /api/v1/roles/{id}/{aspect}", handler: a.roleAspect,
				documents: []string{"GET /api/v1/roles/application/{manageId}", "GET /api/v1/roles/{id}/provisioning"}},
			{"GET /api/external/v1/roles/application/{manageId}", a.rolesOfApplication, nil},
			{"GET /api/external/v1/internal/invite/roles/{organizationGUID}/{manageId}", a.rolesOfOrganizationApplication, nil},
		},

		// invitations: invite, the guest's view and acceptance, and the
		// inviter's search, resend and delete.
		GroupInvitations: {
			{"POST /api/v1/invitations", a.invite(false), nil},
			{"POST /api/external/v1/invitations", a.invite(false), nil},
			{"POST /api/external/v1/internal/invite/invitations", a.invite(true), nil},
			{"POST /api/internal/invitations", a.invite(true), nil},
			{"GET /api/v1/invitations/public", a.openInvitation, nil},
			{"GET /api/external/v1/invitations/public", a.openInvitation, nil},
			{"POST /api/v1/invitations/accept", a.accept, nil},
			{"POST /api/external/v1/invitations/accept", a.accept, nil},
			{"GET /api/v1/invitations/search", a.searchInvitations, nil},
			{"GET /api/external/v1/invitations/search", a.searchInvitations, nil},
			{"GET /api/v1/invitations/all", a.allOpenInvitations, nil},
			{"GET /api/external/v1/invitations/all", a.allOpenInvitations, nil},
			{"GET /api/v1/invitations/roles/{roleId}", a.roleInvitations, nil},
			{"GET /api/external/v1/invitations/roles/{roleId}", a.roleInvitations, nil},
			{"GET /api/v1/invitations/mine", a.myInvitations, nil},
			{"GET /api/external/v1/invitations/mine", a.myInvitations, nil},
			{"PUT /api/v1/invitations/{id}", a.resendInvitation, nil},
			{"PUT /api/external/v1/invitations/{id}", a.resendInvitation, nil},
			{"PUT /api/external/v1/internal/invite/invitations/{id}", a.resendInvitation, nil},
			{"DELETE /api/v1/invitations/{id}", a.deleteInvitation, nil},
			{"DELETE /api/external/v1/invitations/{id}", a.deleteInvitation, nil},
		},

		// crm: the CRM integration (profiles and invitations by CRM ids).
		GroupCRM: {
			{"POST /crm/profile", a.crmProfile, nil},
			{"DELETE /crm/profile", a.crmDeleteProfile, nil},
			{"POST /crm/api/v1/invite/send", a.crmSendInvitation, nil},
			{"POST /crm/api/v1/invite/resend", a.crmResendInvitation, nil},
			{"POST /crm/api/v1/invite/remove", a.crmRemoveRoles, nil},
			{"GET /crm/api/v1/profiles", a.crmOrganisationUsers, nil},
			{"GET /crm/api/v1/organisations", a.crmOrganisations, nil},
			{"DELETE /crm/api/v1/organisations", a.crmDeleteOrganisation, nil},
			{"GET /api/profile", a.crmProfiles, nil},
			{"GET /api/external/v1/invite/crm/profile", a.crmProfiles, nil},
		},

		// tokens: the institution's API tokens and the membership audit. A
		// token value is shown once, by generate-token; POST persists the
		// value generated last (its hash only), and no answer ever shows a
		// value or a hash again.
		GroupTokens: {
			{"GET /api/v1/tokens", a.listTokens, nil},
			{"GET /api/v1/tokens/generate-token", a.generateToken, nil},
			{"POST /api/v1/tokens", a.createToken, nil},
			{"DELETE /api/v1/tokens/{id}", a.deleteToken, nil},
			{"GET /api/v1/user_roles_audit/search", a.searchAudit, nil},
			{"GET /api/v1/user_roles_audit/roles", a.auditRoles, nil},
			{"GET /api/external/v1/tokens", a.listTokens, nil},
			{"GET /api/external/v1/tokens/generate-token", a.generateToken, nil},
			{"POST /api/external/v1/tokens", a.createToken, nil},
			{"DELETE /api/external/v1/tokens/{id}", a.deleteToken, nil},
			{"GET /api/external/v1/user_roles_audit/search", a.searchAudit, nil},
			{"GET /api/external/v1/user_roles_audit/roles", a.auditRoles, nil},
		},

		// system: health, API docs, the console's format checks, the super
		// users' cron, delivery, mail and maintenance operations, and the
		// application registry with SCIM connections and the reference's
		// manage lookups (registry handlers leave authorization to the
		// service: super users all, institution admins their own
		// institution's).
		GroupSystem: {
			{"GET /health", health, nil},
			{"GET /api/docs/openapi.json", serveOpenAPI, nil},
			{"GET /api/docs", serveDocsPage, nil},
			{"GET /api/docs/assets/{file}", serveDocsAsset, nil},
			{"POST /api/v1/validations/validate", a.validate, nil},
			{"POST /api/external/v1/validations/validate", a.validate, nil},

			{"GET /api/v1/system/expiry-user-roles", a.superUser(a.expiringUserRoles), nil},
			{"GET /api/v1/system/cron/expiry-notifications", a.superUser(a.startJob(domain.JobReminders, jobsPath)), nil},
			{"GET /api/v1/system/cron/cleanup", a.superUser(a.startJob(domain.JobCleanup, jobsPath)), nil},
			{"GET /api/v1/system/deliveries/failed", a.superUser(a.failedDeliveries), nil},
			{"POST /api/v1/system/deliveries/replay", a.superUser(a.replayDeliveries), nil},
			{"POST /api/v1/system/deliveries/discard", a.superUser(a.discardDeliveries), nil},
			{"POST /api/v1/system/deliveries/reconcile", a.superUser(a.reconcileSP), nil},
			{"GET /api/v1/system/deliveries/reconcile/{id}", a.superUser(a.reconcileJob), nil},
			{"GET /api/v1/system/mails", a.superUser(a.undeliveredMails), nil},
			{"POST /api/v1/system/mails/retry", a.superUser(a.retryMails), nil},
			{"GET /api/v1/system/unknown-roles", a.superUser(a.unknownRoles), nil},
			{"GET /api/v1/system/landing-page-fix", a.superUser(a.startJob(domain.JobLandingPageFix, jobsPath)), nil},
			{"GET /api/v1/system/date-repair", a.superUser(a.startJob(domain.JobDateCheck, jobsPath)), nil},
			{"POST /api/v1/system/date-repair", a.superUser(a.startJob(domain.JobDateRepair, jobsPath)), nil},
			{"POST /api/v1/system/index-repair", a.superUser(a.startJob(domain.JobIndexRepair, jobsPath)), nil},
			{"PUT /api/v1/system/performance-seed", a.superUser(a.startJob(domain.JobPerformanceSeed, jobsPath)), nil},
			// The cron, repair and seed operations above run longer than
			// a request: they answer 202 with the job polled here.
			{"GET /api/v1/system/jobs/{id}", a.superUser(a.job(jobsPath)), nil},

			{"GET /api/v1/manage/provider/{type}/{id}", a.superUser(a.providerMetadata), nil},
			{"GET /api/v1/manage/applications", a.manageApplications, nil},
			{"GET /api/v1/manage/providers", a.manageProviders, nil},
			{"GET /api/v1/manage/all-applications", a.allApplications, nil},
			{"GET /api/v1/manage/identity-providers", a.identityProviders, nil},
			{"GET /api/v1/manage/requested-authn-context-values", a.authnContextValues, nil},
			{"GET /api/v1/manage/provisionings/{id}", a.hasProvisioning, nil},
			{"GET /api/v1/manage/eduid-identity-provider", a.eduIDIdentityProvider, nil},
			{"GET /api/v1/manage/organization-guid-validation/{organizationGUID}", a.organizationGUIDValidation, nil},
			// The reference's system and manage controllers are mapped on
			// /api/external/v1 too (super users and API tokens).
			{"GET /api/external/v1/system/expiry-user-roles", a.superUser(a.expiringUserRoles), nil},
			{"GET /api/external/v1/system/cron/expiry-notifications", a.superUser(a.startJob(domain.JobReminders, externalJobsPath)), nil},
			{"GET /api/external/v1/system/cron/cleanup", a.superUser(a.startJob(domain.JobCleanup, externalJobsPath)), nil},
			{"GET /api/external/v1/system/unknown-roles", a.superUser(a.unknownRoles), nil},
			{"GET /api/external/v1/system/landing-page-fix", a.superUser(a.startJob(domain.JobLandingPageFix, externalJobsPath)), nil},
			{"PUT /api/external/v1/system/performance-seed", a.superUser(a.startJob(domain.JobPerformanceSeed, externalJobsPath)), nil},
			{"GET /api/external/v1/system/jobs/{id}", a.superUser(a.job(externalJobsPath)), nil},
			{"GET /api/external/v1/manage/provider/{type}/{id}", a.superUser(a.providerMetadata), nil},
			{"GET /api/external/v1/manage/applications", a.manageApplications, nil},
			{"GET /api/external/v1/manage/providers", a.manageProviders, nil},
			{"GET /api/external/v1/manage/all-applications", a.allApplications, nil},
			{"GET /api/external/v1/manage/identity-providers", a.identityProviders, nil},
			{"GET /api/external/v1/manage/requested-authn-context-values", a.authnContextValues, nil},
			{"GET /api/external/v1/manage/provisionings/{id}", a.hasProvisioning, nil},
			{"GET /api/external/v1/manage/eduid-identity-provider", a.eduIDIdentityProvider, nil},
			{"GET /api/external/v1/manage/organization-guid-validation/{organizationGUID}", a.organizationGUIDValidation, nil},
			{"GET /api/external/v1/system/crm/sync", a.crmSyncReport, nil},
			{"GET " + registry + "/applications", apps.listAll, nil},
			{"POST " + registry + "/applications", apps.createOne, nil},
			{"GET " + registry + "/applications/{manageId}", apps.getOne, nil},
			{"PUT " + registry + "/applications/{manageId}", apps.updateOne, nil},
			{"DELETE " + registry + "/applications/{manageId}", apps.deleteOne, nil},
			{"GET " + registry + "/connections", conns.listAll, nil},
			{"POST " + registry + "/connections", conns.createOne, nil},
			{"GET " + registry + "/connections/{id}", conns.getOne, nil},
			{"PUT " + registry + "/connections/{id}", conns.updateOne, nil},
			{"DELETE " + registry + "/connections/{id}", conns.deleteOne, nil},
			{"POST " + registry + "/connections/{id}/test", a.testConnection, nil},
			{"POST " + registry + "/import", a.importRegistry, nil},
			{"GET " + registry + "/changes", a.registryChanges, nil},
			// Organizations' names, kept by the service (organizations.go).
			{"GET /api/v1/manage/organizations", a.listOrganizations, nil},
			{"POST /api/v1/manage/organizations", a.createOrganization, nil},
			{"PUT /api/v1/manage/organizations/{organizationGUID}", a.renameOrganization, nil},
		},
	}
}

// mux serves the routes of one group.
func (a *API) mux(g Group) *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range a.routeTable()[g] {
		mux.HandleFunc(rt.pattern, rt.handler)
	}
	return mux
}

// Routes lists the documented "METHOD /path" patterns a group serves,
// sorted, so that the OpenAPI document can be checked against what is
// really served (no route undocumented, no documented route missing).
func (a *API) Routes(g Group) []string {
	var patterns []string
	for _, rt := range a.routeTable()[g] {
		if len(rt.documents) == 0 {
			patterns = append(patterns, rt.pattern)
		}
		patterns = append(patterns, rt.documents...)
	}
	slices.Sort(patterns)
	return patterns
}

// userSection serves two-segment paths under /api/v1/users
// ("/api/v1/users/<section>/{param}"). They cannot be registered one by
// one: "GET /api/v1/users/other/{id}" and "GET
// /api/v1/users/{id}/provisioning" both match
// "/api/v1/users/other/provisioning" and neither is more specific, which
// net/http refuses. So one wider pattern is registered and dispatches by
// section; unknown sections are 404.
func (a *API) userSection(w http.ResponseWriter, r *http.Request) {
	switch r.PathValue("section") {
	case "other":
		r.SetPathValue("id", r.PathValue("param"))
		a.otherUser(w, r)
	case "institution-admins":
		r.SetPathValue("roleId", r.PathValue("param"))
		a.institutionAdmins(w, r)
	default:
		notFound(w, r)
	}
}

// roleAspect serves "GET /api/v1/roles/application/{manageId}" and "GET
// /api/v1/roles/{id}/provisioning", which overlap
// ("/api/v1/roles/application/provisioning" matches both) so that net/http
// refuses to register them side by side; the application path wins, as
// its literal segment comes first.
func (a *API) roleAspect(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.PathValue("id") == "application":
		r.SetPathValue("manageId", r.PathValue("aspect"))
		a.rolesOfApplication(w, r)
	case r.PathValue("aspect") == "provisioning":
		a.roleProvisioning(w, r)
	default:
		writeError(w, r, domain.NotFoundf("no such resource: %s", r.URL.Path))
	}
}
