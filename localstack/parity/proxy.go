package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Upstreams are the substitutes a checked call is forwarded to.
type Upstreams struct {
	DynamoDB, SQS, SESv2, SecretsManager string
	// Lambda invokes a function of the deployment by its name (the Ref of
	// its logical id); async is an InvocationType Event.
	Lambda func(ctx context.Context, function string, payload []byte, async bool) ([]byte, error)
}

// Denial is an AWS call a function made that its role does not allow.
type Denial struct {
	Function string
	Call     Call
	Reason   string
}

func (d Denial) String() string {
	s := fmt.Sprintf("%s: %s on %s", d.Function, d.Call.Action, d.Call.Resource)
	if len(d.Call.Keys) > 0 {
		s += fmt.Sprintf(" %v", d.Call.Keys)
	}
	if d.Reason != "" {
		s += " (" + d.Reason + ")"
	}
	return s
}

// CheckedCall is an allowed call, kept for the tests' assertions.
type CheckedCall struct {
	Function string
	Call     Call
	// Body is the request's JSON body.
	Body map[string]any
}

// Proxy is the AWS endpoint of one function (AWS_ENDPOINT_URL): it
// authorizes each call against the function's role policy and forwards
// what is allowed to the substitute; a denied call is answered as AWS
// answers it (AccessDeniedException) and recorded.
type Proxy struct {
	Function string
	Policy   Policy
	Dep      Deployment
	Up       Upstreams
	URL      string

	srv *http.Server
	log *CallLog
}

// CallLog collects the calls and denials of every proxy of a deployment.
type CallLog struct {
	mu      sync.Mutex
	calls   []CheckedCall
	denials []Denial
}

// Denials returns the denials so far.
func (l *CallLog) Denials() []Denial {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Denial(nil), l.denials...)
}

// Calls returns the allowed calls of function with action so far.
func (l *CallLog) Calls(function, action string) []CheckedCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []CheckedCall
	for _, c := range l.calls {
		if c.Function == function && strings.EqualFold(c.Call.Action, action) {
			out = append(out, c)
		}
	}
	return out
}

// StartProxy serves a function's proxy on a free loopback port.
func StartProxy(p *Proxy, log *CallLog) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	p.log = log
	p.URL = "http://" + ln.Addr().String()
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return nil
}

// Close stops the proxy.
func (p *Proxy) Close() { _ = p.srv.Close() }

// signingService is the service of the request's SigV4 credential scope.
var credentialScope = regexp.MustCompile(`Credential=[^/]+/[0-9]+/[^/]+/([^/]+)/aws4_request`)

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m := credentialScope.FindStringSubmatch(r.Header.Get("Authorization"))
	if m == nil {
		p.deny(w, "json", Call{Action: "unsigned request to " + r.URL.Path}, "the request is not signed")
		return
	}
	var in map[string]any
	if len(body) > 0 && strings.Contains(r.Header.Get("Content-Type"), "json") {
		_ = json.Unmarshal(body, &in)
	}
	service := m[1]
	var calls []Call
	var upstream string
	protocol := "json"
	switch service {
	case "dynamodb":
		calls, err = p.dynamoCalls(r.Header.Get("X-Amz-Target"), in)
		upstream = p.Up.DynamoDB
	case "sqs":
		calls, err = p.sqsCalls(r.Header.Get("X-Amz-Target"), in)
		upstream = p.Up.SQS
	case "ses":
		protocol = "rest"
		calls, err = p.sesCalls(r, in)
		upstream = p.Up.SESv2
	case "secretsmanager":
		calls, body, err = p.secretCalls(r.Header.Get("X-Amz-Target"), in, body)
		upstream = p.Up.SecretsManager
	case "lambda":
		protocol = "rest"
		p.invoke(w, r, body)
		return
	default:
		err = fmt.Errorf("service %s has no substitute", service)
	}
	if err != nil {
		p.deny(w, protocol, Call{Action: service + ":" + r.Header.Get("X-Amz-Target") + r.URL.Path}, err.Error())
		return
	}
	for _, c := range calls {
		if !p.Policy.Allows(c) {
			p.deny(w, protocol, c, "")
			return
		}
	}
	p.log.mu.Lock()
	for _, c := range calls {
		p.log.calls = append(p.log.calls, CheckedCall{Function: p.Function, Call: c, Body: in})
	}
	p.log.mu.Unlock()
	p.forward(w, r, upstream, body)
}

func (p *Proxy) deny(w http.ResponseWriter, protocol string, c Call, reason string) {
	d := Denial{Function: p.Function, Call: c, Reason: reason}
	p.log.mu.Lock()
	p.log.denials = append(p.log.denials, d)
	p.log.mu.Unlock()
	msg := fmt.Sprintf("User: arn:aws:sts::%s:assumed-role/%s/%s is not authorized to perform: %s on resource: %s",
		p.Dep.Account, p.Function, p.Function, c.Action, c.Resource)
	if reason != "" {
		msg += " (" + reason + ")"
	}
	w.Header().Set("X-Amzn-Errortype", "AccessDeniedException")
	if protocol == "json" {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
	} else {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
	}
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": "AccessDeniedException", "message": msg, "Message": msg})
}

