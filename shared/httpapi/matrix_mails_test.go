package httpapi_test

func mailMatrixCases() (cases []matrixCase) {
	su := upTo(200, "superToken")
	cases = append(cases,
		matrixCase{name: "undelivered mails", method: "GET", path: "/api/v1/system/mails?status=bounced", want: su},
		// No failed mail exists in the world: a super user's retry of an
		// unknown id is a 404, everybody else is stopped before that.
		matrixCase{name: "retry failed mails", method: "POST", path: "/api/v1/system/mails/retry", body: `{"ids":["nope"]}`,
			want: upTo(404, "superToken")},
	)
	return cases
}
