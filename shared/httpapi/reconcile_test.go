package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A reconcile run answers 202 with its job at once; polling the job gives
// the report when the run is done. Bad input is refused before any run.
func TestReconcileRouteStartsAJobThatDefaultsToADryRun(t *testing.T) {
	w := newWorld(t)
	for _, tc := range []struct {
		body       string
		status     int
		wantDryRun bool
	}{
		{`{"sp":"sp-a"}`, http.StatusAccepted, true},
		{`{"sp":"sp-a","dryRun":true}`, http.StatusAccepted, true},
		{`{"sp":"sp-a","dryRun":false,"maxDeleteShare":0.5}`, http.StatusAccepted, false},
		{`{}`, http.StatusBadRequest, false},
		{`{"sp":"sp-a","maxDeleteShare":1.5}`, http.StatusBadRequest, false},
		{`{"sp":"no-such-sp"}`, http.StatusNotFound, false},
	} {
		rec := w.do("super", "POST", "/api/v1/system/deliveries/reconcile", tc.body)
		if rec.Code != tc.status {
			t.Fatalf("%s: status %d, want %d: %s", tc.body, rec.Code, tc.status, rec.Body.String())
		}
		if tc.status != http.StatusAccepted {
			continue
		}
		started := decode[map[string]any](t, rec)
		statusURL, _ := started["statusUrl"].(string)
		if started["status"] != "queued" || !strings.HasSuffix(statusURL, "/"+started["jobId"].(string)) ||
			rec.Header().Get("Location") != statusURL {
			t.Fatalf("%s: answer %v, Location %q", tc.body, started, rec.Header().Get("Location"))
		}
		var job map[string]any
		deadline := time.Now().Add(10 * time.Second)
		for {
			poll := w.do("super", "GET", statusURL, "")
			if poll.Code != http.StatusOK {
				t.Fatalf("%s: poll %d: %s", tc.body, poll.Code, poll.Body.String())
			}
			job = decode[map[string]any](t, poll)
			if (job["status"] != "queued" && job["status"] != "running") || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		report, _ := job["report"].(map[string]any)
		if job["status"] != "succeeded" || report["sp"] != "sp-a" || report["dryRun"] != tc.wantDryRun {
			t.Fatalf("%s: job %v, want a report of sp-a with dryRun %v", tc.body, job, tc.wantDryRun)
		}
	}
	if rec := w.do("super", "GET", "/api/v1/system/deliveries/reconcile/no-such-job", ""); rec.Code != http.StatusNotFound {
		t.Errorf("an unknown job: %d, want 404", rec.Code)
	}
	if rec := w.do("guest", "GET", "/api/v1/system/deliveries/reconcile/no-such-job", ""); rec.Code != http.StatusForbidden {
		t.Errorf("a guest polls a job: %d, want 403", rec.Code)
	}
}
