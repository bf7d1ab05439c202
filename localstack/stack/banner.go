package stack

import (
	"cmp"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
)

// Banner is what `make run` prints: every local endpoint, the super-user
// token, and where each AWS service's data is kept.
func (s *Stack) Banner() string {
	var b strings.Builder
	b.WriteString("\nInvite is running on the embedded local stack.\n\n")
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	row := func(what, where, note string) { fmt.Fprintf(w, "  %s\t%s\t%s\n", what, where, note) }
	row("API", s.URL+"/api/v1/…", "health: "+s.URL+"/health")
	// A token the operator chose may be one they use elsewhere: never
	// repeated; only a generated one is shown.
	if s.BootstrapTokenChosen {
		row("API token", "X-API-TOKEN: the value of BOOTSTRAP_API_TOKEN", "")
	} else {
		row("API token", "X-API-TOKEN: "+s.BootstrapToken, "export BOOTSTRAP_API_TOKEN to choose it")
	}
	row("API documentation", s.URL+"/api/docs", "the OpenAPI document: "+s.URL+"/api/docs/openapi.json")
	row("Pages", s.URL+"/", "sign-in and invitation pages")
	row("Console", s.URL+"/console", "roles, invitations, people, applications, operations")
	// Nobody is an administrator of a fresh stack: say how to become one.
	if supers := strings.TrimSpace(os.Getenv("SUPER_USERS")); supers != "" {
		row("Super users", supers, "type one as the eppn at the development IdP's form")
	} else {
		row("Super users", "none", "start with SUPER_USERS=<eppn> make run, then type that eppn at the IdP's form")
	}
	row("Development IdP", os.Getenv("OIDC_ISSUER"), "OIDC issuer; POST claims to /token for a bearer token")
	row("Sample SCIM SP", s.URL+"/scim-sp/v1", "what it holds: "+s.URL+"/scim-sp/state")
	row("Captured e-mails", s.URL+"/mail", "as the SES substitute received them")
	row("Run a job now", "make job JOB=expiry", "or cleanup, outbox-sweep (follows this stack's PORT)")
	w.Flush()
	b.WriteString("\nAWS services, and where their data is kept:\n\n")
	w = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, svc := range []struct{ key, name string }{{"DYNAMODB", "DynamoDB"}, {"SQS", "SQS"}, {"SESV2", "SES v2"}, {"SECRETS_MANAGER", "Secrets Manager"}} {
		url := cmp.Or(os.Getenv("AWS_ENDPOINT_URL_"+svc.key), os.Getenv("AWS_ENDPOINT_URL"), "AWS (the SDK's default endpoint)")
		data := s.substituted[svc.key]
		if data == "" {
			data = "kept by that endpoint"
		}
		row(svc.name, url, data)
	}
	w.Flush()
	fmt.Fprintf(&b, "\nLogs are JSON lines on standard output. Press Ctrl-C to stop.\n")
	return b.String()
}
