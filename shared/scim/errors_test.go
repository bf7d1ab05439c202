package scim

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestErrorClassification(t *testing.T) {
	future := time.Now().Add(2 * time.Minute).UTC().Format(http.TimeFormat)
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name         string
		rep          reply
		wantStatus   int
		retryable    bool
		notFound     bool
		conflict     bool
		scimType     string
		detail       string
		minRetry     time.Duration
		maxRetry     time.Duration
		detailMaxLen int
	}{
		{name: "429 retry-after seconds", rep: reply{Status: 429, Header: map[string]string{"Retry-After": "120"}},
			wantStatus: 429, retryable: true, minRetry: 120 * time.Second, maxRetry: 120 * time.Second},
		{name: "429 retry-after date", rep: reply{Status: 429, Header: map[string]string{"Retry-After": future}},
			wantStatus: 429, retryable: true, minRetry: 100 * time.Second, maxRetry: 121 * time.Second},
		{name: "503", rep: reply{Status: 503}, wantStatus: 503, retryable: true},
		{name: "500", rep: reply{Status: 500}, wantStatus: 500, retryable: true},
		{name: "502", rep: reply{Status: 502}, wantStatus: 502, retryable: true},
		{name: "504", rep: reply{Status: 504}, wantStatus: 504, retryable: true},
		{name: "408", rep: reply{Status: 408}, wantStatus: 408, retryable: true},
		{name: "425", rep: reply{Status: 425}, wantStatus: 425, retryable: true},
		{name: "400 with scim error body", rep: reply{Status: 400,
			Body: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:Error"],"scimType":"invalidValue","detail":"emails.value is not an e-mail","status":"400"}`},
			wantStatus: 400, scimType: "invalidValue", detail: "emails.value is not an e-mail"},
		{name: "400 with numeric status and long detail", rep: reply{Status: 400,
			Body: `{"scimType":"invalidSyntax","detail":"` + long + `","status":400}`},
			wantStatus: 400, scimType: "invalidSyntax", detailMaxLen: maxDetailLen + len("…")},
		{name: "401", rep: reply{Status: 401, Body: `{"detail":"unauthorized"}`}, wantStatus: 401, detail: "unauthorized"},
		{name: "403", rep: reply{Status: 403}, wantStatus: 403},
		{name: "404", rep: reply{Status: 404}, wantStatus: 404, notFound: true},
		{name: "409 uniqueness", rep: reply{Status: 409, Body: `{"scimType":"uniqueness","status":"409"}`},
			wantStatus: 409, conflict: true, scimType: "uniqueness"},
		{name: "501", rep: reply{Status: 501}, wantStatus: 501},
		{name: "non-json error body", rep: reply{Status: 500, Header: map[string]string{"Content-Type": "text/html"}, Body: "<h1>oops</h1>"},
			wantStatus: 500, retryable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := newFakeSP(t, tt.rep)
			_, err := NewClient(basicTarget(sp.URL), nil).CreateUser(context.Background(), sampleUser())
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if e.Op != "POST /Users" {
				t.Errorf("Op %q", e.Op)
			}
			if e.Status != tt.wantStatus {
				t.Errorf("Status %d, want %d", e.Status, tt.wantStatus)
			}
			if got := IsRetryable(err); got != tt.retryable {
				t.Errorf("IsRetryable %v, want %v", got, tt.retryable)
			}
			if got := IsNotFound(err); got != tt.notFound {
				t.Errorf("IsNotFound %v", got)
			}
			if got := IsConflict(err); got != tt.conflict {
				t.Errorf("IsConflict %v", got)
			}
			if e.SCIMType != tt.scimType {
				t.Errorf("SCIMType %q, want %q", e.SCIMType, tt.scimType)
			}
			if tt.detail != "" && e.Detail != tt.detail {
				t.Errorf("Detail %q, want %q", e.Detail, tt.detail)
			}
			if tt.detailMaxLen > 0 && (len(e.Detail) > tt.detailMaxLen || len(e.Detail) < maxDetailLen/2) {
				t.Errorf("Detail length %d, want at most %d", len(e.Detail), tt.detailMaxLen)
			}
			if ra := RetryAfter(err); ra < tt.minRetry || (tt.maxRetry > 0 && ra > tt.maxRetry) || (tt.maxRetry == 0 && ra != 0) {
				t.Errorf("RetryAfter %v, want in [%v, %v]", ra, tt.minRetry, tt.maxRetry)
			}
			assertNoSecrets(t, err.Error())
		})
	}
}

