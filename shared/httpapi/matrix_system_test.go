package httpapi_test

func systemMatrixCases() (cases []matrixCase) {
	su := w9(200, 200, 403, 403, 403, 403, 403, 403, 401)
	cases = append(cases,
		matrixCase{name: "health", method: "GET", path: "/health", want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		matrixCase{name: "OpenAPI document", method: "GET", path: "/api/docs/openapi.json", want: w9(200, 200, 200, 200, 200, 200, 200, 200, 200)},
		matrixCase{name: "S4 expiring user-roles", method: "GET", path: "/api/v1/system/expiry-user-roles", want: su},
		matrixCase{name: "S5 expiry notifications", method: "GET", path: "/api/v1/system/cron/expiry-notifications", want: su},
		matrixCase{name: "S6 cleanup", method: "GET", path: "/api/v1/system/cron/cleanup", want: su},
		matrixCase{name: "failed deliveries", method: "GET", path: "/api/v1/system/deliveries/failed?sp=sp-a", want: su},
		matrixCase{name: "replay deliveries", method: "POST", path: "/api/v1/system/deliveries/replay", body: `{"sp":"sp-a"}`, want: su},
		matrixCase{name: "discard deliveries", method: "POST", path: "/api/v1/system/deliveries/discard", body: `{"sp":"sp-a"}`, want: su},
	)
	return cases
}
