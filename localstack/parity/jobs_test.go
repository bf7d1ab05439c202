//go:build parity

package parity

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
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

// TestExpiryContinuesInTheJobsFunction: a day with more memberships due
// than one expiry run takes on (the deployment's expiryLimit, set in the
// Makefile's PARITY_CONTEXT) is ended by the scheduled expiry run, which
// hands the rest on to the jobs function (lambda:InvokeFunction with the
// expiry function's role), whose run goes on in itself (the jobs
// function's own role) until none is left: each invocation and each table
// access is allowed by the template's statements.
func TestExpiryContinuesInTheJobsFunction(t *testing.T) {
	noDenials(t)
	ctx := context.Background()
	limit, err := strconv.Atoi(env.Functions["expiry"].Env["EXPIRY_LIMIT"])
	if err != nil || limit < 1 || env.Functions["jobs"].Env["EXPIRY_LIMIT"] == "" {
		t.Fatalf("the parity deployment bounds no expiry run (EXPIRY_LIMIT %q, %v): expiryLimit in PARITY_CONTEXT", env.Functions["expiry"].Env["EXPIRY_LIMIT"], err)
	}
	roleID, err := strconv.ParseInt(apiRole(t, "Cohort ending", "org-parity"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	// Three runs' worth and one more, ended an hour ago.
	cohort := 2*limit + 1
	firstUser, err := env.Store.NextIDs(ctx, "user", cohort)
	if err != nil {
		t.Fatal(err)
	}
	firstMembership, err := env.Store.NextIDs(ctx, "userrole", cohort)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	ended := now.Add(-time.Hour)
	seed := domain.Seed{}
	for i := range int64(cohort) {
		uid := firstUser + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("urn:collab:person:cohort-", uid), GivenName: "Cohort",
			FamilyName: fmt.Sprint(uid), Name: fmt.Sprint("Cohort ", uid), Email: fmt.Sprint("cohort", uid, "@parity.example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: firstMembership + i, UserID: uid, RoleID: roleID, Authority: domain.Guest,
			CreatedAt: now.Add(-24 * time.Hour), EndDate: &ended})
	}
	if err := env.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	// The expiry function invokes only the jobs function, which invokes
	// only itself.
	invokes := func(function string) int { return len(env.Log.Calls(function, "lambda:InvokeFunction")) }
	fromExpiry, fromJobs := invokes("expiry"), invokes("jobs")
	out, err := env.Scheduled(ctx, "expiry")
	if err != nil {
		t.Fatalf("expiry: %v", err)
	}
	var res struct {
		Removed struct {
			UserRoles    int    `json:"userRoles"`
			Remaining    int64  `json:"remaining"`
			Continuation string `json:"continuation"`
		} `json:"removed"`
	}
	first := &res.Removed
	if err := json.Unmarshal(out, &res); err != nil || first.UserRoles == 0 || first.Remaining == 0 || first.Continuation == "" {
		t.Fatalf("the scheduled run answered %s (%v), want some removed, some left and a continuation", out, err)
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		left, err := env.Store.CountUserRolesEndingBetween(ctx, ended.Add(-time.Minute), now)
		if err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d memberships still due 90 s after the scheduled run", left)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if n := invokes("expiry") - fromExpiry; n != 1 {
		t.Errorf("the expiry function invoked the jobs function %d times, want once", n)
	}
	if n := invokes("jobs") - fromJobs; n < 1 {
		t.Errorf("the jobs function never went on in itself (%d invocations) with %d memberships and a bound of %d a run", n, cohort, limit)
	}
	runs, err := env.Store.GetJobRuns(ctx, []string{domain.OnDemandJobName(first.Continuation)})
	if err != nil || len(runs) != 1 || runs[0].Failed || runs[0].FinishedAt.IsZero() {
		t.Errorf("the continuation's run: %+v (%v), want one finished without failure", runs, err)
	}
}
