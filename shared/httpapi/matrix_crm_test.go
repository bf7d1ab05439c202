package httpapi_test

// The CRM operations are for CRM systems (API key) only, as in the
// reference (hasRole('CRM')): people, super users and API tokens included
// are refused. The CRM key and Basic machine callers are tested in
// crm_test.go.
func crmMatrixCases() (cases []matrixCase) {
	crmOnly := w9(403, 403, 403, 403, 403, 403, 403, 403, 401)
	profile := `{"contactId":"c-1","suppressInvitation":true,"uid":"jdoe","schacHomeOrganisation":"example.com","email":"jdoe@example.com",
	  "organisation":{"organisationId":"org-a","name":"A"},"roles":[{"roleId":"crm-x"}]}`
	cases = append(cases,
		matrixCase{name: "C1 CRM profile", method: "POST", path: "/crm/profile", body: profile, want: crmOnly},
		matrixCase{name: "C2 delete CRM profile", method: "DELETE", path: "/crm/profile", body: profile, want: crmOnly},
		matrixCase{name: "C3 CRM invite", method: "POST", path: "/crm/api/v1/invite/send",
			body: `{"org_id":"org-a","guid":"c-1","email":"jdoe@example.com","roles":[{"roleId":"crm-x"}]}`, want: crmOnly},
		matrixCase{name: "C4 CRM resend", method: "POST", path: "/crm/api/v1/invite/resend", body: `{"org_id":"org-a","guid":"c-1"}`, want: crmOnly},
		matrixCase{name: "C5 CRM remove", method: "POST", path: "/crm/api/v1/invite/remove", body: `{"org_id":"org-a","guid":"c-1"}`, want: crmOnly},
		matrixCase{name: "C6 CRM organisation lookup", method: "GET", path: "/crm/api/v1/profiles?org_guid=org-a", want: crmOnly},
		matrixCase{name: "CRM organisations", method: "GET", path: "/crm/api/v1/organisations", want: crmOnly},
		matrixCase{name: "delete a CRM organisation", method: "DELETE", path: "/crm/api/v1/organisations", body: `{"organisationId":"org-a"}`, want: crmOnly},
		matrixCase{name: "C7 CRM profile search", method: "GET", path: "/api/profile?guid=org-a", want: crmOnly},
		matrixCase{name: "C7 CRM profile search, machine path", method: "GET", path: "/api/external/v1/invite/crm/profile?uid=guest&idp=example.org", want: crmOnly},
	)
	return cases
}
