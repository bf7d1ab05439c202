package scim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	// DefaultTimeout bounds one request when NewClient gets no http.Client.
	DefaultTimeout = 30 * time.Second
	// maxResponseBody bounds what is read of a successful response: a user,
	// group or filtered list is far smaller.
	maxResponseBody = 4 << 20
	// maxErrorBody bounds what is read of an error response.
	maxErrorBody = 64 << 10
	userAgent    = "edu-invite-scim-client/1"
)

// Client talks to one SP. It is safe for concurrent use.
type Client struct {
	targetID string
	hc       *http.Client
	base     string // BaseURL without trailing slash, plus "/" + version
	// auth returns the Authorization header value. It is a func so that
	// fmt, even on a copied Client, prints an address and not the secret.
	auth func() string
	err  error // configuration problem, returned by every operation
	now  func() time.Time
	// maxPatch bounds the member values of one PATCH.
	maxPatch int
}

// NewClient returns a client for t. hc nil means an http.Client with
// DefaultTimeout. A bad target (unparsable URL, unknown auth method) is not
// an error here but on every call, so that one misconfigured SP fails its
// own deliveries only.
func NewClient(t Target, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	c := &Client{targetID: t.ID, hc: hc, now: time.Now, maxPatch: t.MaxPatchMembers}
	if c.maxPatch <= 0 {
		c.maxPatch = DefaultMaxPatchMembers
	}
	auth, err := t.Credentials.authorization()
	c.auth = func() string { return auth }
	c.err = err
	if c.err == nil {
		c.base, c.err = baseURL(t)
	}
	return c
}

func baseURL(t Target) (string, error) {
	u, err := url.Parse(strings.TrimRight(t.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("scim: target %q: base URL must be an absolute http(s) URL", t.ID)
	}
	if u.User != nil {
		// Credentials belong in Credentials; user info in a URL ends up in
		// logs and error messages.
		return "", fmt.Errorf("scim: target %q: base URL must not contain user info", t.ID)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("scim: target %q: base URL must not have a query or fragment", t.ID)
	}
	version := t.Version
	if version == "" {
		version = "v1"
	}
	return u.String() + "/" + url.PathEscape(version), nil
}

// TargetID is the id of the SP this client talks to.
func (c *Client) TargetID() string { return c.targetID }

// String, GoString and LogValue describe the client by its target only.
func (c *Client) String() string   { return fmt.Sprintf("scim.Client{target:%s}", c.targetID) }
func (c *Client) GoString() string { return c.String() }
func (c *Client) LogValue() slog.Value {
	return slog.GroupValue(slog.String("target", c.targetID))
}

// request is one SCIM call.
type request struct {
	method string
	path   string // below {BaseURL}/{Version}, starting with "/"
	query  string // already encoded
	body   any    // JSON-encoded if not nil
	// encoded is an already encoded JSON body of encodedLen bytes, read
	// while sending (a large group's members from a file).
	encoded    io.Reader
	encodedLen int64
	ok         []int // accepted statuses
	out        any   // decoded from the response body if not nil
}

// do sends r and decodes the response. It returns a plain error for
// problems of the caller's input or configuration (not retryable) and an
// *Error for everything that happened on the wire.
func (c *Client) do(ctx context.Context, r request) error {
	op := r.method + " " + r.path
	if c.err != nil {
		return c.err
	}
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return fmt.Errorf("scim %s: encode request: %w", op, err)
		}
		body = bytes.NewReader(b)
	}
	if r.encoded != nil {
		body = r.encoded
	}
	target := c.base + r.path
	if r.query != "" {
		target += "?" + r.query
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return fmt.Errorf("scim %s: %w", op, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", c.auth())
	req.Header.Set("User-Agent", userAgent)
	if r.body != nil || r.encoded != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.encoded != nil {
		req.ContentLength = r.encodedLen // Content-Length, as SPs expect, not chunked
	}

	resp, err := c.hc.Do(req)
	if err != nil {
		return &Error{Op: op, Err: transportCause(err)}
	}
	defer resp.Body.Close()

	if !accepted(resp.StatusCode, r.ok) {
		return c.statusError(op, resp)
	}
	return decodeSuccess(op, resp, r.out)
}

// transportCause drops the *url.Error wrapper: its message repeats the URL,
// and the cause (timeout, refused, cancelled) is what matters.
func transportCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func accepted(status int, ok []int) bool {
	for _, s := range ok {
		if s == status {
			return true
		}
	}
	return false
}

// statusError builds the *Error of an unexpected status.
func (c *Client) statusError(op string, resp *http.Response) error {
	e := &Error{Op: op, Status: resp.StatusCode,
		RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), c.now())}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var body errorResponse
	if json.Unmarshal(raw, &body) == nil {
		e.SCIMType = cleanDetail(body.SCIMType)
		e.Detail = cleanDetail(body.Detail)
	}
	return e
}

// decodeSuccess reads a 2xx body into out (if wanted) and drains it either
// way so that the connection can be reused.
func decodeSuccess(op string, resp *http.Response, out any) error {
	limited := io.LimitReader(resp.Body, maxResponseBody+1)
	raw, err := io.ReadAll(limited)
	if err != nil {
		return &Error{Op: op, Status: resp.StatusCode, Err: fmt.Errorf("read response: %w", err)}
	}
	if out == nil {
		return nil
	}
	fail := func(err error) error { return &Error{Op: op, Status: resp.StatusCode, Err: err} }
	if len(raw) > maxResponseBody {
		return fail(fmt.Errorf("response body larger than %d bytes", maxResponseBody))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return fail(errors.New("response has no body"))
	}
	if !jsonContentType(resp.Header.Get("Content-Type")) {
		return fail(fmt.Errorf("unexpected response content type %q", cleanDetail(resp.Header.Get("Content-Type"))))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fail(fmt.Errorf("decode response: %w", err))
	}
	return nil
}

// jsonContentType accepts application/scim+json and application/json
// (RFC 7644 3.1), with parameters such as charset.
func jsonContentType(v string) bool {
	mt, _, err := mime.ParseMediaType(v)
	return err == nil && (mt == "application/scim+json" || mt == "application/json")
}

// resourcePath is "/<collection>/<escaped id>"; an empty id would address
// the collection instead, so it is refused.
func resourcePath(collection, id string) (string, error) {
	if id == "" {
		return "", fmt.Errorf("scim: empty %s id", strings.TrimSuffix(strings.TrimPrefix(collection, "/"), "s"))
	}
	return collection + "/" + url.PathEscape(id), nil
}

// filterQuery is "filter=<f>" with spaces as %20: "+" means a space only in
// form encoding, and not every SP decodes it that way.
func filterQuery(f string) string {
	return "filter=" + strings.ReplaceAll(url.QueryEscape(f), "+", "%20")
}
