package httpapi_test

import (
	"net/http"
	"testing"
)

// matrixCase is one operation of the API with the status every caller
// gets. want has one status per caller, in the order of `callers`:
//
//	super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous
//
// Paths and bodies may use the world's placeholders (see world.expand).
// Each resource group adds its cases in an init function of its own file
// (matrix_<group>_test.go).
type matrixCase struct {
	name         string
	method, path string
	body         string
	want         [9]int
}

var matrixCases []matrixCase

// w9 spells a want row.
func w9(super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous int) [9]int {
	return [9]int{super, superToken, instAdmin, orgToken, appManager, manager, inviter, guest, anonymous}
}

// TestAuthorizationMatrix runs every operation as every kind of caller and
// checks the status: deny by default, the authority ladder, organization
// scoping of institution admins and API tokens. A refused change must not
// queue any SCIM delivery. Reads share one world; each change gets a fresh
// world so that callers do not see each other's effects.
func TestAuthorizationMatrix(t *testing.T) {
	if len(matrixCases) == 0 {
		t.Fatal("no matrix cases registered")
	}
	shared := newWorld(t)
	for _, tc := range matrixCases {
		t.Run(tc.name, func(t *testing.T) {
			for i, caller := range callers {
				w := shared
				if tc.method != http.MethodGet {
					w = newWorld(t)
				}
				before := len(w.Queue.Deliveries())
				rec := w.do(caller, tc.method, tc.path, tc.body)
				if rec.Code != tc.want[i] {
					t.Errorf("%s %s as %s: status %d, want %d: %.300s", tc.method, tc.path, caller, rec.Code, tc.want[i], rec.Body.String())
				}
				if rec.Code >= 400 {
					if got := len(w.Queue.Deliveries()); got != before {
						t.Errorf("%s %s as %s failed with %d but queued %d deliveries", tc.method, tc.path, caller, rec.Code, got-before)
					}
					body := decode[map[string]any](t, rec)
					for _, k := range []string{"timestamp", "status", "error", "exception", "message", "path"} {
						if _, ok := body[k]; !ok {
							t.Errorf("%s %s as %s: error body lacks %q", tc.method, tc.path, caller, k)
						}
					}
				}
			}
		})
	}
}
