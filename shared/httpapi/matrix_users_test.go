package httpapi_test

func userProvisioningMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "U7 end date of a guest's membership", method: "PUT", path: "/api/v1/user_roles",
			body: `{"userRoleId":{userRole:guest},"endDate":{futureDate}}`,
			want: upTo(200, "inviter")},
		// A user's own status, and role managers' view of their members.
		matrixCase{name: "user provisioning status", method: "GET", path: "/api/v1/users/{user:guest}/provisioning",
			want: w9(200, 200, 200, 200, 200, 200, 403, 200, 401)},
		matrixCase{name: "provisioning status of an unknown user", method: "GET", path: "/api/v1/users/999999/provisioning",
			want: upTo(404, "guest")},
	)
	return cases
}

func userMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		// An API token gets the user it acts as (TestMeAndMineOfAPITokens).
		matrixCase{name: "U4 current user", method: "GET", path: "/api/v1/users/me",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 401)},
		matrixCase{name: "U6 session configuration", method: "GET", path: "/api/v1/users/config",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		matrixCase{name: "U3 a guest of role A", method: "GET", path: "/api/v1/users/other/{user:guest}",
			want: w9(200, 200, 200, 200, 200, 200, 403, 200, 401)},
		matrixCase{name: "U3 a user of another organization", method: "GET", path: "/api/v1/users/other/{user:super}",
			want: w9(200, 200, 403, 404, 404, 404, 404, 404, 401)},
		matrixCase{name: "U3 unknown user", method: "GET", path: "/api/v1/users/other/999999",
			want: upTo(404, "guest")},
		matrixCase{name: "U5 institution admins of role A", method: "GET", path: "/api/v1/users/institution-admins/{roleA}",
			want: upTo(200, "manager")},
		matrixCase{name: "U5 institution admins of a role of another organization", method: "GET", path: "/api/v1/users/institution-admins/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "U1/U2 search users", method: "GET", path: "/api/v1/users/search?query=tester",
			want: upTo(200, "orgToken")},
		matrixCase{name: "U1 search users by application", method: "GET", path: "/api/v1/users/search-by-application",
			want: upTo(200, "orgToken")},
		matrixCase{name: "delete user", method: "DELETE", path: "/api/v1/users/{user:guest}",
			want: upTo(204, "superToken")},
		// The world does not enable the seed: refused even to super users.
		matrixCase{name: "S1 performance seed (not enabled)", method: "PUT", path: "/api/v1/system/performance-seed?numberOfRole=1&numberOfUsers=2",
			want: w9(403, 403, 403, 403, 403, 403, 403, 403, 401)},
	)
	return cases
}
