//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScheduledJobsRecordTheirRuns invokes each scheduled function with
// its EventBridge event: each runs with its own role and records its run
// for the console's operations page.
func TestScheduledJobsRecordTheirRuns(t *testing.T) {
	noDenials(t)
	jobs := []string{"outbox-sweep", "expiry", "cleanup", "reconcile"}
	started := time.Now().Add(-time.Second)
	for _, name := range jobs {
		if _, err := env.Scheduled(context.Background(), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	runs, err := env.Store.GetJobRuns(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, r := range runs {
		if r.StartedAt.After(started) {
			recorded = append(recorded, r.Name)
			if r.Failed {
				t.Errorf("%s recorded a failed run: %s", r.Name, r.Summary)
			}
		}
	}
	for _, name := range jobs {
		if !slices.Contains(recorded, name) {
			t.Errorf("%s ran but its run was not recorded", name)
		}
	}
}

// TestMailEventsRecordsABounce sends the SES bounce event, as the
// configuration set's rule delivers it, to the mail-events function.
func TestMailEventsRecordsABounce(t *testing.T) {
	noDenials(t)
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "events", "ses-bounce.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		DetailType string          `json:"detail-type"`
		Detail     json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	out, err := env.SESEvent(context.Background(), "mail-events", ev.DetailType, ev.Detail)
	if err != nil {
		t.Fatalf("mail-events: %v", err)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("mail-events answered %s", out)
	}
}

// TestRepairIsAJobOfTheJobsFunction: a date repair through the API answers
// 202 at once from the system function; the jobs function, invoked
// asynchronously with its own role, runs it and records the outcome that
// the status URL answers.
func TestRepairIsAJobOfTheJobsFunction(t *testing.T) {
	noDenials(t)
	code, job := superUserCall(t, http.MethodPost, "/api/v1/system/date-repair", "")
	statusURL, _ := job["statusUrl"].(string)
	if code != http.StatusAccepted || job["status"] != "queued" || !strings.HasPrefix(statusURL, "/api/v1/system/jobs/") {
		t.Fatalf("date repair: %d %v, want 202 with a queued job", code, job)
	}
	job = pollJob(t, statusURL)
	if job["status"] != "succeeded" {
		t.Fatalf("date repair job %v", job)
	}
	if res, _ := job["result"].(map[string]any); res["repaired"] == nil {
		t.Errorf("the job's result %v has no count", job["result"])
	}
	if calls := env.Log.Calls("jobs", "dynamodb:UpdateItem"); len(calls) == 0 {
		t.Errorf("the jobs function did not claim the job")
	}
}
