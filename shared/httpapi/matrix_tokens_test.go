package httpapi_test

func tokenMatrixCases() (cases []matrixCase) {
	// Token administration: super users (people and super-user tokens) and
	// institution admins; organization tokens may not mint or drop tokens.
	admins := func(ok, forbidden int) [9]int { return w9(ok, ok, ok, forbidden, 403, 403, 403, 403, 401) }
	cases = append(cases,
		matrixCase{name: "T list tokens", method: "GET", path: "/api/v1/tokens", want: admins(200, 403)},
		matrixCase{name: "T generate token", method: "GET", path: "/api/v1/tokens/generate-token", want: admins(200, 403)},
		matrixCase{name: "T1 persist without a generated token", method: "POST", path: "/api/v1/tokens",
			body: `{"description":"ci","organizationGUID":"org-a"}`, want: admins(400, 403)},
		// World token 2 is org-a's, token 1 the super-user token.
		matrixCase{name: "T delete organization token", method: "DELETE", path: "/api/v1/tokens/2", want: admins(204, 403)},
		matrixCase{name: "T delete super-user token", method: "DELETE", path: "/api/v1/tokens/1",
			want: w9(204, 204, 404, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "T delete unknown token", method: "DELETE", path: "/api/v1/tokens/987654", want: admins(404, 403)},
		matrixCase{name: "A1 audit of all roles", method: "GET", path: "/api/v1/user_roles_audit/search",
			want: upTo(200, "superToken")},
		matrixCase{name: "A1 audit of role A", method: "GET", path: "/api/v1/user_roles_audit/search?roleId={roleA}&query=example",
			want: upTo(200, "manager")},
		matrixCase{name: "A1 audit of role B (other organization)", method: "GET", path: "/api/v1/user_roles_audit/search?roleId={roleB}",
			want: foreignObject(200)},
		matrixCase{name: "A1 audit of an unknown (or deleted) role", method: "GET", path: "/api/v1/user_roles_audit/search?roleId=987654",
			want: w9(200, 200, 404, 404, 404, 404, 404, 404, 401)},
		matrixCase{name: "A1 bad roleId", method: "GET", path: "/api/v1/user_roles_audit/search?roleId=abc",
			want: upTo(400, "guest")},
	)
	return cases
}
