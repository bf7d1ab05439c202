// Package scimprobe tests a SCIM connection the way an administrator wants
// it tested before the first guest arrives: is the SP reachable with a
// valid certificate, does it accept the credentials, what does it declare
// it can do (ServiceProviderConfig, Schemas, ResourceTypes), does the
// filtered lookup the provisioner relies on work, and how fast is it. It
// only reads (GET): it never creates or changes anything at the SP.
package scimprobe

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/edu-invite/invite/shared/outbound"
)

// Credentials are the resolved credentials of a connection.
type Credentials struct {
	Method       string // basic, bearer or oauth2
	Username     string
	Password     string
	Token        string
	TokenURL     string
	ClientID     string
	ClientSecret string
	Scopes       []string
}

// Connection is what is tested.
type Connection struct {
	ID          string
	BaseURL     string // without the version segment
	Version     string // "v1"
	Membership  string // the configured PUT or PATCH
	Credentials Credentials
}

// Check outcomes.
const (
	Pass = "pass"
	Warn = "warn"
	Fail = "fail"
	Skip = "skip"
)

// Check is one step of the test.
type Check struct {
	Name      string `json:"name"`
	Status    string `json:"status"`
	Detail    string `json:"detail"`
	LatencyMs int64  `json:"latencyMs,omitempty"`
}

// Capabilities is what the SP declares in /ServiceProviderConfig; nil
// means not declared.
type Capabilities struct {
	Patch             *bool    `json:"patch,omitempty"`
	Filter            *bool    `json:"filter,omitempty"`
	MaxResults        int      `json:"maxResults,omitempty"`
	Bulk              *bool    `json:"bulk,omitempty"`
	BulkMaxOperations int      `json:"bulkMaxOperations,omitempty"`
	ResourceTypes     []string `json:"resourceTypes,omitempty"`
	Schemas           int      `json:"schemas,omitempty"`
}

// Report is the outcome, for people (Summary, each Check's Detail) and
// programs (the fields).
type Report struct {
	ConnectionID string `json:"connectionId"`
	// OK: reachable, credentials accepted and the filtered lookup works.
	OK                  bool         `json:"ok"`
	Summary             string       `json:"summary"`
	Reachable           bool         `json:"reachable"`
	TLSValid            *bool        `json:"tlsValid,omitempty"`
	CredentialsAccepted *bool        `json:"credentialsAccepted,omitempty"`
	Capabilities        Capabilities `json:"capabilities"`
	// RecommendedMembership is PATCH or PUT, from what the SP declares.
	RecommendedMembership string   `json:"recommendedMembership"`
	ConfiguredMembership  string   `json:"configuredMembership"`
	Warnings              []string `json:"warnings"`
	Checks                []Check  `json:"checks"`
	LatencyMs             struct {
		Average int64 `json:"average"`
		Max     int64 `json:"max"`
	} `json:"latencyMs"`
}

// Prober runs tests; the zero value uses a client with a 10 s timeout.
type Prober struct {
	// Client reaches the SP (and the token endpoint); nil: a default.
	Client *http.Client
	// Timeout of each call when Client is nil.
	Timeout time.Duration
	// Policy is the address policy the default client dials through: the
	// test never calls an address a delivery could not.
	Policy outbound.Policy
}

func (p *Prober) client() *http.Client {
	if p != nil && p.Client != nil {
		return p.Client
	}
	t := 10 * time.Second
	if p != nil && p.Timeout > 0 {
		t = p.Timeout
	}
	return p.Policy.Client(t)
}

type run struct {
	ctx       context.Context
	hc        *http.Client
	base      string
	auth      string
	report    *Report
	latencies []int64
	notFound  int // answers 404
}

