package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// The adapter gives a handler the request the local server would give it,
// for the payload 2.0 shapes API Gateway sends.
func TestGatewayAdapterMatchesTheLocalServer(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /echo/{rest...}", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c, _ := r.Cookie("s")
		var cookie string
		if c != nil {
			cookie = c.Value
		}
		fmt.Fprintf(w, "path=%s rest=%s lang=%s q=%v cookie=%s body=%s", r.URL.Path, r.PathValue("rest"),
			r.Header.Get("Accept-Language"), r.URL.Query()["q"], cookie, body)
	})
	a := newGatewayAdapter(mux)
	event := func(method, raw, decoded string) events.APIGatewayV2HTTPRequest {
		return events.APIGatewayV2HTTPRequest{Version: "2.0", RawPath: raw,
			RequestContext: events.APIGatewayV2HTTPRequestContext{DomainName: "invite.example.org",
				HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: method, Path: decoded}}}
	}
	tests := []struct {
		name   string
		ev     events.APIGatewayV2HTTPRequest
		status int
		want   string // in the body; "" for no body
		allow  string
	}{
		{name: "escaped slash stays in one segment", ev: event("GET", "/echo/a%2Fb", "/echo/a/b"), status: 200, want: "path=/echo/a/b rest=a/b"},
		{name: "a path that arrives decoded", ev: event("GET", "/echo/100%", "/echo/100%"), status: 200, want: "rest=100%"},
		{name: "a decoded %25", ev: event("GET", "/echo/a%25b", "/echo/a%b"), status: 200, want: "rest=a%b"},
		{name: "header values keep their commas", ev: func() events.APIGatewayV2HTTPRequest {
			e := event("GET", "/echo/x", "/echo/x")
			e.Headers = map[string]string{"accept-language": "nl,en;q=0.8"}
			return e
		}(), status: 200, want: "lang=nl,en;q=0.8"},
		{name: "multi-value query and cookies", ev: func() events.APIGatewayV2HTTPRequest {
			e := event("GET", "/echo/x", "/echo/x")
			e.RawQueryString, e.Cookies = "q=1&q=2", []string{"t=0", "s=abc"}
			return e
		}(), status: 200, want: "q=[1 2] cookie=abc"},
		{name: "base64 body", ev: func() events.APIGatewayV2HTTPRequest {
			e := event("GET", "/echo/x", "/echo/x")
			e.Body, e.IsBase64Encoded = base64.StdEncoding.EncodeToString([]byte("a=1&b=2")), true
			return e
		}(), status: 200, want: "body=a=1&b=2"},
		{name: "HEAD has no body", ev: event("HEAD", "/echo/x", "/echo/x"), status: 200, want: ""},
		{name: "OPTIONS answers the allowed methods", ev: event("OPTIONS", "/echo/x", "/echo/x"), status: 204, want: "", allow: "GET, HEAD, OPTIONS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := a.Handle(context.Background(), tc.ev)
			if err != nil {
				t.Fatal(err)
			}
			body := resp.Body
			if resp.IsBase64Encoded {
				b, _ := base64.StdEncoding.DecodeString(body)
				body = string(b)
			}
			if resp.StatusCode != tc.status || (tc.want == "" && body != "") || !strings.Contains(body, tc.want) {
				t.Errorf("status %d body %q, want %d with %q", resp.StatusCode, body, tc.status, tc.want)
			}
			if tc.allow != "" && headerValue(resp.Headers, "Allow") != tc.allow {
				t.Errorf("Allow = %q, want %q", headerValue(resp.Headers, "Allow"), tc.allow)
			}
		})
	}
}
