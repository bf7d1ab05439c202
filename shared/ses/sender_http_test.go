package ses

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/edu-invite/invite/shared/domain"
)

// sendEmailRequest is the part of the SES v2 SendEmail REST body we check.
type sendEmailRequest struct {
	FromEmailAddress     string
	ConfigurationSetName *string
	Destination          struct{ ToAddresses []string }
	Content              struct {
		Simple *struct {
			Subject struct{ Data, Charset string }
			Body    struct {
				Html *struct{ Data, Charset string }
				Text *struct{ Data, Charset string }
			}
		}
	}
}

// recordingSES stands in for SES: it records each request and answers with
// a fixed status, error code and message.
type recordingSES struct {
	status    int
	errorCode string
	message   string

	mu       sync.Mutex
	requests []recordedRequest
}

type recordedRequest struct {
	method, path, signature string
	body                    []byte
}

func (s *recordingSES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, recordedRequest{r.Method, r.URL.Path, r.Header.Get("Authorization"), body})
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-RequestId", "req-123")
	if s.status == 0 || s.status == http.StatusOK {
		_, _ = io.WriteString(w, `{"MessageId":"msg-1"}`)
		return
	}
	w.Header().Set("X-Amzn-ErrorType", s.errorCode)
	w.WriteHeader(s.status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": s.message})
}

func (s *recordingSES) only(t *testing.T) recordedRequest {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) != 1 {
		t.Fatalf("SES got %d requests, want 1", len(s.requests))
	}
	return s.requests[0]
}

func startRecordingSES(t *testing.T, ses *recordingSES) string {
	t.Helper()
	srv := httptest.NewServer(ses)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestSendPostsSimpleContentToSendEmail(t *testing.T) {
	ses := &recordingSES{}
	sender := NewSender(newTestClient(t, startRecordingSES(t, ses)), testFrom, testConfigSet)

	if err := sender.Send(context.Background(), testEmail()); err != nil {
		t.Fatalf("Send: %v", err)
	}

	req := ses.only(t)
	if req.method != http.MethodPost || req.path != "/v2/email/outbound-emails" {
		t.Errorf("request = %s %s, want POST /v2/email/outbound-emails", req.method, req.path)
	}
	if !strings.HasPrefix(req.signature, "AWS4-HMAC-SHA256 ") {
		t.Errorf("request is not SigV4-signed: %q", req.signature)
	}
	var got sendEmailRequest
	if err := json.Unmarshal(req.body, &got); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, req.body)
	}
	want := testEmail()
	if got.FromEmailAddress != testFrom {
		t.Errorf("From = %q, want %q", got.FromEmailAddress, testFrom)
	}
	if len(got.Destination.ToAddresses) != 1 || got.Destination.ToAddresses[0] != want.To {
		t.Errorf("To = %q, want [%q]", got.Destination.ToAddresses, want.To)
	}
	if got.ConfigurationSetName == nil || *got.ConfigurationSetName != testConfigSet {
		t.Errorf("ConfigurationSetName = %v, want %q", got.ConfigurationSetName, testConfigSet)
	}
	simple := got.Content.Simple
	if simple == nil {
		t.Fatalf("no Simple content:\n%s", req.body)
	}
	if simple.Subject.Data != want.Subject || simple.Subject.Charset != "UTF-8" {
		t.Errorf("Subject = %+v, want %q in UTF-8", simple.Subject, want.Subject)
	}
	if h := simple.Body.Html; h == nil || h.Data != want.HTML || h.Charset != "UTF-8" {
		t.Errorf("Html = %+v, want %q in UTF-8", h, want.HTML)
	}
	if x := simple.Body.Text; x == nil || x.Data != want.Text || x.Charset != "UTF-8" {
		t.Errorf("Text = %+v, want %q in UTF-8", x, want.Text)
	}
}

func TestSendOmitsWhatIsNotSet(t *testing.T) {
	ses := &recordingSES{}
	sender := NewSender(newTestClient(t, startRecordingSES(t, ses)), testFrom, "")
	e := testEmail()
	e.HTML = ""

	if err := sender.Send(context.Background(), e); err != nil {
		t.Fatalf("Send: %v", err)
	}

	var got sendEmailRequest
	if err := json.Unmarshal(ses.only(t).body, &got); err != nil {
		t.Fatal(err)
	}
	if got.ConfigurationSetName != nil {
		t.Errorf("ConfigurationSetName = %q, want none", *got.ConfigurationSetName)
	}
	if got.Content.Simple.Body.Html != nil {
		t.Errorf("Html part sent for a text-only mail")
	}
}

