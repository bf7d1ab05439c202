package httpapi_test

// The registry's applications and SCIM connections (issue 16): super users
// manage all, institution admins (org-a) their own institution's (wiki,
// spare-app, sp-a, sp-b, sp-spare); lms and drive belong to none, so they
// are not found for the institution admin. Tokens of an organization and
// role members may not manage the registry.
func registryMatrixCases() (cases []matrixCase) {
	reg := "/api/v1/manage/registry"
	admins := func(super, inst int) [9]int { return w9(super, super, inst, 403, 403, 403, 403, 403, 401) }
	su := func(status int) [9]int { return w9(status, status, 403, 403, 403, 403, 403, 403, 401) }
	app := `{"manageId": "new-app", "manageType": "SAML20_SP", "name": "New", "nameNl": "Nieuw", "landingPage": "https://new.example.org", "provisionings": ["sp-a"]}`
	conn := `{"id": "sp-new", "baseUrl": "https://new.example.org/scim", "auth": {"method": "bearer"}, "secret": "matrix-secret-value"}`
	refConn := `{"id": "sp-ref", "baseUrl": "https://ref.example.org/scim", "auth": {"method": "bearer", "token": "secretsmanager:elsewhere/sp-ref"}}`
	doc := `{"applications": [{"manageId": "imported", "manageType": "OIDC10_RP", "provisionings": ["sp-imp"]}],
	  "provisionings": [{"id": "sp-imp", "baseUrl": "https://imp.example.org", "auth": {"method": "basic", "username": "u", "password": "env:WORLD_SP_IMP"}}]}`
	cases = append(cases,
		matrixCase{name: "registry list applications", method: "GET", path: reg + "/applications", want: admins(200, 200)},
		matrixCase{name: "registry read own application", method: "GET", path: reg + "/applications/wiki", want: admins(200, 200)},
		matrixCase{name: "registry read other application", method: "GET", path: reg + "/applications/lms", want: admins(200, 404)},
		matrixCase{name: "registry create application", method: "POST", path: reg + "/applications", body: app, want: admins(201, 201)},
		matrixCase{name: "registry create application, unknown connection", method: "POST", path: reg + "/applications",
			body: `{"manageId": "x", "manageType": "SAML20_SP", "provisionings": ["nope"]}`, want: admins(400, 400)},
		matrixCase{name: "registry update own application", method: "PUT", path: reg + "/applications/wiki",
			body: `{"manageType": "SAML20_SP", "name": "Wiki 2", "provisionings": ["sp-a"]}`, want: admins(200, 200)},
		matrixCase{name: "registry update other application", method: "PUT", path: reg + "/applications/lms",
			body: `{"manageType": "OIDC10_RP", "name": "LMS"}`, want: admins(200, 404)},
		matrixCase{name: "registry delete unused application", method: "DELETE", path: reg + "/applications/spare-app", want: admins(204, 204)},
		matrixCase{name: "registry delete application in use", method: "DELETE", path: reg + "/applications/wiki", want: admins(409, 409)},
		matrixCase{name: "registry list connections", method: "GET", path: reg + "/connections", want: admins(200, 200)},
		matrixCase{name: "registry read connection", method: "GET", path: reg + "/connections/sp-a", want: admins(200, 200)},
		matrixCase{name: "registry create connection", method: "POST", path: reg + "/connections", body: conn, want: admins(201, 201)},
		matrixCase{name: "registry create connection by reference", method: "POST", path: reg + "/connections", body: refConn, want: admins(201, 400)},
		matrixCase{name: "registry update connection keeps credential", method: "PUT", path: reg + "/connections/sp-a",
			body: `{"name": "SP A", "baseUrl": "https://A.example.org:443/scim/", "auth": {"method": "bearer"}}`, want: admins(200, 200)},
		matrixCase{name: "registry update connection address needs credential", method: "PUT", path: reg + "/connections/sp-a",
			body: `{"baseUrl": "https://a2.example.org/scim", "auth": {"method": "bearer"}}`, want: admins(400, 400)},
		matrixCase{name: "registry delete unused connection", method: "DELETE", path: reg + "/connections/sp-spare", want: admins(204, 204)},
		matrixCase{name: "registry delete connection in use", method: "DELETE", path: reg + "/connections/sp-a", want: admins(409, 409)},
		matrixCase{name: "registry test connection", method: "POST", path: reg + "/connections/sp-a/test", want: admins(200, 200)},
		matrixCase{name: "registry import", method: "POST", path: reg + "/import", body: doc, want: su(200)},
		matrixCase{name: "registry changes", method: "GET", path: reg + "/changes", want: su(200)},
		// Organizations' names: every caller of an organization reads its
		// own; only super users name them.
		matrixCase{name: "organizations list", method: "GET", path: "/api/v1/manage/organizations", want: upTo(200, "orgToken")},
		matrixCase{name: "organization create", method: "POST", path: "/api/v1/manage/organizations",
			body: `{"organizationGUID": "org-new", "name": "New University"}`, want: su(201)},
		matrixCase{name: "organization create without a name", method: "POST", path: "/api/v1/manage/organizations",
			body: `{"organizationGUID": "org-new"}`, want: w9(400, 400, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "organization rename", method: "PUT", path: "/api/v1/manage/organizations/org-a",
			body: `{"name": "Organization A"}`, want: su(200)},
		matrixCase{name: "organization rename unknown", method: "PUT", path: "/api/v1/manage/organizations/org-nobody",
			body: `{"name": "Nobody"}`, want: w9(404, 404, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "manage providers", method: "GET", path: "/api/v1/manage/providers", want: su(200)},
		matrixCase{name: "manage all applications", method: "GET", path: "/api/v1/manage/all-applications", want: admins(200, 200)},
		matrixCase{name: "manage identity providers", method: "GET", path: "/api/v1/manage/identity-providers", want: su(200)},
		matrixCase{name: "manage provisionings of an application", method: "GET", path: "/api/v1/manage/provisionings/wiki", want: admins(200, 200)},
		matrixCase{name: "manage requested authn context values", method: "GET", path: "/api/v1/manage/requested-authn-context-values",
			want: upTo(200, "guest")},
	)
	return cases
}
