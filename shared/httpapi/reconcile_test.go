package httpapi_test

import (
	"net/http"
	"testing"
)

func TestReconcileRouteDefaultsToADryRunAndChecksItsInput(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		body       string
		status     int
		wantDryRun bool
	}{
		{`{"sp":"sp-a"}`, http.StatusOK, true},
		{`{"sp":"sp-a","dryRun":true}`, http.StatusOK, true},
		{`{"sp":"sp-a","dryRun":false,"maxDeleteShare":0.5}`, http.StatusOK, false},
		{`{}`, http.StatusBadRequest, false},
		{`{"sp":"sp-a","maxDeleteShare":1.5}`, http.StatusBadRequest, false},
		{`{"sp":"no-such-sp"}`, http.StatusNotFound, false},
	} {
		rec := w.do("super", "POST", "/api/v1/system/deliveries/reconcile", tc.body)
		if rec.Code != tc.status {
			t.Fatalf("%s: status %d, want %d: %s", tc.body, rec.Code, tc.status, rec.Body.String())
		}
		if tc.status != http.StatusOK {
			continue
		}
		got := decode[map[string]any](t, rec)
		if got["sp"] != "sp-a" || got["dryRun"] != tc.wantDryRun {
			t.Fatalf("%s: answer %v, want a report of sp-a with dryRun %v", tc.body, got, tc.wantDryRun)
		}
	}
}
