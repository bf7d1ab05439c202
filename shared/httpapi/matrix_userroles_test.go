package httpapi_test

func userRoleMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		// Members of a role: who may manage it, and its inviters.
		matrixCase{name: "U10 members of a role", method: "GET", path: "/api/v1/user_roles/roles/{roleA}",
			want: w9(200, 200, 200, 200, 200, 200, 200, 403, 401)},
		matrixCase{name: "U10 members of a role of another organization", method: "GET", path: "/api/external/v1/user_roles/roles/{roleB}",
			want: w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		matrixCase{name: "U10 members of a role, internal path", method: "GET", path: "/api/external/v1/internal/invite/user_roles/{roleA}",
			want: w9(200, 200, 200, 200, 200, 200, 200, 403, 401)},
		matrixCase{name: "U9 guests of a role", method: "GET", path: "/api/v1/user_roles/search/{roleA}/true?query=guest",
			want: w9(200, 200, 200, 200, 200, 200, 200, 403, 401)},
		matrixCase{name: "U9 non-guests of a role of another organization", method: "GET", path: "/api/external/v1/user_roles/search/{roleB}/false",
			want: w9(200, 200, 403, 403, 403, 403, 403, 403, 401)},
		// Provisioning without an invitation: administrators and tokens only.
		matrixCase{name: "U8 provision a guest into a role", method: "POST", path: "/api/v1/user_roles/user_role_provisioning",
			body: `{"roleIdentifiers":[{roleA}],"email":"pat@example.org","givenName":"Pat"}`,
			want: w9(201, 201, 201, 201, 403, 403, 403, 403, 401)},
		matrixCase{name: "U8 provision into a role of another organization", method: "POST", path: "/api/external/v1/user_roles/user_role_provisioning",
			body: `{"roleIdentifiers":[{roleB}],"email":"pat@example.org"}`,
			want: w9(201, 201, 403, 403, 403, 403, 403, 403, 401)},
		// Removal: inviters remove guests, members themselves, managers and
		// administrators anything below INSTITUTION_ADMIN.
		matrixCase{name: "remove a guest's membership", method: "DELETE", path: "/api/v1/user_roles/{userRole:guest}/true",
			want: w9(204, 204, 204, 204, 204, 204, 204, 204, 401)},
		matrixCase{name: "remove a manager's membership", method: "DELETE", path: "/api/external/v1/user_roles/{userRole:manager}/false",
			want: w9(204, 204, 204, 204, 204, 204, 403, 403, 401)},
		matrixCase{name: "U7 end date for API tokens", method: "PUT", path: "/api/external/v1/user_roles",
			body: `{"userRoleId":{userRole:guest},"endDate":{futureDate}}`,
			want: w9(200, 200, 200, 200, 200, 200, 200, 403, 401)},
	)
	return cases
}
