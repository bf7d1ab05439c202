package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/edu-invite/invite/shared/domain"
)

func TestInvokedReconcilerCallsTheReconcileFunctionSigned(t *testing.T) {
	var got struct {
		path, auth string
		detail     ReconcileRequest
	}
	fail := false
	lambda := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		var ev struct {
			Detail ReconcileRequest `json:"detail"`
		}
		_ = json.NewDecoder(r.Body).Decode(&ev)
		got.detail = ev.Detail
		if fail {
			w.Header().Set("X-Amz-Function-Error", "Unhandled")
			_, _ = w.Write([]byte(`{"errorMessage": "SP unreachable"}`))
			return
		}
		_ = json.NewEncoder(w).Encode(domain.ReconcileReport{SP: ev.Detail.SP, DryRun: ev.Detail.DryRun, Users: 3,
			Repairs: []domain.Repair{{Action: domain.RepairCreateUser, Kind: domain.ResourceUser, LocalID: 7}}})
	}))
	defer lambda.Close()
	t.Setenv("AWS_ENDPOINT_URL_LAMBDA", lambda.URL)
	cfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")}
	r := invokedReconciler{invoker{cfg: cfg, function: "invite-reconcile", hc: lambda.Client()}}

	rep, err := r.Reconcile(context.Background(), "sp-a", domain.ReconcileOptions{DryRun: true, MaxDeleteShare: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if got.path != "/2015-03-31/functions/invite-reconcile/invocations" ||
		!strings.HasPrefix(got.auth, "AWS4-HMAC-SHA256 Credential=AKID/") || !strings.Contains(got.auth, "/eu-west-1/lambda/aws4_request") {
		t.Fatalf("request %s, Authorization %q", got.path, got.auth)
	}
	if got.detail != (ReconcileRequest{SP: "sp-a", DryRun: true, MaxDeleteShare: 0.3}) {
		t.Fatalf("detail sent %+v", got.detail)
	}
	if rep.SP != "sp-a" || !rep.DryRun || rep.Users != 3 || len(rep.Repairs) != 1 || rep.Repairs[0].LocalID != 7 {
		t.Fatalf("report %+v", rep)
	}

	fail = true
	if _, err := r.Reconcile(context.Background(), "sp-a", domain.ReconcileOptions{}); domain.KindOf(err) != domain.KindUnavailable ||
		!strings.Contains(err.Error(), "SP unreachable") {
		t.Fatalf("a function error gives %v, want unavailable with the function's message", err)
	}
}

// The system function starts a job with an asynchronous, signed Invoke of
// the jobs function carrying the whole request; anything but Lambda's 202
// is the caller's error.
func TestInvokedJobsStartsTheJobsFunctionAsynchronously(t *testing.T) {
	var got struct {
		path, auth, invocationType string
		detail                     domain.JobRequest
	}
	status := http.StatusAccepted
	lambda := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth, got.invocationType = r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("X-Amz-Invocation-Type")
		var ev struct {
			Detail domain.JobRequest `json:"detail"`
		}
		_ = json.NewDecoder(r.Body).Decode(&ev)
		got.detail = ev.Detail
		w.WriteHeader(status)
		if status != http.StatusAccepted {
			_, _ = w.Write([]byte(`{"message": "Rate exceeded"}`))
		}
	}))
	defer lambda.Close()
	t.Setenv("AWS_ENDPOINT_URL_LAMBDA", lambda.URL)
	cfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKID", "SECRET", "")}
	j := invokedJobs{invoker{cfg: cfg, function: "invite-jobs", hc: lambda.Client()}}

	req := domain.JobRequest{ID: "job-1", Kind: domain.JobPerformanceSeed, StartedBy: "admin", Roles: 2, Users: 5}
	if err := j.StartJob(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if got.path != "/2015-03-31/functions/invite-jobs/invocations" || got.invocationType != "Event" ||
		!strings.HasPrefix(got.auth, "AWS4-HMAC-SHA256 Credential=AKID/") {
		t.Fatalf("request %s, type %q, Authorization %q", got.path, got.invocationType, got.auth)
	}
	if got.detail != req {
		t.Fatalf("detail sent %+v, want %+v", got.detail, req)
	}

	status = http.StatusTooManyRequests
	if err := j.StartJob(context.Background(), req); domain.KindOf(err) != domain.KindUnavailable || !strings.Contains(err.Error(), "Rate exceeded") {
		t.Fatalf("a refused invoke gives %v, want unavailable with Lambda's message", err)
	}
}