func TestDeleteNotFound(t *testing.T) {
	sp := newFakeSP(t, reply{Status: 404, Body: `{"detail":"Resource u-9 not found.","status":"404"}`})
	err := NewClient(bearerTarget(sp.URL), nil).DeleteUser(context.Background(), "u-9")
	if !IsNotFound(err) || IsRetryable(err) {
		t.Fatalf("err %v: IsNotFound %v IsRetryable %v", err, IsNotFound(err), IsRetryable(err))
	}
	if want := "scim DELETE /Users/u-9: 404 Not Found: Resource u-9 not found."; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}

func TestTransportErrors(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there any more
		err = NewClient(basicTarget("http://"+addr), nil).DeleteUser(context.Background(), "u")
		checkTransport(t, err)
	})
	t.Run("client timeout on a slow SP", func(t *testing.T) {
		release := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer slow.Close()
		defer close(release)
		_, err := NewClient(basicTarget(slow.URL), &http.Client{Timeout: 50 * time.Millisecond}).GetUser(context.Background(), "u")
		checkTransport(t, err)
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("%v is not a timeout", err)
		}
	})
	t.Run("context deadline", func(t *testing.T) {
		release := make(chan struct{})
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer slow.Close()
		defer close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := NewClient(basicTarget(slow.URL), nil).GetUser(ctx, "u")
		checkTransport(t, err)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%v does not wrap context.DeadlineExceeded", err)
		}
	})
}

func checkTransport(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T %v is not *Error", err, err)
	}
	if e.Status != 0 || !e.Retryable() || !IsRetryable(err) || e.Err == nil {
		t.Errorf("transport error %+v: want status 0, retryable, with cause", e)
	}
	if strings.Contains(err.Error(), "http://") {
		t.Errorf("message %q repeats the URL", err.Error())
	}
	assertNoSecrets(t, err.Error())
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"0", 0},
		{"-5", 0},
		{"7", 7 * time.Second},
		{" 30 ", 30 * time.Second},
		{"Sun, 01 Mar 2026 12:01:30 GMT", 90 * time.Second},
		{"Sun, 01 Mar 2026 11:00:00 GMT", 0}, // in the past
		{"soon", 0},
		{"99999999999999999999", 0}, // overflows int64: unparsable
		{"9223372036854775807", time.Duration(int64(1<<63-1)/int64(time.Second)) * time.Second},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestHelpersOnForeignErrors(t *testing.T) {
	for _, err := range []error{nil, errors.New("plain"), context.Canceled} {
		if IsNotFound(err) || IsConflict(err) || IsRetryable(err) || RetryAfter(err) != 0 {
			t.Errorf("helpers misclassify %v", err)
		}
	}
	wrapped := errors.Join(errors.New("deliver"), &Error{Op: "DELETE /Groups/g", Status: 404})
	if !IsNotFound(wrapped) {
		t.Error("IsNotFound does not see through wrapping")
	}
}

func TestCleanDetail(t *testing.T) {
	got := cleanDetail("line one\nline\ttwo\xff")
	if got != "line one line two?" {
		t.Errorf("cleanDetail = %q", got)
	}
	multi := strings.Repeat("é", maxDetailLen) // 2 bytes each
	got = cleanDetail(multi)
	if !strings.HasSuffix(got, "…") || len(got) > maxDetailLen+len("…") || !strings.HasPrefix(multi, strings.TrimSuffix(got, "…")) {
		t.Errorf("truncation broke a rune or the bound: %d bytes", len(got))
	}
}