func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, upstream string, body []byte) {
	u, err := url.Parse(upstream)
	if err != nil || upstream == "" {
		http.Error(w, "no upstream", http.StatusBadGateway)
		return
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, u.Scheme+"://"+u.Host+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	for k, v := range r.Header {
		out.Header[k] = v
	}
	out.ContentLength = int64(len(body))
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// attrString is the string value of a DynamoDB attribute value ({"S": …}).
func attrString(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["S"].(string)
	return s
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// dynamoCalls turns a DynamoDB request into the calls IAM authorizes: one
// per item of a transaction, with the partition keys as
// dynamodb:LeadingKeys.
func (p *Proxy) dynamoCalls(target string, in map[string]any) ([]Call, error) {
	op, ok := strings.CutPrefix(target, "DynamoDB_20120810.")
	if !ok {
		return nil, fmt.Errorf("unknown DynamoDB target %q", target)
	}
	tableARN := func(name string) string {
		return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", p.Dep.Region, p.Dep.Account, name)
	}
	item := func(action string, req map[string]any) Call {
		key, _ := req["Key"].(map[string]any)
		if key == nil {
			key, _ = req["Item"].(map[string]any)
		}
		return Call{Action: "dynamodb:" + action, Resource: tableARN(str(req, "TableName")),
			Keys: map[string][]string{"dynamodb:LeadingKeys": {attrString(key["pk"])}}}
	}
	switch op {
	case "GetItem", "PutItem", "UpdateItem", "DeleteItem":
		return []Call{item(op, in)}, nil
	case "Query":
		res := tableARN(str(in, "TableName"))
		pkAttr := "pk"
		if idx := str(in, "IndexName"); idx != "" {
			res += "/index/" + idx
			pkAttr = idx + "pk"
		}
		return []Call{{Action: "dynamodb:Query", Resource: res,
			Keys: map[string][]string{"dynamodb:LeadingKeys": {queryPartition(in, pkAttr)}}}}, nil
	case "BatchGetItem", "BatchWriteItem":
		var calls []Call
		reqs, _ := in["RequestItems"].(map[string]any)
		for table, v := range reqs {
			var keys []string
			switch x := v.(type) {
			case map[string]any: // BatchGetItem
				list, _ := x["Keys"].([]any)
				for _, k := range list {
					km, _ := k.(map[string]any)
					keys = append(keys, attrString(km["pk"]))
				}
			case []any: // BatchWriteItem
				for _, w := range x {
					wm, _ := w.(map[string]any)
					if put, ok := wm["PutRequest"].(map[string]any); ok {
						im, _ := put["Item"].(map[string]any)
						keys = append(keys, attrString(im["pk"]))
					}
					if del, ok := wm["DeleteRequest"].(map[string]any); ok {
						km, _ := del["Key"].(map[string]any)
						keys = append(keys, attrString(km["pk"]))
					}
				}
			}
			calls = append(calls, Call{Action: "dynamodb:" + op, Resource: tableARN(table),
				Keys: map[string][]string{"dynamodb:LeadingKeys": keys}})
		}
		return calls, nil
	case "TransactWriteItems", "TransactGetItems":
		var calls []Call
		items, _ := in["TransactItems"].([]any)
		for _, it := range items {
			im, _ := it.(map[string]any)
			for kind, action := range map[string]string{"Put": "PutItem", "Update": "UpdateItem", "Delete": "DeleteItem",
				"ConditionCheck": "ConditionCheckItem", "Get": "GetItem"} {
				if req, ok := im[kind].(map[string]any); ok {
					calls = append(calls, item(action, req))
				}
			}
		}
		return calls, nil
	}
	// Scan, DescribeTable, …: authorized as themselves on the table.
	return []Call{{Action: "dynamodb:" + op, Resource: tableARN(str(in, "TableName"))}}, nil
}

var keyEquality = regexp.MustCompile(`([#\w]+)\s*=\s*(:\w+)`)

// queryPartition finds the partition key value of a Query.
func queryPartition(in map[string]any, pkAttr string) string {
	names, _ := in["ExpressionAttributeNames"].(map[string]any)
	values, _ := in["ExpressionAttributeValues"].(map[string]any)
	for _, m := range keyEquality.FindAllStringSubmatch(str(in, "KeyConditionExpression"), -1) {
		name := m[1]
		if strings.HasPrefix(name, "#") {
			name, _ = names[name].(string)
		}
		if name == pkAttr {
			return attrString(values[m[2]])
		}
	}
	return ""
}

// sqsCalls authorizes an SQS request (JSON protocol) on the queue its
// QueueUrl names; a request without one is denied, as AWS refuses it.
func (p *Proxy) sqsCalls(target string, in map[string]any) ([]Call, error) {
	op, ok := strings.CutPrefix(target, "AmazonSQS.")
	if !ok {
		return nil, fmt.Errorf("unknown SQS target %q", target)
	}
	switch op {
	case "SendMessageBatch":
		op = "SendMessage"
	case "DeleteMessageBatch":
		op = "DeleteMessage"
	case "ChangeMessageVisibilityBatch":
		op = "ChangeMessageVisibility"
	}
	name := str(in, "QueueName")
	if qu := str(in, "QueueUrl"); qu != "" {
		name = qu[strings.LastIndex(qu, "/")+1:]
	}
	if name == "" {
		return nil, fmt.Errorf("sqs:%s without a queue URL", op)
	}
	return []Call{{Action: "sqs:" + op, Resource: p.Dep.QueueARN(name)}}, nil
}

// sesCalls authorizes SES v2 SendEmail on the sending identity (the From
// address's domain) and the configuration set, as SES does.
func (p *Proxy) sesCalls(r *http.Request, in map[string]any) ([]Call, error) {
	if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
		return nil, fmt.Errorf("SES v2 %s %s is not emulated", r.Method, r.URL.Path)
	}
	from, err := mail.ParseAddress(str(in, "FromEmailAddress"))
	if err != nil {
		return nil, fmt.Errorf("ses:SendEmail: From %q: %v", str(in, "FromEmailAddress"), err)
	}
	domain := from.Address[strings.LastIndex(from.Address, "@")+1:]
	calls := []Call{{Action: "ses:SendEmail", Resource: fmt.Sprintf("arn:aws:ses:%s:%s:identity/%s", p.Dep.Region, p.Dep.Account, domain)}}
	if set := str(in, "ConfigurationSetName"); set != "" {
		calls = append(calls, Call{Action: "ses:SendEmail", Resource: fmt.Sprintf("arn:aws:ses:%s:%s:configuration-set/%s", p.Dep.Region, p.Dep.Account, set)})
	}
	return calls, nil
}

// secretID is the name of a secret given by name or ARN (the substitute
// keys secrets by name, and its ARNs differ from the deployment's).
var secretARN = regexp.MustCompile(`^arn:aws:secretsmanager:[^:]*:[^:]*:secret:(.+)-[A-Za-z0-9]{6}$`)

func (p *Proxy) secretCalls(target string, in map[string]any, body []byte) ([]Call, []byte, error) {
	op, ok := strings.CutPrefix(target, "secretsmanager.")
	if !ok {
		return nil, body, fmt.Errorf("unknown Secrets Manager target %q", target)
	}
	field := "SecretId"
	if op == "CreateSecret" {
		field = "Name"
	}
	id := str(in, field)
	name := id
	if m := secretARN.FindStringSubmatch(id); m != nil {
		name = m[1]
	}
	if name == "" {
		return nil, body, fmt.Errorf("secretsmanager:%s without a secret", op)
	}
	if name != id {
		in[field] = name
		body, _ = json.Marshal(in)
	}
	return []Call{{Action: "secretsmanager:" + op, Resource: p.Dep.SecretARN(name)}}, body, nil
}

// invoke is Lambda's Invoke API for the functions of the deployment.
func (p *Proxy) invoke(w http.ResponseWriter, r *http.Request, body []byte) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/2015-03-31/functions/")
	fn, _, _ := strings.Cut(rest, "/invocations")
	if !ok || fn == "" {
		p.deny(w, "rest", Call{Action: "lambda:" + r.URL.Path}, "not an Invoke request")
		return
	}
	fn, _ = url.PathUnescape(fn)
	arn := fn
	if !strings.HasPrefix(fn, "arn:") {
		arn = p.Dep.FunctionARN(fn)
	} else {
		fn = arn[strings.LastIndex(arn, ":")+1:]
	}
	c := Call{Action: "lambda:InvokeFunction", Resource: arn}
	if !p.Policy.Allows(c) {
		p.deny(w, "rest", c, "")
		return
	}
	p.log.mu.Lock()
	p.log.calls = append(p.log.calls, CheckedCall{Function: p.Function, Call: c})
	p.log.mu.Unlock()
	if r.Header.Get("X-Amz-Invocation-Type") == "Event" {
		go func() { _, _ = p.Up.Lambda(context.Background(), fn, body, true) }()
		w.WriteHeader(http.StatusAccepted)
		return
	}
	out, err := p.Up.Lambda(r.Context(), fn, body, false)
	if err != nil {
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
		w.WriteHeader(http.StatusOK)
		_ = json.NewEncoder(w).Encode(map[string]string{"errorMessage": err.Error()})
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}
