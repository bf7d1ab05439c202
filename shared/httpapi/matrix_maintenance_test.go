package httpapi_test

func maintenanceMatrixCases() (cases []matrixCase) {
	su := upTo(200, "superToken")
	started := upTo(202, "superToken") // a job that runs in the background
	suOnly := func(status int) [9]int { return w9(status, status, 403, 403, 403, 403, 403, 403, 401) }
	cases = append(cases,
		matrixCase{name: "S2 unknown roles", method: "GET", path: "/api/v1/system/unknown-roles", want: su},
		matrixCase{name: "S3 landing page fix", method: "GET", path: "/api/v1/system/landing-page-fix", want: started},
		matrixCase{name: "date repair list", method: "GET", path: "/api/v1/system/date-repair", want: started},
		matrixCase{name: "date repair apply", method: "POST", path: "/api/v1/system/date-repair", want: started},
		matrixCase{name: "index repair", method: "POST", path: "/api/v1/system/index-repair", want: started},
		matrixCase{name: "S7 application metadata", method: "GET", path: "/api/v1/manage/provider/SAML20_SP/wiki", want: su},
		matrixCase{name: "S7 provisioning metadata", method: "GET", path: "/api/v1/manage/provider/PROVISIONING/sp-a", want: su},
		matrixCase{name: "S7 unknown provider", method: "GET", path: "/api/v1/manage/provider/SAML20_IDP/idp", want: suOnly(404)},
		matrixCase{name: "S7 bad type", method: "GET", path: "/api/v1/manage/provider/SPACESHIP/wiki", want: suOnly(400)},
		matrixCase{name: "manage applications", method: "GET", path: "/api/v1/manage/applications",
			want: upTo(200, "orgToken")},
	)
	return cases
}
