package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInternalErrorLogLine: a 500's log line names the operation (its
// operationId and route, no ids or query) and the cause, without e-mail
// addresses; the caller's body says nothing of it.
func TestInternalErrorLogLine(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	r := httptest.NewRequest("GET", "/api/v1/users/other/42?query=alice@example.org", nil)
	r.Pattern = "GET /api/v1/users/other/{id}"
	rec := httptest.NewRecorder()
	writeError(rec, r, errors.New("get user 42 (alice@example.org): dynamodb: ProvisionedThroughputExceededException"))

	if rec.Code != 500 || strings.Contains(rec.Body.String(), "dynamodb") {
		t.Fatalf("answer %d %s", rec.Code, rec.Body.String())
	}
	var line map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &line); err != nil {
		t.Fatalf("log %q is not one JSON line: %v", buf.String(), err)
	}
	if line["level"] != "ERROR" || line["operation"] != "getUser" || line["route"] != "GET /api/v1/users/other/{id}" {
		t.Errorf("log line %v: want level ERROR, operation getUser and the route", line)
	}
	cause, _ := line["cause"].(string)
	if !strings.Contains(cause, "ProvisionedThroughputExceededException") || !strings.Contains(cause, "user 42") {
		t.Errorf("cause %q lost the error", cause)
	}
	if strings.Contains(buf.String(), "alice") || strings.Contains(buf.String(), "query=") {
		t.Errorf("log line carries personal data: %s", buf.String())
	}
}
