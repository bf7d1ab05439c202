package stack

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/edu-invite/invite/localstack/scimsp"
)

// TestConnectionTestResolvesAHandManagedSPSecret: a super user registers a
// connection whose password is a reference to an invite/sp/* secret that an
// operator created by hand (not the registry's own prefix); "test
// connection" reads it through the Secrets Manager endpoint (in AWS the
// registry's function has read-only access there) and the SP accepts it. A
// reference to a secret that does not exist is reported, not a 500.
func TestConnectionTestResolvesAHandManagedSPSecret(t *testing.T) {
	f := newLifecycleFixture(t)
	const password = "hand-managed-pw-5678"
	lab := scimsp.New(scimsp.Options{BasicUser: "sp-admin", BasicPassword: password})
	srv := httptest.NewServer(lab.Handler())
	defer srv.Close()

	sm := secretsmanager.New(secretsmanager.Options{
		Region: "eu-west-1", BaseEndpoint: aws.String(f.s.Secrets.URL),
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	if _, err := sm.CreateSecret(context.Background(), &secretsmanager.CreateSecretInput{
		Name: aws.String("invite/sp/lab-hand"), SecretString: aws.String(`{"username":"sp-admin","password":"` + password + `"}`),
	}); err != nil {
		t.Fatal(err)
	}

	reg := "/api/v1/manage/registry"
	for _, c := range []struct{ id, ref string }{
		{"lab-hand", "secretsmanager:invite/sp/lab-hand#password"},
		{"lab-missing", "secretsmanager:invite/sp/not-there#password"},
	} {
		if got := f.c.do("POST", reg+"/connections", f.admin, map[string]any{"id": c.id, "name": "Lab " + c.id, "baseUrl": srv.URL,
			"membership": "PATCH", "auth": map[string]any{"method": "basic", "username": "sp-admin", "password": c.ref}}, nil); got != http.StatusCreated {
			t.Fatalf("create connection %s = %d", c.id, got)
		}
	}
	var report struct {
		OK      bool   `json:"ok"`
		Summary string `json:"summary"`
	}
	if got := f.c.do("POST", reg+"/connections/lab-hand/test", f.admin, nil, &report); got != http.StatusOK || !report.OK {
		t.Fatalf("test of the hand-managed secret's connection = %d %+v, want a passing report", got, report)
	}
	report.OK, report.Summary = true, ""
	if got := f.c.do("POST", reg+"/connections/lab-missing/test", f.admin, nil, &report); got != http.StatusOK || report.OK || report.Summary == "" {
		t.Fatalf("test with a missing secret = %d %+v, want a failing report that says why", got, report)
	}
}
