package parity

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// Gateway stands in for CloudFront and API Gateway's HTTP API: it routes a
// request by the template's routes, turns it into a payload 2.0 event as
// API Gateway does, invokes the function's runtime, and turns the answer
// back into an HTTP response.
type Gateway struct {
	Routes []Route
	Invoke func(ctx context.Context, function string, payload []byte) ([]byte, error)
	// OriginHeader is added to every request as CloudFront adds it (the
	// origin secret), when set.
	OriginHeader, OriginValue string

	srv *httptest.Server
}

// Start serves the gateway over TLS on loopback, as the public address
// is https; Client trusts its certificate.
func (g *Gateway) Start() string {
	g.srv = httptest.NewUnstartedServer(g)
	g.srv.StartTLS()
	return g.srv.URL
}

// URL is the gateway's base URL.
func (g *Gateway) URL() string { return g.srv.URL }

// Client is an HTTP client that trusts the gateway.
func (g *Gateway) Client() *http.Client { return g.srv.Client() }

// Close stops the gateway.
func (g *Gateway) Close() { g.srv.Close() }

// route finds the route of a decoded path as API Gateway does: an exact
// path first, else the greedy {proxy+} route with the longest prefix.
func (g *Gateway) route(path string) (Route, bool) {
	for _, r := range g.Routes {
		if r.Path == path {
			return r, true
		}
	}
	best, found := Route{}, false
	for _, r := range g.Routes {
		prefix, ok := strings.CutSuffix(r.Path, "/{proxy+}")
		if !ok || !strings.HasPrefix(path, prefix+"/") || len(path) == len(prefix)+1 {
			continue
		}
		if !found || len(prefix) > len(strings.TrimSuffix(best.Path, "/{proxy+}")) {
			best, found = r, true
		}
	}
	return best, found
}

// textTypes are the content types whose bodies the tests send as text;
// every other body is base64-encoded, as API Gateway does for binary.
var textTypes = []string{"application/json", "text/"}

// Event builds the payload 2.0 event of a request.
func (g *Gateway) Event(r *http.Request, body []byte) (events.APIGatewayV2HTTPRequest, Route, bool) {
	path := r.URL.Path
	rt, ok := g.route(path)
	if !ok {
		return events.APIGatewayV2HTTPRequest{}, rt, false
	}
	var id [8]byte
	_, _ = rand.Read(id[:])
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: rt.Method + " " + rt.Path,
		RawPath: r.URL.EscapedPath(), RawQueryString: r.URL.RawQuery,
		Headers: map[string]string{},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			AccountID: "123456789012", APIID: "parity", DomainName: r.Host, DomainPrefix: "parity",
			RequestID: hex.EncodeToString(id[:]), RouteKey: rt.Method + " " + rt.Path, Stage: "$default",
			Time: time.Now().UTC().Format("02/Jan/2006:15:04:05 -0700"), TimeEpoch: time.Now().UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{
				Method: r.Method, Path: path, Protocol: r.Proto, SourceIP: "127.0.0.1", UserAgent: r.UserAgent(),
			},
		},
	}
	if rt.Path != "/" && strings.HasSuffix(rt.Path, "/{proxy+}") {
		prefix := strings.TrimSuffix(rt.Path, "/{proxy+}")
		ev.PathParameters = map[string]string{"proxy": strings.TrimPrefix(path, prefix+"/")}
	}
	// Cookies travel in their own field; headers of the same name are
	// joined with commas; query parameters of the same name too.
	for _, c := range r.Cookies() {
		ev.Cookies = append(ev.Cookies, c.Name+"="+c.Value)
	}
	for k, vs := range r.Header {
		if strings.EqualFold(k, "Cookie") {
			continue
		}
		ev.Headers[strings.ToLower(k)] = strings.Join(vs, ",")
	}
	ev.Headers["host"] = r.Host
	ev.Headers["x-forwarded-proto"] = "https"
	ev.Headers["x-forwarded-for"] = "127.0.0.1"
	if g.OriginHeader != "" {
		ev.Headers[strings.ToLower(g.OriginHeader)] = g.OriginValue
	}
	if q := r.URL.Query(); len(q) > 0 {
		ev.QueryStringParameters = map[string]string{}
		for k, vs := range q {
			ev.QueryStringParameters[k] = strings.Join(vs, ",")
		}
	}
	if len(body) > 0 {
		ct := r.Header.Get("Content-Type")
		text := false
		for _, t := range textTypes {
			text = text || strings.HasPrefix(ct, t)
		}
		if text {
			ev.Body = string(body)
		} else {
			ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
		}
	}
	return ev, rt, true
}

// Call invokes the routed function with an event and returns its response.
func (g *Gateway) Call(ctx context.Context, function string, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	var resp events.APIGatewayV2HTTPResponse
	payload, err := json.Marshal(ev)
	if err != nil {
		return resp, err
	}
	out, err := g.Invoke(ctx, function, payload)
	if err != nil {
		return resp, err
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return resp, fmt.Errorf("%s: response is not a payload 2.0 response: %w: %s", function, err, out)
	}
	return resp, nil
}

func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ev, rt, ok := g.Event(r, body)
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":"Not Found"}`)
		return
	}
	resp, err := g.Call(r.Context(), rt.Function, ev)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"message":"Internal Server Error"}`)
		return
	}
	keys := make([]string, 0, len(resp.Headers))
	for k := range resp.Headers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.Header().Set(k, resp.Headers[k])
	}
	for k, vs := range resp.MultiValueHeaders {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	for _, c := range resp.Cookies {
		w.Header().Add("Set-Cookie", c)
	}
	out := []byte(resp.Body)
	if resp.IsBase64Encoded {
		if out, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
			http.Error(w, "bad base64 body", http.StatusBadGateway)
			return
		}
	}
	if resp.StatusCode == 0 {
		resp.StatusCode = http.StatusOK
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(out)
}
