package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsPage: /api/docs is served from the binary under a CSP that allows
// no inline script or style and nothing from another origin, and every
// script and style sheet the page names is served with its type.
func TestDocsPage(t *testing.T) {
	h := (&API{}).Handler(GroupSystem)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/docs", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("GET /api/docs: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	csp := rec.Header().Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, banned := range []string{"unsafe-inline", "unsafe-eval", "http:", "https:", "*"} {
		if strings.Contains(csp, banned) {
			t.Errorf("CSP %q allows %q", csp, banned)
		}
	}
	page := rec.Body.String()
	if regexp.MustCompile(`<script(\s[^>]*)?>\s*[^<\s]`).MatchString(page) || strings.Contains(page, "<style") || strings.Contains(page, " style=") {
		t.Error("the page has inline script or style, which its CSP refuses")
	}
	if strings.Contains(page, "//") && regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(page) {
		t.Error("the page loads something from another origin")
	}
	refs := regexp.MustCompile(`(?:src|href)="(/api/docs/assets/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(refs) < 4 {
		t.Fatalf("the page names %d assets, want Swagger UI's script and style and its own", len(refs))
	}
	for _, ref := range refs {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", ref[1], nil))
		ct := rec.Header().Get("Content-Type")
		wantType := map[bool]string{true: "text/javascript", false: "text/css"}[strings.HasSuffix(ref[1], ".js")]
		if rec.Code != 200 || !strings.HasPrefix(ct, wantType) || rec.Body.Len() == 0 || rec.Header().Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: %d %q, %d bytes", ref[1], rec.Code, ct, rec.Body.Len())
		}
	}
	for _, bad := range []string{"/api/docs/assets/nope.js", "/api/docs/assets/..%2fdocs.html", "/api/docs/assets/SWAGGER-UI-LICENSE"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", bad, nil))
		if rec.Code != 404 {
			t.Errorf("GET %s: %d, want 404", bad, rec.Code)
		}
	}
}

// TestDocsAssetsMatchPinnedPackage: the vendored Swagger UI is byte for byte
// the version apidocs/package-lock.json pins (`make api-docs-vendor` copies it).
func TestDocsAssetsMatchPinnedPackage(t *testing.T) {
	dist := filepath.Join("apidocs", "node_modules", "swagger-ui-dist")
	if _, err := os.Stat(dist); err != nil {
		needTool(t, "swagger-ui-dist", "`make npm` (npm ci in shared/httpapi/apidocs)")
	}
	var lock struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	b, err := os.ReadFile(filepath.Join("apidocs", "package-lock.json"))
	if err != nil || json.Unmarshal(b, &lock) != nil {
		t.Fatalf("apidocs/package-lock.json: %v", err)
	}
	var installed struct{ Version string }
	b, _ = os.ReadFile(filepath.Join(dist, "package.json"))
	_ = json.Unmarshal(b, &installed)
	if pinned := lock.Packages["node_modules/swagger-ui-dist"].Version; pinned == "" || pinned != installed.Version {
		t.Fatalf("installed swagger-ui-dist %q, lockfile pins %q: run make npm", installed.Version, pinned)
	}
	for _, f := range []string{"swagger-ui-bundle.js", "swagger-ui.css"} {
		want, err := os.ReadFile(filepath.Join(dist, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := docsFiles.ReadFile("apidocs/assets/" + f)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("apidocs/assets/%s differs from swagger-ui-dist %s: run make api-docs-vendor", f, installed.Version)
		}
	}
}

// TestOpenAPISecurityMatchesCallers: each operation lists the credentials
// the authenticator accepts on its path: Basic machine callers only under
// the internal invite API (and the CRM profile search), CRM keys only on
// CRM paths, and everything else people's bearer tokens or API tokens.
func TestOpenAPISecurityMatchesCallers(t *testing.T) {
	raw, err := OpenAPI()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Security []map[string][]string `json:"security"`
		Paths    map[string]map[string]struct {
			Security *[]map[string][]string `json:"security"`
		} `json:"paths"`
		Components struct {
			SecuritySchemes map[string]any `json:"securitySchemes"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	// Operations only a signed-in person may call (the service refuses programs).
	personOnly := map[string]bool{"POST /api/v1/invitations/accept": true, "POST /api/external/v1/invitations/accept": true}
	crm := func(path string) bool {
		for _, p := range Prefixes[GroupCRM] {
			if path == p || strings.HasPrefix(path, p+"/") {
				return true
			}
		}
		return false
	}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			sec := doc.Security
			if op.Security != nil {
				sec = *op.Security
			}
			schemes := map[string]bool{}
			for _, s := range sec {
				for name := range s {
					if doc.Components.SecuritySchemes[name] == nil {
						t.Errorf("%s %s names an undefined security scheme %s", method, path, name)
					}
					schemes[name] = true
				}
			}
			key := strings.ToUpper(method) + " " + path
			if personOnly[key] {
				if len(schemes) != 1 || !schemes["bearer"] {
					t.Errorf("%s: security %v, want bearer only (a signed-in person)", key, sec)
				}
				continue
			}
			switch {
			case strings.HasPrefix(path, machineCallerPrefix):
				if !schemes["machineBasic"] || !schemes["apiToken"] || schemes["crmApiKey"] {
					t.Errorf("%s: security %v, want machineBasic, apiToken, bearer", key, sec)
				}
			case crm(path):
				if !schemes["crmApiKey"] || schemes["apiToken"] || schemes["bearer"] {
					t.Errorf("%s: security %v, want crmApiKey only (plus machineBasic on the machine path)", key, sec)
				}
			default:
				if schemes["machineBasic"] || schemes["crmApiKey"] {
					t.Errorf("%s: security %v lists a machine scheme the authenticator refuses on this path", key, sec)
				}
			}
		}
	}
}
