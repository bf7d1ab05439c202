package httpapi_test

// Rows of the console routes of OpenConext-Invite (reference_routes.go).
func consoleMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "managers of a role", method: "GET", path: "/api/v1/user_roles/managers/{roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "managers of a role of another organization", method: "GET", path: "/api/v1/user_roles/managers/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "consequences of deleting a role", method: "GET", path: "/api/v1/user_roles/consequences/{roleA}",
			want: upTo(200, "orgToken")},
		matrixCase{name: "consequences of deleting a role of another organization", method: "GET", path: "/api/v1/user_roles/consequences/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "institution admins of an organization", method: "GET", path: "/api/v1/users/institutionAdmins?organizationGUID=org-a",
			want: upTo(200, "orgToken")},
		// The world's institution admin was not made by invitation: the
		// rights stay (TestRemoveInstitutionAdmin removes one made by invitation).
		matrixCase{name: "remove an institution admin not made by invitation", method: "PUT", path: "/api/v1/users/removeInstitutionAdmin/{user:instAdmin}",
			want: w9(403, 403, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "application managers of an organization", method: "GET", path: "/api/v1/users/applicationManagers?organizationGUID=org-a",
			want: w9(200, 200, 200, 200, 403, 403, 403, 403, 401)},
		// The guest manages nothing: 404 to those who may remove.
		matrixCase{name: "remove an application manager who manages nothing", method: "PUT", path: "/api/v1/users/removeApplicationManager/{user:guest}",
			want: w9(404, 404, 404, 404, 403, 403, 403, 403, 401)},
		matrixCase{name: "validate a format", method: "POST", path: "/api/v1/validations/validate", body: `{"type":"email","value":"a@example.org"}`,
			want: upTo(200, "guest")},
		matrixCase{name: "validate a format (tokens)", method: "POST", path: "/api/external/v1/validations/validate", body: `{"type":"url","value":"https://example.org"}`,
			want: upTo(200, "guest")},
	)
	return cases
}

// Platform features: machine callers with the scope (TestPlatformFeatures)
// and super users; nobody else.
func platformMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "VOOT groups", method: "GET", path: "/api/external/v1/voot/urn:collab:person:example.org:guest",
			want: upTo(200, "superToken")},
		matrixCase{name: "attribute aggregation", method: "GET", path: "/api/external/v1/aa/urn:collab:person:example.org:guest",
			want: upTo(200, "superToken")},
		matrixCase{name: "user lifecycle export", method: "GET", path: "/api/external/v1/deprovision/urn:collab:person:example.org:guest",
			want: upTo(200, "superToken")},
		matrixCase{name: "user profile", method: "GET", path: "/api/external/v1/profile?collabPersonId=urn:collab:person:example.org:guest",
			want: w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "roles summary (internal invite API)", method: "GET", path: "/api/external/v1/internal/invite/roles-summary",
			want: w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "user lifecycle dry run", method: "DELETE", path: "/api/external/v1/deprovision/urn:collab:person:example.org:guest?dry-run=true",
			want: upTo(200, "superToken")},
	)
	return cases
}

// The /api/external/v1 twins of the reference's controllers mapped on both.
func externalTwinMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "managers of a role (external)", method: "GET", path: "/api/external/v1/user_roles/managers/{roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "consequences of deleting a role (external)", method: "GET", path: "/api/external/v1/user_roles/consequences/{roleA}",
			want: upTo(200, "orgToken")},
		matrixCase{name: "all open invitations (external)", method: "GET", path: "/api/external/v1/invitations/all",
			want: upTo(200, "superToken")},
		matrixCase{name: "open invitation by hash (external)", method: "GET", path: "/api/external/v1/invitations/public?hash={secretA}",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
	)
	return cases
}

func auditFilterMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "roles of the audit filter", method: "GET", path: "/api/v1/user_roles_audit/roles",
			want: upTo(200, "orgToken")},
	)
	return cases
}

// Routes of the reference answered by a README decision
// (reference_decisions.go): what each caller gets instead of a bare 404.
func decidedRouteMatrixCases() (cases []matrixCase) {
	for _, prefix := range []string{"/api/v1", "/api/external/v1"} {
		cases = append(cases,
			// People who invite may ask; there is no eduID IdP to give them.
			matrixCase{name: "eduID identity provider " + prefix, method: "GET", path: prefix + "/manage/eduid-identity-provider",
				want: w9(404, 404, 404, 404, 404, 404, 404, 403, 401)},
			matrixCase{name: "organization GUID validation " + prefix, method: "GET", path: prefix + "/manage/organization-guid-validation/org-a",
				want: upTo(404, "superToken")},
			// A browser back from Microsoft Entra, whoever it is: the welcome page.
			matrixCase{name: "Entra B2B accept return " + prefix, method: "GET", path: prefix + "/users/ms-accept-return/wiki/{user:guest}",
				want: w9(302, 302, 302, 302, 302, 302, 302, 302, 302)},
		)
	}
	cases = append(cases,
		matrixCase{name: "CRM sync report", method: "GET", path: "/api/external/v1/system/crm/sync",
			want: upTo(200, "superToken")},
		matrixCase{name: "user lifecycle dry run (reference path)", method: "DELETE", path: "/api/external/v1/deprovision/urn:collab:person:example.org:guest/dry-run",
			want: upTo(200, "superToken")},
		matrixCase{name: "I1 accept (external)", method: "POST", path: "/api/external/v1/invitations/accept",
			body: `{"hash":"{secretA}","invitationId":{invitationA}}`,
			want: w9(201, 401, 201, 401, 201, 201, 201, 201, 401)},
		matrixCase{name: "session sign-in on the token prefix", method: "GET", path: "/api/external/v1/users/login",
			want: w9(403, 403, 403, 403, 403, 403, 403, 403, 403)},
		matrixCase{name: "session sign-out on the token prefix", method: "GET", path: "/api/external/v1/users/logout",
			want: w9(403, 403, 403, 403, 403, 403, 403, 403, 403)},
		matrixCase{name: "session error report on the token prefix", method: "POST", path: "/api/external/v1/users/error", body: `{"name":"TypeError"}`,
			want: w9(403, 403, 403, 403, 403, 403, 403, 403, 403)},
	)
	return cases
}
