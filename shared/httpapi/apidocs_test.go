package httpapi

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// needTool skips a test whose tool is missing on a developer's machine and
// fails it in CI (CI=true), where `make test` installs everything.
func needTool(t *testing.T, what, hint string) {
	t.Helper()
	if strings.EqualFold(os.Getenv("CI"), "true") {
		t.Fatalf("%s is missing (%s)", what, hint)
	}
	t.Skipf("%s is missing (%s)", what, hint)
}

func writeOpenAPI(t *testing.T) string {
	t.Helper()
	doc, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(p, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenAPILint runs the Redocly linter (recommended-strict, apidocs/redocly.yaml)
// on the merged document: every operation an operationId, a license, valid
// schemas and examples.
func TestOpenAPILint(t *testing.T) {
	cli := filepath.Join("apidocs", "node_modules", "@redocly", "cli", "bin", "cli.js")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(cli); err != nil || statErr != nil {
		needTool(t, "the OpenAPI linter", "node and `make npm` (npm ci in shared/httpapi/apidocs)")
	}
	cmd := exec.Command(node, cli, "lint", writeOpenAPI(t), "--config", filepath.Join("apidocs", "redocly.yaml"), "--format", "stylish")
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the OpenAPI document does not lint clean: %v\n%s", err, out)
	}
}

// TestGeneratedClientCompiles generates a Go client from the document with
// oapi-codegen (pinned version) and builds it in a module of its own
// (testdata/apiclient pins its runtime), so the document is usable by
// integrators and its operation ids become the client's method names.
func TestGeneratedClientCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads and builds oapi-codegen")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		needTool(t, "the go command", "Go on PATH")
	}
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join("testdata", "apiclient", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	run("run", "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@"+oapiCodegenVersion,
		"-generate", "types,client", "-package", "inviteclient", "-o", "client.go", writeOpenAPI(t))
	run("vet", ".")
	src, err := os.ReadFile(filepath.Join(dir, "client.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"CreateInvitations", "AcceptInvitation", "SearchAudit", "ListFailedDeliveries", "CreateRoleInternal"} {
		if !bytes.Contains(src, []byte("func (c *Client) "+method+"(")) {
			t.Errorf("the generated client has no method %s (named by its operationId)", method)
		}
	}
	if regexp.MustCompile(`func \(c \*Client\) Op\d`).Match(src) {
		t.Error("the generated client has numbered methods: an operation lacks an operationId")
	}
}

// oapiCodegenVersion is the generator the client test pins.
const oapiCodegenVersion = "v2.8.2"

// TestOpenAPIOperationIDs: the names file must name every operation once,
// with unique ids, and nothing else.
func TestOpenAPIOperationIDs(t *testing.T) {
	base := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {}}}`
	paths := `{"paths": {"/a": {"get": {"summary": "A long", "responses": {}}, "post": {"requestBody": {"content": {"application/json": {}}}, "responses": {}}},
	             "/api/external/v1/internal/invite/x": {"get": {"responses": {}}}}}`
	tests := []struct {
		name, names string
		wantErr     []string
	}{
		{"complete", `{"operations": {
			"GET /a": {"operationId": "getA", "summary": "A"},
			"POST /a": {"operationId": "createA", "summary": "Create", "example": {"n": 1}},
			"GET /api/external/v1/internal/invite/x": {"operationId": "getX", "summary": "X"}}}`, nil},
		{"missing", `{"operations": {
			"GET /a": {"operationId": "getA", "summary": "A"},
			"GET /api/external/v1/internal/invite/x": {"operationId": "getX", "summary": "X"}}}`,
			[]string{"POST /a has no operationId"}},
		{"duplicate", `{"operations": {
			"GET /a": {"operationId": "getA", "summary": "A"},
			"POST /a": {"operationId": "getA", "summary": "Create"},
			"GET /api/external/v1/internal/invite/x": {"operationId": "getX", "summary": "X"}}}`,
			[]string{`operationId "getA" is used by both GET /a and POST /a`}},
		{"unknown", `{"operations": {
			"GET /a": {"operationId": "getA", "summary": "A"},
			"POST /a": {"operationId": "createA", "summary": "Create"},
			"DELETE /a": {"operationId": "deleteA", "summary": "Delete"},
			"GET /api/external/v1/internal/invite/x": {"operationId": "getX", "summary": "X"}}}`,
			[]string{"names DELETE /a, which no path file documents"}},
		{"unknown field", `{"operations": {}, "extra": 1}`, []string{`unknown field "extra"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := mergeOpenAPI(fstest.MapFS{
				"openapi/base.json":       {Data: []byte(base)},
				"openapi/a.json":          {Data: []byte(paths)},
				"openapi/operations.json": {Data: []byte(tt.names)},
			})
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				var d struct {
					Paths map[string]map[string]struct {
						OperationID string                               `json:"operationId"`
						Summary     string                               `json:"summary"`
						Description string                               `json:"description"`
						Security    []map[string][]string                `json:"security"`
						RequestBody map[string]map[string]map[string]any `json:"requestBody"`
					} `json:"paths"`
				}
				if err := json.Unmarshal(doc, &d); err != nil {
					t.Fatal(err)
				}
				a := d.Paths["/a"]["get"]
				if a.OperationID != "getA" || a.Summary != "A" || a.Description != "A long" {
					t.Errorf("GET /a = %+v, want id getA, summary A, the old summary as description", a)
				}
				if ex := d.Paths["/a"]["post"].RequestBody["content"]["application/json"]["example"]; ex == nil {
					t.Error("POST /a has no request example")
				}
				x := d.Paths["/api/external/v1/internal/invite/x"]["get"]
				if len(x.Security) == 0 || x.Security[0]["machineBasic"] == nil {
					t.Errorf("the internal invite operation's security is %v, want machineBasic first", x.Security)
				}
				return
			}
			if err == nil {
				t.Fatal("merged without error")
			}
			for _, want := range tt.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
		})
	}
}
