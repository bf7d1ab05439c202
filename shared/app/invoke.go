package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/edu-invite/invite/shared/domain"
)

// ReconcileRequest is the "detail" of an invocation of the reconcile
// function for one SP (an on-demand run through the API); a scheduled
// event has no sp and runs every SP.
type ReconcileRequest struct {
	// JobID is set for an on-demand run started in the background: the
	// run records its report as that job (domain.ReconcileJobName).
	JobID          string  `json:"jobId,omitempty"`
	SP             string  `json:"sp"`
	DryRun         bool    `json:"dryRun"`
	MaxDeleteShare float64 `json:"maxDeleteShare,omitempty"`
}

// invoker calls the Lambda Invoke API of one function, signed with the
// SDK's SigV4 signer, so that the service needs no further SDK module for
// one call.
type invoker struct {
	cfg      aws.Config
	function string
	hc       *http.Client
}

// invokedReconciler runs a reconcile in the reconcile function and waits
// for its report. The API functions may not read SP credentials; the
// reconcile function may (RECONCILE_FUNCTION_NAME names it).
type invokedReconciler struct{ invoker }

// invokedJobs starts on-demand jobs in the jobs function
// (JOBS_FUNCTION_NAME), whose time limit fits them.
type invokedJobs struct{ invoker }

// StartJob invokes the jobs function asynchronously (Lambda queues the
// event and answers 202). Lambda may deliver the event more than once;
// the job's claim makes the second run do nothing.
func (j invokedJobs) StartJob(ctx context.Context, req domain.JobRequest) error {
	resp, out, err := j.invoke(ctx, "job", req, true)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusAccepted {
		return functionError("jobs", resp, out)
	}
	return nil
}

func (r invokedReconciler) Reconcile(ctx context.Context, spID string, opts domain.ReconcileOptions) (domain.ReconcileReport, error) {
	var rep domain.ReconcileReport
	resp, out, err := r.invoke(ctx, "reconcile", ReconcileRequest{SP: spID, DryRun: opts.DryRun, MaxDeleteShare: opts.MaxDeleteShare}, false)
	if err != nil {
		return rep, err
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Amz-Function-Error") != "" {
		return rep, functionError("reconcile", resp, out)
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return rep, fmt.Errorf("reconcile: decode report: %w", err)
	}
	return rep, nil
}

// StartReconcile invokes the reconcile function asynchronously (Lambda
// queues the event and answers 202), for a run longer than a request.
func (r invokedReconciler) StartReconcile(ctx context.Context, jobID, spID string, opts domain.ReconcileOptions) error {
	resp, out, err := r.invoke(ctx, "reconcile", ReconcileRequest{JobID: jobID, SP: spID, DryRun: opts.DryRun, MaxDeleteShare: opts.MaxDeleteShare}, true)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusAccepted {
		return functionError("reconcile", resp, out)
	}
	return nil
}

func functionError(name string, resp *http.Response, out []byte) error {
	var fe struct {
		ErrorMessage string `json:"errorMessage"`
		Message      string `json:"message"`
	}
	_ = json.Unmarshal(out, &fe)
	return domain.Unavailablef("the %s function failed (%d): %s", name, resp.StatusCode, fe.ErrorMessage+fe.Message)
}

// invoke calls Lambda's Invoke API, synchronously or as an event, with an
// EventBridge-shaped event of detail.
func (r invoker) invoke(ctx context.Context, detailType string, detail any, async bool) (*http.Response, []byte, error) {
	body, err := json.Marshal(map[string]any{"detail-type": detailType, "detail": detail})
	if err != nil {
		return nil, nil, err
	}
	endpoint := strings.TrimRight(lambdaEndpoint(r.cfg.Region), "/")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		endpoint+"/2015-03-31/functions/"+url.PathEscape(r.function)+"/invocations", bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if async {
		req.Header.Set("X-Amz-Invocation-Type", "Event")
	}
	creds, err := r.cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("invoke %s: AWS credentials: %w", r.function, err)
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "lambda", r.cfg.Region, time.Now()); err != nil {
		return nil, nil, err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return nil, nil, domain.Unavailablef("the %s function did not answer: %v", r.function, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 6<<20))
	if err != nil {
		return nil, nil, err
	}
	return resp, out, nil
}

// lambdaEndpoint follows the SDK's endpoint variables, else the regional
// endpoint.
func lambdaEndpoint(region string) string {
	if v := os.Getenv("AWS_ENDPOINT_URL_LAMBDA"); v != "" {
		return v
	}
	if v := os.Getenv("AWS_ENDPOINT_URL"); v != "" {
		return v
	}
	return "https://lambda." + region + ".amazonaws.com"
}
