package httpapi_test

func init() {
	matrixCases = append(matrixCases,
		matrixCase{name: "R4 role by id", method: "GET", path: "/api/v1/roles/{roleA}",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 401)},
		matrixCase{name: "R4 role of another organization", method: "GET", path: "/api/v1/roles/{roleB}",
			want: w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "R3 create role in own organization", method: "POST", path: "/api/v1/roles",
			body: `{"name":"New","organizationGUID":"org-a","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"wiki","manageType":"SAML20_SP"}}]}`,
			want: w9(201, 201, 201, 201, 403, 403, 403, 403, 401)},
		matrixCase{name: "R3 create role in another organization", method: "POST", path: "/api/v1/roles",
			body: `{"name":"New","organizationGUID":"org-b","defaultExpiryDays":30,"applicationUsages":[{"application":{"manageId":"lms","manageType":"OIDC10_RP"}}]}`,
			want: w9(201, 201, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "R8 delete role", method: "DELETE", path: "/api/v1/roles/{roleA}",
			want: w9(204, 204, 204, 204, 204, 204, 400, 400, 401)},
		matrixCase{name: "R8 delete role of another organization", method: "DELETE", path: "/api/internal/roles/{roleB}",
			want: w9(204, 204, 400, 400, 400, 400, 400, 400, 401)},
		matrixCase{name: "role provisioning status", method: "GET", path: "/api/v1/roles/{roleA}/provisioning",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 401)},
	)
}
