package httpapi_test

func roleMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "R4 role by id", method: "GET", path: "/api/v1/roles/{roleA}",
			want: upTo(200, "guest")},
		matrixCase{name: "R4 role of another organization", method: "GET", path: "/api/v1/roles/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "R3 create role in own organization", method: "POST", path: "/api/v1/roles",
			body: `{"name":"New","organizationGUID":"org-a","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki","manageType":"SAML20_SP"}}]}`,
			want: upTo(201, "orgToken")},
		// Callers of an organization create in their own, whatever the body
		// says (TestRoleOrganizationIsTheCallers).
		matrixCase{name: "R3 create role in another organization", method: "POST", path: "/api/v1/roles",
			body: `{"name":"New","organizationGUID":"org-b","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms","manageType":"OIDC10_RP"}}]}`,
			want: upTo(201, "orgToken")},
		matrixCase{name: "R3 create role without organization", method: "POST", path: "/api/v1/roles",
			body: `{"name":"New","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms","manageType":"OIDC10_RP"}}]}`,
			want: w9(403, 403, 201, 201, 403, 403, 403, 403, 401)},
		matrixCase{name: "R8 delete role", method: "DELETE", path: "/api/v1/roles/{roleA}",
			want: w9(204, 204, 204, 204, 204, 204, 400, 400, 401)},
		matrixCase{name: "R8 delete role of another organization", method: "DELETE", path: "/api/internal/roles/{roleB}",
			want: foreignObject(204)},
		matrixCase{name: "R8 delete role of another organization (/api/v1)", method: "DELETE", path: "/api/v1/roles/{roleB}",
			want: foreignObject(204)},
		matrixCase{name: "R8 delete role 0", method: "DELETE", path: "/api/v1/roles/0",
			want: upTo(404, "guest")},
		matrixCase{name: "R8 delete unknown role", method: "DELETE", path: "/api/v1/roles/999999",
			want: upTo(404, "guest")},
		matrixCase{name: "role provisioning status", method: "GET", path: "/api/v1/roles/{roleA}/provisioning",
			want: upTo(200, "guest")},
	)

	// List, update, roles of an application and of an organization's
	// application, and the internal variants (roles_manage.go).
	cases = append(cases,
		matrixCase{name: "R1 list roles", method: "GET", path: "/api/v1/roles",
			want: upTo(200, "inviter")},
		matrixCase{name: "R1 list roles paged with a query", method: "GET", path: "/api/external/v1/roles?force=false&query=role&pageSize=2",
			want: upTo(200, "inviter")},
		matrixCase{name: "R1 internal list of roles", method: "GET", path: "/api/external/v1/internal/invite/roles",
			want: upTo(200, "inviter")},
		matrixCase{name: "R5 roles of an application", method: "GET", path: "/api/v1/roles/application/wiki",
			want: upTo(200, "inviter")},
		matrixCase{name: "R5 roles of an application (tokens)", method: "GET", path: "/api/external/v1/roles/application/lms",
			want: upTo(200, "inviter")},
		matrixCase{name: "R7 roles of own organization and application", method: "GET", path: "/api/external/v1/internal/invite/roles/org-a/wiki",
			want: upTo(200, "orgToken")},
		matrixCase{name: "R7 roles of another organization", method: "GET", path: "/api/external/v1/internal/invite/roles/org-b/lms",
			want: w9(200, 200, 200, 200, 403, 403, 403, 403, 401)}, // as an organization without roles
		matrixCase{name: "R4 internal role by id", method: "GET", path: "/api/external/v1/internal/invite/roles/{roleA}",
			want: upTo(200, "guest")},
		matrixCase{name: "R2 rename role A", method: "PUT", path: "/api/v1/roles",
			body: `{"id":{roleA},"name":"Role A renamed","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki","manageType":"SAML20_SP"}}]}`,
			want: upTo(200, "manager")},
		matrixCase{name: "R2 change the applications of role A", method: "PUT", path: "/api/external/v1/roles",
			body: `{"id":{roleA},"name":"Role A","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms"}}]}`,
			want: upTo(200, "manager")}, // a manager's change is ignored (TestRoleOrganizationIsTheCallers)
		matrixCase{name: "R2 update a role of another organization", method: "PUT", path: "/api/external/v1/internal/invite/roles",
			body: `{"id":{roleB},"name":"Role B renamed","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms"}}]}`,
			want: foreignObject(200)},
		matrixCase{name: "R6 internal create role", method: "POST", path: "/api/external/v1/internal/invite/roles",
			body: `{"name":"New","organizationGUID":"org-a","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki"}}]}`,
			want: upTo(201, "orgToken")},
		matrixCase{name: "R8 internal delete role", method: "DELETE", path: "/api/external/v1/internal/invite/roles/{roleA}",
			want: w9(204, 204, 204, 204, 204, 204, 400, 400, 401)},
	)
	return cases
}
