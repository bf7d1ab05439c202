package stack

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/testkit"
)

// logLines are the non-blank lines written to the log so far.
func logLines(b *testkit.LogBuffer) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(b.String()))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

// TestLogIsJSONLinesWithCorrelationIDs runs a role's creation, its SCIM
// delivery and a request that fails inside the service (its table gone),
// and reads the log: every line is one JSON object; every line of a request
// or of a delivery carries the request's correlation id; the 500's line
// names the operation and the cause.
func TestLogIsJSONLinesWithCorrelationIDs(t *testing.T) {
	t.Setenv("LOG_LEVEL", "debug")
	logs := &testkit.LogBuffer{}
	clock := &testClock{}
	s := startTestStackWith(t, clock, "", Options{VisibilityTimeout: time.Second, PollInterval: 200 * time.Millisecond, LogOutput: logs})
	c := client{t: t, base: s.URL}
	admin := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef", "X-Correlation-Id": "log-test-create-role"}

	roleBody := map[string]any{"name": "Loggers", "organizationGUID": "org-e2e", "applicationUsages": []any{map[string]any{"landingPage": "https://wiki.example.org",
		"application": map[string]any{"manageId": "sample-app", "manageType": "SAML20_SP"}}}}
	if got := c.do("POST", "/api/v1/roles", admin, roleBody, nil); got != http.StatusCreated {
		t.Fatalf("create role = %d", got)
	}
	eventually(t, "the group at the SP", func() bool { return len(s.SP.Groups()) == 1 })
	eventually(t, "the delivery's log line", func() bool { return strings.Contains(strings.Join(logLines(logs), "\n"), `"msg":"delivered"`) })

	// A failure inside the service: the table is gone.
	if _, err := s.App.DynamoDB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(s.App.Settings.TableName)}); err != nil {
		t.Fatal(err)
	}
	admin["X-Correlation-Id"] = "log-test-broken"
	if got := c.do("GET", "/api/v1/roles/1", admin, nil, nil); got != http.StatusInternalServerError {
		t.Fatalf("GET role without a table = %d, want 500", got)
	}

	lines := logLines(logs)
	if len(lines) < 3 {
		t.Fatalf("only %d log lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var delivered, failed bool
	for _, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("log line is not JSON: %q (%v)", line, err)
			continue
		}
		for _, key := range []string{"time", "level", "msg"} {
			if _, ok := rec[key]; !ok {
				t.Errorf("log line without %s: %s", key, line)
			}
		}
		_, ofDelivery := rec["delivery"]
		_, ofRequest := rec["operation"]
		id, _ := rec["correlationId"].(string)
		if (ofDelivery || ofRequest) && id == "" {
			t.Errorf("log line of a request or delivery without correlationId: %s", line)
		}
		if rec["msg"] == "delivered" && id == "log-test-create-role" {
			delivered = true
		}
		if rec["msg"] == "request failed" {
			failed = true
			cause, _ := rec["cause"].(string)
			if id != "log-test-broken" || rec["operation"] != "getRole" || rec["route"] != "GET /api/v1/roles/{id}" || cause == "" {
				t.Errorf("the 500's line %s: want correlationId log-test-broken, operation getRole, its route and the cause", line)
			}
		}
	}
	if !delivered {
		t.Errorf("no delivered line with the role request's correlation id in:\n%s", strings.Join(lines, "\n"))
	}
	if !failed {
		t.Errorf("no line for the 500 in:\n%s", strings.Join(lines, "\n"))
	}
}