// Test runs every check against c.
func (p *Prober) Test(ctx context.Context, c Connection) Report {
	rep := Report{ConnectionID: c.ID, ConfiguredMembership: strings.ToUpper(c.Membership), Warnings: []string{}, Checks: []Check{}}
	version := c.Version
	if version == "" {
		version = "v1"
	}
	r := &run{ctx: ctx, hc: p.client(), base: strings.TrimRight(c.BaseURL, "/") + "/" + version, report: &rep}
	defer r.finish()

	if strings.HasPrefix(strings.ToLower(c.BaseURL), "http://") {
		rep.Warnings = append(rep.Warnings, "the connection uses plain http: credentials and personal data cross the network unencrypted")
	}
	// Warnings about the transport stand whatever the SP answers; the
	// ones after them come from what the SP declares.
	transportWarnings := len(rep.Warnings)
	auth, err := r.authorization(c.Credentials)
	if err != nil {
		rep.Reachable = err.reachable
		rep.CredentialsAccepted = boolp(false)
		r.add(Check{Name: "credentials", Status: Fail, Detail: err.Error()})
		rep.Summary = "The SP's token endpoint did not give the service a token: " + err.Error()
		return rep
	}
	r.auth = auth

	status, body, check := r.get("reachable", "/ServiceProviderConfig")
	if status == 0 {
		check.Name = "reachable"
		if strings.HasPrefix(check.Detail, "the TLS certificate") {
			rep.Reachable, rep.TLSValid = true, boolp(false)
			check.Name = "tls"
			r.add(check)
			rep.Summary = "The SP answers, but " + check.Detail + "; the service will not send credentials to it."
			return rep
		}
		r.add(check)
		rep.Summary = "The SP cannot be reached: " + check.Detail
		return rep
	}
	rep.Reachable = true
	if strings.HasPrefix(r.base, "https://") {
		rep.TLSValid = boolp(true)
		r.add(Check{Name: "tls", Status: Pass, Detail: "the SP's certificate is valid for its host name"})
	}
	r.add(Check{Name: "reachable", Status: Pass, Detail: fmt.Sprintf("the SP answered in %d ms", check.LatencyMs), LatencyMs: check.LatencyMs})

	r.serviceProviderConfig(status, body, check.LatencyMs)
	r.discovery("schemas", "/Schemas")
	r.discovery("resourceTypes", "/ResourceTypes")
	usersOK := r.lookup("users", "/Users")
	groupsOK := r.lookup("groups", "/Groups")
	if rep.CredentialsAccepted != nil && !*rep.CredentialsAccepted {
		// A refused credential is the one thing to fix: what a refusing SP
		// declares (or hides) says nothing about PATCH or filters yet.
		rep.Warnings = rep.Warnings[:transportWarnings]
		rep.Summary = "The SP is reachable but refuses the credentials: check the username and password, token or client secret."
		return rep
	}
	r.recommend()

	rep.OK = rep.CredentialsAccepted != nil && *rep.CredentialsAccepted && usersOK && groupsOK
	switch {
	case !rep.OK && r.notFound >= 3:
		rep.Summary = "The host answers, but not as a SCIM SP: /ServiceProviderConfig and /Users are not found at " + r.base + "; check the base URL and version."
	case !rep.OK:
		rep.Summary = "The SP is reachable and accepts the credentials, but looking users or groups up by filter does not work: the service needs it to avoid duplicates."
	case len(rep.Warnings) > 0:
		rep.Summary = fmt.Sprintf("The connection works, with %d warning(s): %s", len(rep.Warnings), strings.Join(rep.Warnings, "; "))
	default:
		rep.Summary = "The connection works: the SP is reachable, accepts the credentials and answers filtered lookups; membership by " + rep.RecommendedMembership + " as configured."
	}
	return rep
}

func (r *run) finish() {
	var sum, max int64
	for _, l := range r.latencies {
		sum += l
		if l > max {
			max = l
		}
	}
	if n := int64(len(r.latencies)); n > 0 {
		r.report.LatencyMs.Average, r.report.LatencyMs.Max = sum/n, max
	}
}

func (r *run) add(c Check) { r.report.Checks = append(r.report.Checks, c) }

func (r *run) warn(format string, args ...any) {
	r.report.Warnings = append(r.report.Warnings, fmt.Sprintf(format, args...))
}

type authError struct {
	msg       string
	reachable bool
}

func (e *authError) Error() string { return e.msg }

// authorization returns the Authorization header value; for oauth2 it
// fetches a token (a refused one is reported as refused credentials).
func (r *run) authorization(c Credentials) (string, *authError) {
	switch strings.ToLower(c.Method) {
	case "basic":
		req := &http.Request{Header: http.Header{}}
		req.SetBasicAuth(c.Username, c.Password)
		return req.Header.Get("Authorization"), nil
	case "bearer":
		return "Bearer " + c.Token, nil
	case "oauth2":
		cfg := clientcredentials.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, TokenURL: c.TokenURL, Scopes: c.Scopes}
		ctx := context.WithValue(r.ctx, oauth2.HTTPClient, r.hc)
		tok, err := cfg.Token(ctx)
		if err != nil {
			return "", &authError{msg: "token endpoint: " + describe(err), reachable: !isNetworkError(err)}
		}
		return tok.Type() + " " + tok.AccessToken, nil
	}
	return "", &authError{msg: fmt.Sprintf("unknown auth method %q", c.Method)}
}

