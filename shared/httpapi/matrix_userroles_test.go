package httpapi_test

func userRoleMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		// Members of a role: who may manage it, and its inviters.
		matrixCase{name: "U10 members of a role", method: "GET", path: "/api/v1/user_roles/roles/{roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "U10 members of a role of another organization", method: "GET", path: "/api/external/v1/user_roles/roles/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "U10 members of a role, internal path", method: "GET", path: "/api/external/v1/internal/invite/user_roles/{roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "U10 members of a role, paged", method: "GET", path: "/api/v1/user_roles/roles/{roleA}?pageSize=2",
			want: upTo(200, "inviter")},
		matrixCase{name: "U10 members of a role of another organization, paged", method: "GET", path: "/api/external/v1/user_roles/roles/{roleB}?pageNumber=0",
			want: foreignObject(200)},
		matrixCase{name: "U9 guests of a role", method: "GET", path: "/api/v1/user_roles/search/{roleA}/true?query=guest",
			want: upTo(200, "inviter")},
		matrixCase{name: "U9 non-guests of a role of another organization", method: "GET", path: "/api/external/v1/user_roles/search/{roleB}/false",
			want: foreignObject(200)},
		// A page token the list does not accept is a 400 only to those who
		// may see the role's members; another organization's role stays
		// missing, token or not.
		matrixCase{name: "U9 guests of a role, a page token it does not accept", method: "GET", path: "/api/v1/user_roles/search/{roleA}/true?pageToken=bad",
			want: upTo(400, "inviter")},
		matrixCase{name: "U9 non-guests of a role of another organization, a page token", method: "GET", path: "/api/external/v1/user_roles/search/{roleB}/false?pageToken=bad",
			want: foreignObject(400)},
		matrixCase{name: "U10 members of a role, a page token it does not accept", method: "GET", path: "/api/external/v1/user_roles/roles/{roleA}?pageToken=bad",
			want: upTo(400, "inviter")},
		matrixCase{name: "U10 members of a role of another organization, a page token", method: "GET", path: "/api/v1/user_roles/roles/{roleB}?pageSize=2&pageToken=bad",
			want: foreignObject(400)},
		// Provisioning without an invitation: administrators and tokens only.
		matrixCase{name: "U8 provision a guest into a role", method: "POST", path: "/api/v1/user_roles/user_role_provisioning",
			body: `{"roleIdentifiers":[{roleA}],"email":"pat@example.org","givenName":"Pat"}`,
			want: upTo(201, "orgToken")},
		matrixCase{name: "U8 provision into a role of another organization", method: "POST", path: "/api/external/v1/user_roles/user_role_provisioning",
			body: `{"roleIdentifiers":[{roleB}],"email":"pat@example.org"}`,
			want: w9(201, 201, 400, 400, 403, 403, 403, 403, 401)}, // as an unknown role id to those who may provision
		// Removal: inviters remove guests, members themselves, managers and
		// administrators anything below INSTITUTION_ADMIN.
		matrixCase{name: "remove a guest's membership", method: "DELETE", path: "/api/v1/user_roles/{userRole:guest}/true",
			want: upTo(204, "guest")},
		matrixCase{name: "remove a manager's membership", method: "DELETE", path: "/api/external/v1/user_roles/{userRole:manager}/false",
			want: upTo(204, "manager")},
		matrixCase{name: "U7 end date for API tokens", method: "PUT", path: "/api/external/v1/user_roles",
			body: `{"userRoleId":{userRole:guest},"endDate":{futureDate}}`,
			want: upTo(200, "inviter")},
	)
	return cases
}
