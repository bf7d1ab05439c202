package httpapi_test

func invitationMatrixCases() (cases []matrixCase) {
	cases = append(cases,
		matrixCase{name: "I2 invite a guest to role A", method: "POST", path: "/api/v1/invitations",
			body: `{"intendedAuthority":"GUEST","invites":["new@example.org"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate}}`,
			want: upTo(201, "inviter")},
		matrixCase{name: "I2 invite a manager to role A", method: "POST", path: "/api/external/v1/invitations",
			body: `{"intendedAuthority":"MANAGER","invites":["new@example.org"],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate}}`,
			want: upTo(201, "manager")},
		matrixCase{name: "I2 invite to a role of another organization", method: "POST", path: "/api/v1/invitations",
			body: `{"intendedAuthority":"GUEST","invites":["new@example.org"],"roleIdentifiers":[{roleB}],"expiryDate":{futureDate}}`,
			want: w9(201, 201, 400, 400, 400, 400, 400, 400, 401)}, // as an unknown role id
		matrixCase{name: "I3 internal invite with placeholders", method: "POST", path: "/api/internal/invitations",
			body: `{"intendedAuthority":"GUEST","invitations":[{"email":"new@example.org","internalPlaceholderIdentifier":"E123"}],"roleIdentifiers":[{roleA}],"expiryDate":{futureDate}}`,
			want: upTo(201, "inviter")},
		matrixCase{name: "I6 open invitation by hash (public)", method: "GET", path: "/api/v1/invitations/public?hash={secretA}",
			want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		// Only people accept; an API token is not a person.
		matrixCase{name: "I1 accept", method: "POST", path: "/api/v1/invitations/accept",
			body: `{"hash":"{secretA}","invitationId":{invitationA}}`,
			want: w9(201, 401, 201, 401, 201, 201, 201, 201, 401)},
	)

	// Search, a role's and the caller's open invitations, resend and delete
	// (invitations_manage.go).
	cases = append(cases,
		matrixCase{name: "I4 search invitations of role A", method: "GET", path: "/api/v1/invitations/search?roleId={roleA}&query=open",
			want: upTo(200, "inviter")},
		matrixCase{name: "I4 search all open invitations", method: "GET", path: "/api/v1/invitations/search",
			want: upTo(200, "superToken")},
		matrixCase{name: "I4 search invitations of role A (tokens)", method: "GET", path: "/api/external/v1/invitations/search?roleId={roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "all open invitations", method: "GET", path: "/api/v1/invitations/all",
			want: upTo(200, "superToken")},
		matrixCase{name: "I5 open invitations of role A", method: "GET", path: "/api/v1/invitations/roles/{roleA}",
			want: upTo(200, "inviter")},
		matrixCase{name: "I5 open invitations of a role of another organization", method: "GET", path: "/api/external/v1/invitations/roles/{roleB}",
			want: foreignObject(200)},
		matrixCase{name: "I7 my invitations", method: "GET", path: "/api/v1/invitations/mine",
			want: w9(200, 200, 200, 200, 200, 200, 200, 403, 401)},
		matrixCase{name: "resend invitation", method: "PUT", path: "/api/v1/invitations/{invitationA}",
			want: upTo(201, "inviter")},
		matrixCase{name: "resend invitation (tokens)", method: "PUT", path: "/api/external/v1/invitations/{invitationA}",
			want: upTo(201, "inviter")},
		matrixCase{name: "resend invitation (internal)", method: "PUT", path: "/api/external/v1/internal/invite/invitations/{invitationA}",
			want: upTo(201, "inviter")},
		matrixCase{name: "delete invitation", method: "DELETE", path: "/api/v1/invitations/{invitationA}",
			want: upTo(204, "inviter")},
		matrixCase{name: "delete invitation (tokens)", method: "DELETE", path: "/api/external/v1/invitations/{invitationA}",
			want: upTo(204, "inviter")},
	)
	return cases
}
