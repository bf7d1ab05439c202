package scim

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// captured is what a fake SP saw of one request.
type captured struct {
	Method   string
	Path     string // escaped path
	RawQuery string
	Query    string // decoded filter parameter
	Header   http.Header
	Body     []byte
}

// reply is what a fake SP answers.
type reply struct {
	Status int
	Header map[string]string
	Body   string
}

// fakeSP records requests and answers each with the same reply.
type fakeSP struct {
	*httptest.Server
	mu   sync.Mutex
	seen []captured
}

func newFakeSP(t *testing.T, rep reply) *fakeSP {
	t.Helper()
	f := &fakeSP{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.seen = append(f.seen, captured{
			Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
			Query: r.URL.Query().Get("filter"), Header: r.Header.Clone(), Body: body,
		})
		f.mu.Unlock()
		for k, v := range rep.Header {
			w.Header().Set(k, v)
		}
		if rep.Body != "" && w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/scim+json")
		}
		w.WriteHeader(rep.Status)
		_, _ = io.WriteString(w, rep.Body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeSP) only(t *testing.T) captured {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.seen) != 1 {
		t.Fatalf("SP saw %d requests, want 1", len(f.seen))
	}
	return f.seen[0]
}

func basicTarget(url string) Target {
	return Target{ID: "sp1", BaseURL: url, Version: "v1",
		Credentials: Credentials{Method: AuthBasic, Username: "inviter", Password: "s3cret-pw"}}
}

func bearerTarget(url string) Target {
	return Target{ID: "sp1", BaseURL: url, Version: "v1",
		Credentials: Credentials{Method: AuthBearer, Token: "tok-very-secret"}}
}

// assertJSON compares JSON documents independent of key order and spacing.
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	if string(gb) != string(wb) {
		t.Errorf("body\n got %s\nwant %s", gb, wb)
	}
}