// get calls GET base+path; status 0 means no HTTP answer (check says why).
func (r *run) get(name, path string) (int, []byte, Check) {
	req, err := http.NewRequestWithContext(r.ctx, http.MethodGet, r.base+path, nil)
	if err != nil {
		return 0, nil, Check{Name: name, Status: Fail, Detail: "the URL is not valid"}
	}
	req.Header.Set("Accept", "application/scim+json, application/json")
	if r.auth != "" {
		req.Header.Set("Authorization", r.auth)
	}
	start := time.Now()
	resp, err := r.hc.Do(req)
	ms := time.Since(start).Milliseconds()
	if err != nil {
		return 0, nil, Check{Name: name, Status: Fail, Detail: describe(err), LatencyMs: ms}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	r.latencies = append(r.latencies, ms)
	if resp.StatusCode == http.StatusNotFound {
		r.notFound++
	}
	return resp.StatusCode, body, Check{Name: name, LatencyMs: ms}
}

// describe words a transport error for people. It quotes nothing the
// remote side said or showed (no body, certificate name or address): the
// report is read by whoever configured the address.
func describe(err error) string {
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var inval x509.CertificateInvalidError
	var dns *net.DNSError
	var op *net.OpError
	var token *oauth2.RetrieveError
	switch {
	case outbound.IsRefused(err):
		return "the service does not call this address: " + refusal(err)
	case errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &inval):
		return "the TLS certificate is not valid for this host or not issued by a trusted authority"
	case errors.As(err, &token):
		return tokenRefusal(token)
	case errors.As(err, &dns):
		return "the host name does not resolve"
	case isTimeout(err):
		return "no answer within the timeout"
	case errors.As(err, &op):
		return "the connection was refused or failed"
	}
	return "the request failed"
}

func refusal(err error) string {
	var r *outbound.RefusedError
	errors.As(err, &r)
	return r.Reason
}

// oauthErrorCodes are the token endpoint's error codes of RFC 6749 5.2,
// the only words of its answer the report repeats.
var oauthErrorCodes = []string{"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"}

func tokenRefusal(e *oauth2.RetrieveError) string {
	status := 0
	if e.Response != nil {
		status = e.Response.StatusCode
	}
	msg := fmt.Sprintf("the token endpoint answered HTTP %d", status)
	if slices.Contains(oauthErrorCodes, e.ErrorCode) {
		msg += " (" + e.ErrorCode + ")"
	}
	return msg
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func isNetworkError(err error) bool {
	var op *net.OpError
	var dns *net.DNSError
	return errors.As(err, &op) || errors.As(err, &dns) || isTimeout(err)
}

func (r *run) credentialsFrom(status int) {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		r.report.CredentialsAccepted = boolp(false)
	case status >= 200 && status < 300 && r.report.CredentialsAccepted == nil:
		r.report.CredentialsAccepted = boolp(true)
	}
}

func (r *run) serviceProviderConfig(status int, body []byte, ms int64) {
	name := "serviceProviderConfig"
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		r.credentialsFrom(status)
		r.add(Check{Name: name, Status: Fail, Detail: fmt.Sprintf("the SP refused the credentials (HTTP %d)", status), LatencyMs: ms})
		return
	case status == http.StatusNotFound:
		r.add(Check{Name: name, Status: Warn, Detail: "not served (HTTP 404): the SP does not say what it supports", LatencyMs: ms})
		r.warn("the SP does not serve /ServiceProviderConfig, so PATCH support cannot be checked")
		return
	case status != http.StatusOK:
		r.add(Check{Name: name, Status: Warn, Detail: fmt.Sprintf("HTTP %d", status), LatencyMs: ms})
		return
	}
	var spc struct {
		Patch  struct{ Supported *bool } `json:"patch"`
		Filter struct {
			Supported  *bool `json:"supported"`
			MaxResults int   `json:"maxResults"`
		} `json:"filter"`
		Bulk struct {
			Supported     *bool `json:"supported"`
			MaxOperations int   `json:"maxOperations"`
		} `json:"bulk"`
	}
	if err := json.Unmarshal(body, &spc); err != nil {
		r.add(Check{Name: name, Status: Warn, Detail: "the answer is not JSON", LatencyMs: ms})
		return
	}
	c := &r.report.Capabilities
	c.Patch, c.Filter, c.MaxResults, c.Bulk, c.BulkMaxOperations = spc.Patch.Supported, spc.Filter.Supported, spc.Filter.MaxResults, spc.Bulk.Supported, spc.Bulk.MaxOperations
	r.add(Check{Name: name, Status: Pass, LatencyMs: ms, Detail: fmt.Sprintf("PATCH %s, filter %s (at most %d results), bulk %s",
		yesNo(c.Patch), yesNo(c.Filter), c.MaxResults, yesNo(c.Bulk))})
	if c.Filter != nil && !*c.Filter {
		r.warn("the SP declares no filter support; the service looks users and groups up by externalId")
	}
}

