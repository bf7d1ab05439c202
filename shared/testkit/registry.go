package testkit

// Registry is a small application registry (the import document of
// shared/config): wiki provisions to the SCIM targets sp-a and sp-b; lms
// and drive have none. The tokens are env: references that no test
// resolves.
const Registry = `{
  "applications": [
    {"manageId": "wiki", "manageType": "SAML20_SP", "landingPage": "https://wiki.example.org", "provisionings": ["sp-a", "sp-b"]},
    {"manageId": "lms", "manageType": "OIDC10_RP", "landingPage": "https://lms.example.org"},
    {"manageId": "drive", "manageType": "SAML20_SP", "landingPage": "https://drive.example.org"}],
  "provisionings": [
    {"id": "sp-a", "baseUrl": "https://a.example.org/scim", "auth": {"method": "bearer", "token": "env:A"}},
    {"id": "sp-b", "baseUrl": "https://b.example.org/scim", "auth": {"method": "bearer", "token": "env:B"}}]}`
