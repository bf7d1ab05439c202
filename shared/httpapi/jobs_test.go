package httpapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// awaitJob checks that started is a 202 with a job to poll, polls it with
// get until it is done and answers the finished job.
func awaitJob(t *testing.T, started *httptest.ResponseRecorder, get func(path string) *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	if started.Code != http.StatusAccepted {
		t.Fatalf("start: %d %s, want 202 with a job", started.Code, started.Body)
	}
	var job map[string]any
	if err := json.Unmarshal(started.Body.Bytes(), &job); err != nil {
		t.Fatal(err)
	}
	statusURL, _ := job["statusUrl"].(string)
	id, _ := job["jobId"].(string)
	if job["status"] != domain.JobQueued || id == "" || !strings.HasSuffix(statusURL, "/"+id) || started.Header().Get("Location") != statusURL {
		t.Fatalf("start answered %v, Location %q", job, started.Header().Get("Location"))
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		poll := get(statusURL)
		if poll.Code != http.StatusOK {
			t.Fatalf("poll %s: %d %s", statusURL, poll.Code, poll.Body)
		}
		job = map[string]any{}
		if err := json.Unmarshal(poll.Body.Bytes(), &job); err != nil {
			t.Fatal(err)
		}
		if s := job["status"]; s == domain.JobSucceeded || s == domain.JobFailed {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %v still not done", job)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runJob starts a job as caller and answers its result once it succeeded.
func (w *world) runJob(t *testing.T, caller, method, path string) map[string]any {
	t.Helper()
	job := awaitJob(t, w.do(caller, method, path, ""), func(p string) *httptest.ResponseRecorder { return w.do(caller, "GET", p, "") })
	if job["status"] != domain.JobSucceeded {
		t.Fatalf("%s %s: job %v", method, path, job)
	}
	res, _ := job["result"].(map[string]any)
	return res
}

// The cron, repair and seed operations answer 202 at once with a job that
// each API polls under its own prefix; the job ends with its counts. Who
// may start or poll one, and bad sizes, are answered before any job.
func TestMaintenanceOperationsAnswerAJobToPoll(t *testing.T) {
	w := newWorld(t)
	w.Svc.Session.PerformanceSeedAllowed = true
	for _, tc := range []struct {
		method, path, statusPrefix, resultKey string
	}{
		{"GET", "/api/v1/system/cron/expiry-notifications", "/api/v1/system/jobs/", "reminded"},
		{"GET", "/api/external/v1/system/cron/expiry-notifications", "/api/external/v1/system/jobs/", "reminded"},
		{"GET", "/api/v1/system/cron/cleanup", "/api/v1/system/jobs/", "apiTokens"},
		{"GET", "/api/external/v1/system/cron/cleanup", "/api/external/v1/system/jobs/", "apiTokens"},
		{"GET", "/api/v1/system/date-repair", "/api/v1/system/jobs/", "repairs"},
		{"POST", "/api/v1/system/date-repair", "/api/v1/system/jobs/", "repaired"},
		{"POST", "/api/v1/system/index-repair", "/api/v1/system/jobs/", "done"},
		{"PUT", "/api/v1/system/performance-seed?numberOfRole=2&numberOfUsers=3", "/api/v1/system/jobs/", "users"},
		{"PUT", "/api/external/v1/system/performance-seed?numberOfRole=1&numberOfUsers=0", "/api/external/v1/system/jobs/", "roles"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			started := w.do("super", tc.method, tc.path, "")
			if loc := started.Header().Get("Location"); !strings.HasPrefix(loc, tc.statusPrefix) {
				t.Fatalf("Location %q, want under %s", loc, tc.statusPrefix)
			}
			job := awaitJob(t, started, func(p string) *httptest.ResponseRecorder { return w.do("super", "GET", p, "") })
			res, _ := job["result"].(map[string]any)
			if job["status"] != domain.JobSucceeded || res[tc.resultKey] == nil || job["queuedAt"] == "" || job["finishedAt"] == "" {
				t.Fatalf("job %v, want succeeded with %q in its result", job, tc.resultKey)
			}
		})
	}
	seeded := w.runJob(t, "super", "PUT", "/api/v1/system/performance-seed?numberOfRole=2&numberOfUsers=3")
	if seeded["roles"] != float64(2) || seeded["users"] != float64(3) {
		t.Errorf("seed result %v", seeded)
	}
	for _, tc := range []struct {
		caller, method, path string
		want                 int
	}{
		{"manager", "GET", "/api/v1/system/cron/cleanup", http.StatusForbidden},
		{"guest", "POST", "/api/v1/system/index-repair", http.StatusForbidden},
		{"super", "PUT", "/api/v1/system/performance-seed?numberOfRole=0", http.StatusBadRequest},
		{"super", "PUT", "/api/v1/system/performance-seed?numberOfUsers=abc", http.StatusBadRequest},
		{"super", "GET", "/api/v1/system/jobs/no-such-job", http.StatusNotFound},
		{"guest", "GET", "/api/v1/system/jobs/no-such-job", http.StatusForbidden},
	} {
		if rec := w.do(tc.caller, tc.method, tc.path, ""); rec.Code != tc.want {
			t.Errorf("%s %s %s: %d, want %d: %s", tc.caller, tc.method, tc.path, rec.Code, tc.want, rec.Body)
		}
	}
}

// A second run of one job (Lambda retrying its asynchronous invocation)
// finds the job claimed and does nothing; a job never queued is not run.
func TestAJobRunsOnceWhenItIsDeliveredTwice(t *testing.T) {
	w := newWorld(t)
	w.Svc.Session.PerformanceSeedAllowed = true
	ctx := context.Background()
	res := w.runJob(t, "super", "PUT", "/api/v1/system/performance-seed?numberOfRole=1&numberOfUsers=2")
	users := decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search", "")).TotalElements

	// The same job delivered again, after it ran.
	started := w.do("super", "PUT", "/api/v1/system/performance-seed?numberOfRole=1&numberOfUsers=2", "")
	job := awaitJob(t, started, func(p string) *httptest.ResponseRecorder { return w.do("super", "GET", p, "") })
	id := job["jobId"].(string)
	users += 2
	ran, err := w.Svc.RunJob(ctx, domain.JobRequest{ID: id, Kind: domain.JobPerformanceSeed, StartedBy: "admin", Roles: 1, Users: 2})
	if err != nil || ran {
		t.Fatalf("a second run of job %s: ran %v, %v; want not run", id, ran, err)
	}
	after := decode[searchPage](t, w.do("super", "GET", "/api/v1/users/search", "")).TotalElements
	if after != users {
		t.Errorf("%d users after a seed of 2 delivered twice, want %d (an earlier seed: %v)", after, users, res)
	}
	if ran, err := w.Svc.RunJob(ctx, domain.JobRequest{ID: "never-queued", Kind: domain.JobCleanup}); err != nil || ran {
		t.Errorf("a job never queued: ran %v, %v", ran, err)
	}
}

// A runner stopped at its time limit (the jobs function's 15 minutes)
// records no outcome; once that limit and a minute's grace have passed,
// its job polls as failed, saying to start it again, rather than running
// for ever. A run without a limit (in a process) or still within it polls
// as running.
func TestAJobStoppedAtItsTimeLimitPollsAsFailed(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, id   string
		runUntil   time.Time
		wantStatus string
	}{
		{"limit passed", "stopped", w.Now.Add(-2 * time.Minute), domain.JobFailed},
		{"limit passed, within grace", "finishing", w.Now.Add(-30 * time.Second), domain.JobRunning},
		{"limit ahead", "busy", w.Now.Add(10 * time.Minute), domain.JobRunning},
		{"no limit", "in-process", time.Time{}, domain.JobRunning},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := domain.OnDemandJobName(tc.id)
			if err := w.Svc.Store.PutJobRun(ctx, domain.JobRun{Name: name, QueuedAt: w.Now.Add(-20 * time.Minute)}); err != nil {
				t.Fatal(err)
			}
			if _, ok, err := w.Svc.Store.ClaimJobRun(ctx, name, w.Now.Add(-17*time.Minute), tc.runUntil); !ok || err != nil {
				t.Fatalf("claim: %v %v", ok, err)
			}
			job := decode[map[string]any](t, w.do("super", "GET", "/api/v1/system/jobs/"+tc.id, ""))
			if job["status"] != tc.wantStatus {
				t.Fatalf("job %v, want status %s", job, tc.wantStatus)
			}
			if tc.wantStatus == domain.JobFailed && (job["error"] != domain.StoppedAtTimeLimit || job["finishedAt"] != tc.runUntil.UTC().Format(time.RFC3339)) {
				t.Errorf("stopped job %v: want the time-limit error, finished at its limit", job)
			}
		})
	}
}