func TestSendRejectsUnsendableMailWithoutCallingSES(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(*domain.Email)
	}{
		{"no recipient", func(e *domain.Email) { e.To = " " }},
		{"no body", func(e *domain.Email) { e.HTML, e.Text = "", "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ses := &recordingSES{}
			sender := NewSender(newTestClient(t, startRecordingSES(t, ses)), testFrom, "")
			e := testEmail()
			tt.spoil(&e)
			if err := sender.Send(context.Background(), e); err == nil {
				t.Fatal("Send succeeded")
			}
			if len(ses.requests) != 0 {
				t.Errorf("SES was called")
			}
		})
	}
}

func TestSendErrorsAreClassifiedAndFreeOfPersonalData(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		code      string
		retryable bool
		// as checks that the SDK's typed error is still reachable.
		as func(error) bool
	}{
		{"throttled", 429, "TooManyRequestsException", true, func(err error) bool {
			var e *types.TooManyRequestsException
			return errors.As(err, &e)
		}},
		{"quota", 400, "LimitExceededException", true, nil},
		{"internal error", 500, "InternalServiceErrorException", true, nil},
		{"unavailable", 503, "ServiceUnavailable", true, nil},
		{"bad gateway without code", 502, "", true, nil},
		{"rejected", 400, "MessageRejected", false, func(err error) bool {
			var e *types.MessageRejected
			return errors.As(err, &e)
		}},
		{"not verified", 400, "MailFromDomainNotVerifiedException", false, nil},
		{"suspended", 400, "AccountSuspendedException", false, nil},
		{"bad request", 400, "BadRequestException", false, nil},
	}
	mail := testEmail()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// SES messages may quote the addresses; make sure ours would leak if echoed.
			ses := &recordingSES{status: tt.status, errorCode: tt.code,
				message: "Email address is not verified: " + mail.To + " " + mail.Subject}
			sender := NewSender(newTestClient(t, startRecordingSES(t, ses)), testFrom, testConfigSet)

			err := sender.Send(context.Background(), mail)
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if got := IsRetryable(err); got != tt.retryable {
				t.Errorf("IsRetryable = %v, want %v (%v)", got, tt.retryable, err)
			}
			msg := err.Error()
			for _, personal := range []string{mail.To, "guest", mail.Subject, mail.Text, mail.HTML, "Grace"} {
				if strings.Contains(msg, personal) {
					t.Errorf("error %q contains %q", msg, personal)
				}
			}
			if !strings.Contains(msg, "req-123") || (tt.code != "" && !strings.Contains(msg, tt.code)) {
				t.Errorf("error %q lacks the request id or error code", msg)
			}
			if tt.as != nil && !tt.as(err) {
				t.Errorf("typed SES error not reachable through %T", err)
			}
		})
	}
}

func TestSendTransportFailures(t *testing.T) {
	t.Run("connection refused is retryable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		url := srv.URL
		srv.Close()
		err := NewSender(newTestClient(t, url), testFrom, "").Send(context.Background(), testEmail())
		if err == nil || !IsRetryable(err) {
			t.Errorf("err = %v, IsRetryable = %v; want a retryable error", err, IsRetryable(err))
		}
	})
	t.Run("cancelled context is not retryable", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := NewSender(newTestClient(t, startRecordingSES(t, &recordingSES{})), testFrom, "").Send(ctx, testEmail())
		if err == nil || IsRetryable(err) {
			t.Errorf("err = %v, IsRetryable = %v; want a final error", err, IsRetryable(err))
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want it to wrap context.Canceled", err)
		}
	})
}

func TestIsRetryableNil(t *testing.T) {
	if IsRetryable(nil) {
		t.Error("IsRetryable(nil) = true")
	}
	if IsRetryable(errors.New("plain")) {
		t.Error("IsRetryable(plain error) = true")
	}
}
