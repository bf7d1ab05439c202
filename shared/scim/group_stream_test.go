package scim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestReplaceGroupStreamingSendsEveryMemberWithContentLength(t *testing.T) {
	var got Group
	var length int64
	var raw []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		length = r.ContentLength
		raw, _ = io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Errorf("body is not JSON: %v", err)
		}
		if r.Method != http.MethodPut || r.URL.Path != "/v1/Groups/g-1" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	c := NewClient(Target{ID: "sp", BaseURL: srv.URL, Credentials: Credentials{Method: AuthBearer, Token: "t"}}, nil)
	for _, n := range []int{0, 1, 2500} {
		source := func(emit func(Member) error) error {
			for i := 0; i < n; i++ {
				if err := emit(Member{Value: fmt.Sprintf("u-%d", i), ExternalID: fmt.Sprint(i)}); err != nil {
					return err
				}
			}
			return nil
		}
		err := c.ReplaceGroupStreaming(context.Background(), "g-1", Group{ExternalID: "urn:g", DisplayName: "G"}, source)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Members) != n || got.ID != "g-1" || got.ExternalID != "urn:g" || len(got.Schemas) != 1 || length != int64(len(raw)) {
			t.Fatalf("n=%d: got %d members, id %q, Content-Length %d for %d bytes", n, len(got.Members), got.ID, length, len(raw))
		}
		if n > 0 && (got.Members[n-1].Value != fmt.Sprintf("u-%d", n-1) || got.Members[0].ExternalID != "0") {
			t.Fatalf("members out of order or incomplete: first %+v last %+v", got.Members[0], got.Members[n-1])
		}
	}
}

func TestReplaceGroupStreamingStopsOnSourceError(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls++ }))
	defer srv.Close()
	c := NewClient(Target{ID: "sp", BaseURL: srv.URL, Credentials: Credentials{Method: AuthBearer, Token: "t"}}, nil)
	boom := errors.New("dynamodb down")
	err := c.ReplaceGroupStreaming(context.Background(), "g-1", Group{DisplayName: "G"}, func(emit func(Member) error) error {
		_ = emit(Member{Value: "u-1"})
		return boom
	})
	if !errors.Is(err, boom) || calls != 0 {
		t.Fatalf("err = %v, calls %d: a half-read group must never be sent", err, calls)
	}
}
