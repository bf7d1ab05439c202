package app

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
)

// gatewayAdapter serves an http.Handler behind API Gateway's HTTP API
// (payload 2.0) through aws-lambda-go-api-proxy, correcting where the
// library's request or response differs from what the same request gets
// from the local server:
//
//   - a raw path that arrives decoded ("/a/100%") is escaped again rather
//     than failing the request;
//   - header values are kept whole: API Gateway joins repeated headers with
//     commas, and the library splits every value at its commas, so that an
//     Accept-Language of "nl,en;q=0.8" read as "nl" here and in full locally
//     (any comma in a value, like a quoted one, broke the same way);
//   - a HEAD answer has no body;
//   - OPTIONS, which no route serves, answers 204 with the Allow header of
//     the path instead of the router's 405.
type gatewayAdapter struct {
	handler http.Handler
	proxy   *httpadapter.HandlerAdapterV2
}

func newGatewayAdapter(h http.Handler) gatewayAdapter {
	return gatewayAdapter{handler: h, proxy: httpadapter.NewV2(h)}
}

// Handle is the Lambda handler.
func (g gatewayAdapter) Handle(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	if _, err := url.ParseRequestURI(ev.RawPath); ev.RawPath != "" && err != nil {
		ev.RawPath = (&url.URL{Path: ev.RawPath}).EscapedPath()
	}
	req, err := g.proxy.EventToRequestWithContext(ctx, ev)
	if err != nil {
		return events.APIGatewayV2HTTPResponse{StatusCode: http.StatusBadRequest, Body: "Bad Request",
			Headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}}, nil
	}
	for k, v := range ev.Headers {
		if !strings.EqualFold(k, "cookie") {
			req.Header.Set(k, v)
		}
	}
	w := core.NewProxyResponseWriterV2()
	g.handler.ServeHTTP(w, req)
	resp, err := w.GetProxyResponse()
	if err != nil {
		return core.GatewayTimeoutV2(), err
	}
	switch req.Method {
	case http.MethodHead:
		resp.Body, resp.IsBase64Encoded = "", false
	case http.MethodOptions:
		if resp.StatusCode == http.StatusMethodNotAllowed {
			allow := headerValue(resp.Headers, "Allow")
			resp = events.APIGatewayV2HTTPResponse{StatusCode: http.StatusNoContent, Headers: map[string]string{}}
			if allow != "" {
				resp.Headers["Allow"] = allow + ", OPTIONS"
			}
		}
	}
	return resp, nil
}

func headerValue(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}
