package httpapi_test

func init() {
	matrixCases = append(matrixCases,
		matrixCase{name: "U7 end date of a guest's membership", method: "PUT", path: "/api/v1/user_roles",
			body: `{"userRoleId":{userRole:guest},"endDate":{futureDate}}`,
			want: w9(201, 201, 201, 201, 201, 201, 201, 403, 401)},
		// A user's own status, and role managers' view of their members.
		matrixCase{name: "user provisioning status", method: "GET", path: "/api/v1/users/{user:guest}/provisioning",
			want: w9(200, 200, 200, 200, 200, 200, 403, 200, 401)},
	)
}