func (r *run) discovery(name, path string) {
	status, body, check := r.get(name, path)
	switch {
	case status == 0:
		check.Status = Fail
	case status == http.StatusNotFound:
		check.Status, check.Detail = Skip, "not served (HTTP 404); optional"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		r.credentialsFrom(status)
		check.Status, check.Detail = Fail, fmt.Sprintf("the SP refused the credentials (HTTP %d)", status)
	case status != http.StatusOK:
		check.Status, check.Detail = Warn, fmt.Sprintf("HTTP %d", status)
	default:
		var list struct {
			TotalResults int               `json:"totalResults"`
			Resources    []json.RawMessage `json:"Resources"`
		}
		if json.Unmarshal(body, &list) != nil {
			check.Status, check.Detail = Warn, "the answer is not a SCIM list"
			break
		}
		check.Status = Pass
		if name == "schemas" {
			r.report.Capabilities.Schemas = len(list.Resources)
			check.Detail = fmt.Sprintf("%d schemas", len(list.Resources))
		} else {
			for _, raw := range list.Resources {
				var rt struct{ Name, ID string }
				_ = json.Unmarshal(raw, &rt)
				r.report.Capabilities.ResourceTypes = append(r.report.Capabilities.ResourceTypes, cmpOr(rt.Name, rt.ID))
			}
			check.Detail = "resource types: " + strings.Join(r.report.Capabilities.ResourceTypes, ", ")
		}
	}
	r.add(check)
}

// lookup runs the filtered GET the provisioner uses to find a resource
// before creating it, for a value no resource has.
func (r *run) lookup(name, path string) bool {
	probe := "invite-connection-test-" + randomHex()
	q := url.Values{"filter": {`externalId eq "` + probe + `"`}, "count": {"1"}}
	status, body, check := r.get(name+"Filter", path+"?"+q.Encode())
	ok := false
	switch {
	case status == 0:
		check.Status = Fail
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		r.credentialsFrom(status)
		check.Status, check.Detail = Fail, fmt.Sprintf("the SP refused the credentials (HTTP %d)", status)
	case status != http.StatusOK:
		check.Status, check.Detail = Fail, fmt.Sprintf("GET %s?filter=externalId eq … answered HTTP %d", path, status)
	default:
		var list struct {
			TotalResults *int `json:"totalResults"`
		}
		if json.Unmarshal(body, &list) != nil || list.TotalResults == nil {
			check.Status, check.Detail = Fail, "the answer is not a SCIM ListResponse"
			break
		}
		r.credentialsFrom(status)
		ok = true
		check.Status, check.Detail = Pass, fmt.Sprintf("GET %s?filter=externalId eq … works (%d found, as expected none)", path, *list.TotalResults)
		if *list.TotalResults != 0 {
			check.Status = Warn
			r.warn("the SP answered %d %s for a filter nothing matches: it may ignore filters", *list.TotalResults, name)
		}
	}
	r.add(check)
	return ok
}

func (r *run) recommend() {
	rep := r.report
	rep.RecommendedMembership = "PATCH"
	if rep.Capabilities.Patch != nil && !*rep.Capabilities.Patch {
		rep.RecommendedMembership = "PUT"
	}
	switch {
	case rep.Capabilities.Patch == nil && rep.ConfiguredMembership == "PATCH":
		r.warn("PATCH is configured but the SP does not declare whether it supports it")
	case rep.RecommendedMembership == "PUT" && rep.ConfiguredMembership == "PATCH":
		r.warn("PATCH is configured but the SP declares no PATCH support: set membership to PUT")
	case rep.RecommendedMembership == "PATCH" && rep.ConfiguredMembership == "PUT":
		r.warn("PUT is configured but the SP supports PATCH, which sends only the changed members of large groups")
	}
}

func yesNo(b *bool) string {
	switch {
	case b == nil:
		return "not declared"
	case *b:
		return "supported"
	}
	return "not supported"
}

func boolp(b bool) *bool { return &b }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func randomHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
