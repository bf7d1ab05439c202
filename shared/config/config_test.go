package config

import (
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

const validDoc = `{
  "applications": [
    {"manageId": "wiki", "manageType": "SAML20_SP", "name": "Wiki", "landingPage": "https://wiki.example.org", "provisionings": ["wiki-scim"]},
    {"manageId": "lms", "manageType": "OIDC10_RP", "name": "LMS", "provisionings": ["wiki-scim", "lms-scim"]}
  ],
  "provisionings": [
    {"id": "wiki-scim", "baseUrl": "https://wiki.example.org/scim/", "auth": {"method": "bearer", "token": "secretsmanager:invite/sp/wiki-scim"}},
    {"id": "lms-scim", "baseUrl": "http://127.0.0.1:9000", "version": "v2", "membership": "put", "userIdentifier": "email",
     "auth": {"method": "basic", "username": "invite", "password": "env:LMS_PASSWORD"}}
  ]
}`

func TestParseValidDocument(t *testing.T) {
	reg, err := Parse([]byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	wiki, ok := reg.Target("wiki-scim")
	if !ok {
		t.Fatal("wiki-scim missing")
	}
	if wiki.BaseURL != "https://wiki.example.org/scim" || wiki.Version != "v1" ||
		wiki.SP.MembershipMode != domain.MembershipPatch || wiki.SP.UserIdentifier != domain.IdentifierEPPN {
		t.Errorf("defaults not applied: %+v", wiki)
	}
	lms, _ := reg.Target("lms-scim")
	if lms.SP.MembershipMode != domain.MembershipPut || lms.SP.UserIdentifier != domain.IdentifierEmail || lms.Version != "v2" {
		t.Errorf("explicit settings lost: %+v", lms)
	}
	app, ok := reg.Application("lms")
	if !ok || app.ID != 2 || len(app.ProvisioningIDs) != 2 {
		t.Errorf("application lms = %+v", app)
	}
	role := domain.Role{ApplicationUsages: []domain.ApplicationUsage{
		{Application: domain.Application{ManageID: "wiki"}}, {Application: domain.Application{ManageID: "lms"}},
	}}
	sps := reg.SPsOfRole(role)
	if len(sps) != 2 || sps[0].ID != "wiki-scim" || sps[1].ID != "lms-scim" {
		t.Errorf("SPsOfRole = %+v, want wiki-scim then lms-scim once each", sps)
	}
}

// Logos and landing pages on localhost may be http (the local stack).
func TestParseAcceptsHTTPOnLocalhost(t *testing.T) {
	if _, err := Parse([]byte(`{"applications": [{"manageId": "x", "manageType": "SAML20_SP", "logoUrl": "http://localhost:8080/x.png", "landingPage": "http://127.0.0.1:8080/"}]}`)); err != nil {
		t.Fatal(err)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"unknown field", `{"applications": [], "provisionigns": []}`, "unknown field"},
		{"plain secret", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "auth": {"method": "bearer", "token": "s3cr3t"}}]}`, "secret reference"},
		{"plain password", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "auth": {"method": "basic", "username": "u", "password": "pw"}}]}`, "secret reference"},
		{"bad method", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "auth": {"method": "digest"}}]}`, "basic, bearer or oauth2"},
		{"relative url", `{"provisionings": [{"id": "a", "baseUrl": "/scim", "auth": {"method": "bearer", "token": "env:T"}}]}`, "absolute http(s) URL"},
		{"bad version", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "version": "2", "auth": {"method": "bearer", "token": "env:T"}}]}`, "look like v1"},
		{"bad membership", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "membership": "POST", "auth": {"method": "bearer", "token": "env:T"}}]}`, "PUT or PATCH"},
		{"bad identifier", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "userIdentifier": "uid", "auth": {"method": "bearer", "token": "env:T"}}]}`, "userIdentifier"},
		{"duplicate target", `{"provisionings": [{"id": "a", "baseUrl": "https://a", "auth": {"method": "bearer", "token": "env:T"}}, {"id": "a", "baseUrl": "https://b", "auth": {"method": "bearer", "token": "env:T"}}]}`, "duplicate id"},
		{"unknown provisioning", `{"applications": [{"manageId": "x", "manageType": "SAML20_SP", "provisionings": ["nope"]}]}`, `provisioning "nope" is not defined`},
		{"bad manage type", `{"applications": [{"manageId": "x", "manageType": "SAML"}]}`, "manageType"},
		{"http logo", `{"applications": [{"manageId": "x", "manageType": "SAML20_SP", "logoUrl": "http://cdn.example.org/x.png"}]}`, "logoUrl must be an https URL"},
		{"http landing page", `{"applications": [{"manageId": "x", "manageType": "SAML20_SP", "landingPage": "http://wiki.example.org"}]}`, "landingPage must be an https URL"},
		{"logo with control character", `{"applications": [{"manageId": "x", "manageType": "SAML20_SP", "logoUrl": "https://cdn.example.org/x\u202e.png"}]}`, "logoUrl"},
		{"duplicate manage id", `{"applications": [{"manageId": "x", "manageType": "SAML20_SP"}, {"manageId": "x", "manageType": "SAML20_SP"}]}`, "duplicate manageId"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}
