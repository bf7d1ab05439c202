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
	r := invokedReconciler{cfg: cfg, function: "invite-reconcile", hc: lambda.Client()}

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
