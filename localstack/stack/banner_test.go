package stack

import (
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestBannerListsEveryEndpoint: the banner of `make run` names the API, its
// documentation, the pages, the IdP, the SCIM SP, the captured mail and each
// AWS substitute with where its data is kept, and those endpoints answer.
func TestBannerListsEveryEndpoint(t *testing.T) {
	s := startTestStack(t, &testClock{}, "")
	banner := s.Banner()
	for _, want := range []string{
		s.URL + "/health", s.URL + "/api/docs", s.URL + "/api/docs/openapi.json", s.URL + "/ ", s.URL + "/idp",
		s.URL + "/scim-sp/v1", s.URL + "/scim-sp/state", s.URL + "/mail", "X-API-TOKEN: the value of BOOTSTRAP_API_TOKEN",
		"in memory", "make job", s.URL + "/console", "SUPER_USERS=<eppn> make run",
	} {
		if !strings.Contains(banner, want) {
			t.Errorf("the banner lacks %q:\n%s", want, banner)
		}
	}
	// Each AWS substitute on a line of its own, with its endpoint.
	for name, key := range map[string]string{"DynamoDB": "DYNAMODB", "SQS": "SQS", "SES v2": "SESV2", "Secrets Manager": "SECRETS_MANAGER"} {
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +` + regexp.QuoteMeta(os.Getenv("AWS_ENDPOINT_URL_"+key)) + ` `).MatchString(banner) {
			t.Errorf("the banner lacks the line of %s at %s:\n%s", name, os.Getenv("AWS_ENDPOINT_URL_"+key), banner)
		}
	}
	if strings.Contains(banner, s.BootstrapToken) {
		t.Errorf("the banner repeats the token the operator chose:\n%s", banner)
	}
	s.BootstrapTokenChosen = false
	if generated := s.Banner(); !strings.Contains(generated, "X-API-TOKEN: "+s.BootstrapToken) {
		t.Errorf("a generated token is not shown:\n%s", generated)
	}
	// A browser reads the captured mails as a page, a program as JSON.
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/mail", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if resp, err := http.DefaultClient.Do(req); err != nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET /mail from a browser: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	if resp, err := http.Get(s.URL + "/mail"); err != nil || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("GET /mail from a program: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	for _, path := range []string{"/health", "/api/docs", "/api/docs/openapi.json", "/idp/.well-known/openid-configuration", "/scim-sp/state", "/mail"} {
		resp, err := http.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d", path, resp.StatusCode)
		}
	}
}
