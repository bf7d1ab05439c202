package httpapi_test

func mailMatrixCases() (cases []matrixCase) {
	su := w9(200, 200, 403, 403, 403, 403, 403, 403, 401)
	cases = append(cases,
		matrixCase{name: "undelivered mails", method: "GET", path: "/api/v1/system/mails?status=bounced", want: su},
		// No failed mail exists in the world: a super user's retry of an
		// unknown id is a 404, everybody else is stopped before that.
		matrixCase{name: "retry failed mails", method: "POST", path: "/api/v1/system/mails/retry", body: `{"ids":["nope"]}`,
			want: w9(404, 404, 403, 403, 403, 403, 403, 403, 401)},
	)
	return cases
}
