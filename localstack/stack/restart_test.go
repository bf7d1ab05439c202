package stack

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// startPersistent starts the stack on dataDir as `make run` does (DynamoDB
// Local on -dbPath, the sample SP's state beside it), with a fresh process
// environment as a new process would have.
func startPersistent(t *testing.T, dataDir string) *Stack {
	t.Helper()
	t.Setenv("BOOTSTRAP_API_TOKEN", "e2e-bootstrap-token-0123456789abcdef")
	for _, k := range []string{"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_SESV2",
		"APPLICATIONS_CONFIG", "APPLICATIONS_CONFIG_FILE", "OIDC_ISSUER", "PUBLIC_BASE_URL", "TABLE_NAME", "REMINDER_DAYS", sampleSPTokenEnv} {
		t.Setenv(k, "")
	}
	s, err := Start(context.Background(), Options{Addr: "127.0.0.1:0", DataDir: dataDir, JobInterval: -1,
		VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A role created before a restart is served after it, and the sample SP
// still holds its group.
func TestRoleServedAfterRestart(t *testing.T) {
	dataDir := t.TempDir()
	admin := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}
	first := startPersistent(t, dataDir)
	var role struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	c := client{t: t, base: first.URL}
	if got := c.do("POST", "/api/v1/roles", admin, map[string]any{"name": "Kept across restarts", "organizationGUID": "org-e2e", "defaultExpiryDays": 30,
		"applicationUsages": []any{map[string]any{"application": map[string]any{"manageId": "sample-app"}}}}, &role); got != http.StatusCreated {
		t.Fatalf("create role = %d", got)
	}
	eventually(t, "the role's group at the sample SP", func() bool { return len(first.SP.Groups()) == 1 })
	first.Close()

	second := startPersistent(t, dataDir)
	defer second.Close()
	var got struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	c = client{t: t, base: second.URL}
	if status := c.do("GET", "/api/v1/roles/"+itoa(role.ID), admin, nil, &got); status != http.StatusOK || got.ID != role.ID || got.Name != role.Name {
		t.Fatalf("after a restart GET role %d = %d %+v", role.ID, status, got)
	}
	if groups := second.SP.Groups(); len(groups) != 1 || groups[0].DisplayName == "" {
		t.Fatalf("after a restart the sample SP holds %+v, want the role's group", groups)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
