package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// doToken sends a request authenticated by a raw API token.
func (w *world) doToken(raw, method, path string) *httptest.ResponseRecorder {
	w.t.Helper()
	req := httptest.NewRequest(method, w.expand(path), nil)
	req.Header.Set(auth.APITokenHeader, raw)
	rec := httptest.NewRecorder()
	w.Server.ServeHTTP(rec, req)
	return rec
}

// generate asks for a token value as caller and returns it.
func (w *world) generate(caller string) string {
	w.t.Helper()
	rec := w.do(caller, "GET", "/api/v1/tokens/generate-token", "")
	if rec.Code != http.StatusOK {
		w.t.Fatalf("generate-token as %s: %d %s", caller, rec.Code, rec.Body.String())
	}
	raw := decode[map[string]string](w.t, rec)["token"]
	if len(raw) < 40 {
		w.t.Fatalf("generated token %q is too short", raw)
	}
	return raw
}

func tokenIDs(t *testing.T, rec *httptest.ResponseRecorder) []int64 {
	t.Helper()
	var ids []int64
	for _, tok := range decode[[]map[string]any](t, rec) {
		ids = append(ids, int64(tok["id"].(float64)))
	}
	return ids
}

func TestAPITokenShownOnceAuthenticatesAndIsDeleted(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	raw := w.generate("instAdmin")
	hash := auth.HashToken(raw)
	if _, err := w.Store.GetAPITokenByHash(ctx, hash); !domain.IsNotFound(err) {
		t.Fatalf("a generated but not persisted token authenticates: %v", err)
	}

	rec := w.do("instAdmin", "POST", "/api/v1/tokens", `{"description":"CI pipeline","hashedValue":"ignored","id":99}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
	}
	created := decode[map[string]any](t, rec)
	if created["organizationGUID"] != "org-a" || created["superUserToken"] != false || created["description"] != "CI pipeline" ||
		created["owner"] != "instAdmin@example.org" || created["createdAt"] == nil {
		t.Errorf("created token %v", created)
	}
	for _, leak := range []string{raw, hash, "hashedValue", "ignored"} {
		if strings.Contains(rec.Body.String(), leak) {
			t.Errorf("create response shows %q: %s", leak, rec.Body.String())
		}
	}
	id := int64(created["id"].(float64))
	stored, err := w.Store.GetAPITokenByHash(ctx, hash)
	if err != nil || stored.ID != id || stored.OrganizationGUID != "org-a" || stored.HashedValue != hash {
		t.Fatalf("stored token %+v, %v", stored, err)
	}

	// The generated value is persisted once; a second POST finds none.
	if rec := w.do("instAdmin", "POST", "/api/v1/tokens", `{"description":"again"}`); rec.Code != http.StatusBadRequest {
		t.Errorf("second create: %d %s", rec.Code, rec.Body.String())
	}

	// The new token acts within org-a.
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search?roleId={roleA}"); rec.Code != http.StatusOK {
		t.Errorf("new token on its organization's role: %d %s", rec.Code, rec.Body.String())
	}
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search?roleId={roleB}"); rec.Code != http.StatusNotFound {
		t.Errorf("new token on another organization's role: %d", rec.Code)
	}

	// Lists: the institution admin sees org-a's tokens, the super user all;
	// no list shows a value or a hash.
	list := w.do("instAdmin", "GET", "/api/v1/tokens", "")
	if got := tokenIDs(t, list); len(got) != 2 || got[0] != 2 || got[1] != id {
		t.Errorf("institution admin lists %v, want [2 %d]", got, id)
	}
	all := w.do("super", "GET", "/api/v1/tokens", "")
	if got := tokenIDs(t, all); len(got) != 3 {
		t.Errorf("super user lists %v, want 3 tokens", got)
	}
	for _, body := range []string{list.Body.String(), all.Body.String()} {
		for _, leak := range []string{raw, hash, "hashedValue", auth.HashToken(orgTokenValue)} {
			if strings.Contains(body, leak) {
				t.Errorf("token list shows %q", leak)
			}
		}
	}

	// Deleted: 401 from then on, gone from the store and the list.
	if rec := w.do("instAdmin", "DELETE", "/api/v1/tokens/"+itoa(id), ""); rec.Code != http.StatusNoContent {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body.String())
	}
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search?roleId={roleA}"); rec.Code != http.StatusUnauthorized {
		t.Errorf("deleted token: %d, want 401", rec.Code)
	}
	if _, err := w.Store.GetAPITokenByHash(ctx, hash); !domain.IsNotFound(err) {
		t.Errorf("deleted token still stored: %v", err)
	}
	if got := tokenIDs(t, w.do("instAdmin", "GET", "/api/v1/tokens", "")); len(got) != 1 || got[0] != 2 {
		t.Errorf("after delete the list is %v", got)
	}
	if rec := w.do("instAdmin", "DELETE", "/api/v1/tokens/"+itoa(id), ""); rec.Code != http.StatusNotFound {
		t.Errorf("second delete: %d", rec.Code)
	}
}

func TestAPITokenCreationRules(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	before, err := w.Store.ListAPITokens(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, caller, body string
		want               int
	}{
		{"description required", "instAdmin", `{"description":"  "}`, 400},
		{"institution admin asks for a super-user token", "instAdmin", `{"description":"x","superUserToken":true}`, 403},
		{"institution admin asks for another organization", "instAdmin", `{"description":"x","organizationGUID":"org-b"}`, 403},
		{"super user without organization or superUserToken", "super", `{"description":"x"}`, 400},
		{"expiry in the past", "instAdmin", `{"description":"x","expiresAt":"{pastDate}"}`, 400},
		{"bad expiry", "instAdmin", `{"description":"x","expiresAt":"soon"}`, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.generate(tc.caller)
			rec := w.do(tc.caller, "POST", "/api/v1/tokens", tc.body)
			if rec.Code != tc.want {
				t.Errorf("status %d, want %d: %s", rec.Code, tc.want, rec.Body.String())
			}
			if body := decode[map[string]any](t, rec); body["message"] == "" || body["path"] != "/api/v1/tokens" {
				t.Errorf("error body %v", body)
			}
		})
	}
	after, err := w.Store.ListAPITokens(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("refused creations stored tokens: %d before, %d after", len(before), len(after))
	}

	// A super user makes a super-user token, which acts as super user.
	raw := w.generate("super")
	rec := w.do("super", "POST", "/api/v1/tokens", `{"description":"ops","superUserToken":true}`)
	if rec.Code != http.StatusOK || decode[map[string]any](t, rec)["superUserToken"] != true {
		t.Fatalf("super-user token: %d %s", rec.Code, rec.Body.String())
	}
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search"); rec.Code != http.StatusOK {
		t.Errorf("super-user token on the audit of all roles: %d", rec.Code)
	}

	// A generated value is valid for ten minutes.
	w.generate("instAdmin")
	w.Now = w.Now.Add(11 * time.Minute)
	if rec := w.do("instAdmin", "POST", "/api/v1/tokens", `{"description":"late"}`); rec.Code != http.StatusBadRequest {
		t.Errorf("late create: %d %s", rec.Code, rec.Body.String())
	}
}

func TestExpiredAPITokenIsRefusedAndCleanedUp(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	raw := w.generate("instAdmin")
	expires := w.Now.Add(time.Hour)
	rec := w.do("instAdmin", "POST", "/api/v1/tokens", `{"description":"short","expiresAt":`+itoa(expires.Unix())+`}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("create: %d %s", rec.Code, rec.Body.String())
	}
	if got := decode[map[string]any](t, rec)["expiresAt"]; got != expires.Format(time.RFC3339) {
		t.Errorf("expiresAt %v, want %s", got, expires.Format(time.RFC3339))
	}
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search?roleId={roleA}"); rec.Code != http.StatusOK {
		t.Fatalf("token before expiry: %d", rec.Code)
	}
	w.Now = expires
	if rec := w.doToken(raw, "GET", "/api/v1/user_roles_audit/search?roleId={roleA}"); rec.Code != http.StatusUnauthorized {
		t.Errorf("token at expiry: %d, want 401", rec.Code)
	}
	// Listed until the cleanup runs, then gone; the other tokens stay.
	if toks, _ := w.Store.ListAPITokens(ctx, "org-a"); len(toks) != 2 {
		t.Fatalf("org-a tokens before cleanup: %+v", toks)
	}
	if got := w.runJob(t, "super", "GET", "/api/v1/system/cron/cleanup"); got["apiTokens"] != float64(1) {
		t.Errorf("cleanup removed %v API tokens, want 1", got)
	}
	toks, err := w.Store.ListAPITokens(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) != 2 || toks[0].ID != 1 || toks[1].ID != 2 {
		t.Errorf("tokens after cleanup: %+v", toks)
	}
	if got := w.runJob(t, "super", "GET", "/api/v1/system/cron/cleanup"); got["apiTokens"] != float64(0) {
		t.Errorf("second cleanup: %v", got)
	}
}
