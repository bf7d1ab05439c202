package parity

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Template is a synthesized CloudFormation template of the service.
type Template struct {
	Resources map[string]Resource `json:"Resources"`
}

// Resource is one resource of the template.
type Resource struct {
	Type       string         `json:"Type"`
	Properties map[string]any `json:"Properties"`
}

// LoadTemplate reads a template file (cdk.out/InviteStack.template.json).
func LoadTemplate(path string) (*Template, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Template
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &t, nil
}

// Deployment is where the template's resources live locally: every
// intrinsic of the template resolves against it, so that a function gets
// the values CloudFormation would give it, pointing at the substitutes.
type Deployment struct {
	Account, Region string
	// TableName is the physical name of the table (created by the test).
	TableName string
	// QueueURLs maps a queue's QueueName to its URL at the SQS substitute.
	QueueURLs map[string]string
	// GatewayURL is the address of the local API Gateway (and CloudFront).
	GatewayURL string
	// Values replaces literal deployment values (context given at synth,
	// like the OIDC issuer) with their local stand-ins.
	Values map[string]string
}

// resolver resolves intrinsic functions of one template.
type resolver struct {
	t *Template
	d Deployment
}

// SecretARN is the ARN the local deployment gives a secret called name:
// Secrets Manager appends a dash and six random characters.
func (d Deployment) SecretARN(name string) string {
	sum := sha256.Sum256([]byte(name))
	return fmt.Sprintf("arn:aws:secretsmanager:%s:%s:secret:%s-%s", d.Region, d.Account, name, hex.EncodeToString(sum[:])[:6])
}

// FunctionARN is the ARN of the function whose logical id is id.
func (d Deployment) FunctionARN(id string) string {
	return fmt.Sprintf("arn:aws:lambda:%s:%s:function:%s", d.Region, d.Account, id)
}

// QueueARN is the ARN of the queue called name.
func (d Deployment) QueueARN(name string) string {
	return fmt.Sprintf("arn:aws:sqs:%s:%s:%s", d.Region, d.Account, name)
}

// TableARN is the ARN of the table.
func (d Deployment) TableARN() string {
	return fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", d.Region, d.Account, d.TableName)
}

func (r resolver) str(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if local, ok := r.d.Values[x]; ok {
			return local, nil
		}
		return x, nil
	case float64:
		return fmt.Sprint(x), nil
	case bool:
		return fmt.Sprint(x), nil
	case map[string]any:
		if ref, ok := x["Ref"].(string); ok {
			return r.ref(ref)
		}
		if ga, ok := x["Fn::GetAtt"].([]any); ok && len(ga) == 2 {
			id, _ := ga[0].(string)
			attr, _ := ga[1].(string)
			return r.getAtt(id, attr)
		}
		if j, ok := x["Fn::Join"].([]any); ok && len(j) == 2 {
			sep, _ := j[0].(string)
			parts, _ := j[1].([]any)
			out := make([]string, len(parts))
			for i, p := range parts {
				s, err := r.str(p)
				if err != nil {
					return "", err
				}
				out[i] = s
			}
			return strings.Join(out, sep), nil
		}
	}
	return "", fmt.Errorf("cannot resolve %v", v)
}

func (r resolver) strs(v any) ([]string, error) {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, err := r.str(e)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
		return out, nil
	}
	s, err := r.str(v)
	if err != nil {
		return nil, err
	}
	return []string{s}, nil
}

func (r resolver) ref(id string) (string, error) {
	switch id {
	case "AWS::Partition":
		return "aws", nil
	case "AWS::Region":
		return r.d.Region, nil
	case "AWS::AccountId":
		return r.d.Account, nil
	case "AWS::URLSuffix":
		return "amazonaws.com", nil
	}
	res, ok := r.t.Resources[id]
	if !ok {
		return "", fmt.Errorf("Ref to unknown resource %s", id)
	}
	p := res.Properties
	switch res.Type {
	case "AWS::DynamoDB::Table":
		return r.d.TableName, nil
	case "AWS::SQS::Queue":
		name, _ := p["QueueName"].(string)
		if u, ok := r.d.QueueURLs[name]; ok {
			return u, nil
		}
		return "", fmt.Errorf("queue %s (%s) is not created locally", id, name)
	case "AWS::SecretsManager::Secret":
		name, _ := p["Name"].(string)
		return r.d.SecretARN(name), nil
	case "AWS::SES::EmailIdentity":
		return r.str(p["EmailIdentity"])
	case "AWS::SES::ConfigurationSet":
		if n, ok := p["Name"]; ok {
			return r.str(n)
		}
		return id, nil
	case "AWS::Lambda::Function":
		return id, nil
	case "AWS::SNS::Topic":
		return fmt.Sprintf("arn:aws:sns:%s:%s:%s", r.d.Region, r.d.Account, id), nil
	case "AWS::IAM::Role", "AWS::Logs::LogGroup":
		return id, nil
	}
	return "", fmt.Errorf("Ref to %s (%s) is not resolved locally", id, res.Type)
}

func (r resolver) getAtt(id, attr string) (string, error) {
	res, ok := r.t.Resources[id]
	if !ok {
		return "", fmt.Errorf("GetAtt of unknown resource %s", id)
	}
	switch res.Type + "." + attr {
	case "AWS::DynamoDB::Table.Arn":
		return r.d.TableARN(), nil
	case "AWS::SQS::Queue.Arn":
		name, _ := res.Properties["QueueName"].(string)
		return r.d.QueueARN(name), nil
	case "AWS::SQS::Queue.QueueUrl":
		return r.ref(id)
	case "AWS::Lambda::Function.Arn":
		return r.d.FunctionARN(id), nil
	case "AWS::ApiGatewayV2::Api.ApiEndpoint":
		return r.d.GatewayURL, nil
	case "AWS::CloudFront::Distribution.DomainName":
		return strings.TrimPrefix(r.d.GatewayURL, "https://"), nil
	case "AWS::Logs::LogGroup.Arn":
		return fmt.Sprintf("arn:aws:logs:%s:%s:log-group:%s:*", r.d.Region, r.d.Account, id), nil
	case "AWS::IAM::Role.Arn":
		return fmt.Sprintf("arn:aws:iam::%s:role/%s", r.d.Account, id), nil
	}
	return "", fmt.Errorf("GetAtt %s.%s (%s) is not resolved locally", id, attr, res.Type)
}

// FunctionDef is one function of the template, resolved.
type FunctionDef struct {
	// Name is the function's directory under functions/ (its tag).
	Name      string
	LogicalID string
	Env       map[string]string
	Timeout   int
	MemoryMB  int
	Policy    Policy
}

// Functions resolves every function of the template, by name.
func (t *Template) Functions(d Deployment) (map[string]FunctionDef, error) {
	r := resolver{t, d}
	out := map[string]FunctionDef{}
	for id, res := range t.Resources {
		if res.Type != "AWS::Lambda::Function" {
			continue
		}
		name := tagValue(res.Properties["Tags"], "invite:function")
		if name == "" {
			continue // CDK's own helper functions
		}
		fd := FunctionDef{Name: name, LogicalID: id, Env: map[string]string{}}
		if n, ok := res.Properties["Timeout"].(float64); ok {
			fd.Timeout = int(n)
		}
		if n, ok := res.Properties["MemorySize"].(float64); ok {
			fd.MemoryMB = int(n)
		}
		if env, ok := res.Properties["Environment"].(map[string]any); ok {
			vars, _ := env["Variables"].(map[string]any)
			for k, v := range vars {
				s, err := r.str(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %w", name, k, err)
				}
				fd.Env[k] = s
			}
		}
		roleID := ""
		if ga, ok := res.Properties["Role"].(map[string]any)["Fn::GetAtt"].([]any); ok {
			roleID, _ = ga[0].(string)
		}
		pol, err := t.rolePolicy(r, roleID)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		fd.Policy = pol
		out[name] = fd
	}
	return out, nil
}

// rolePolicy collects the statements of every policy attached to a role.
func (t *Template) rolePolicy(r resolver, roleID string) (Policy, error) {
	var pol Policy
	ids := make([]string, 0, len(t.Resources))
	for id := range t.Resources {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		res := t.Resources[id]
		if res.Type != "AWS::IAM::Policy" {
			continue
		}
		attached := false
		roles, _ := res.Properties["Roles"].([]any)
		for _, ro := range roles {
			if m, ok := ro.(map[string]any); ok && m["Ref"] == roleID {
				attached = true
			}
		}
		if !attached {
			continue
		}
		doc, _ := res.Properties["PolicyDocument"].(map[string]any)
		stmts, _ := doc["Statement"].([]any)
		for _, s := range stmts {
			m, _ := s.(map[string]any)
			st := Statement{Effect: fmt.Sprint(m["Effect"])}
			var err error
			if st.Actions, err = r.strs(m["Action"]); err != nil {
				return pol, err
			}
			if st.Resources, err = r.strs(m["Resource"]); err != nil {
				return pol, err
			}
			if c, ok := m["Condition"].(map[string]any); ok {
				st.Conditions = map[string]map[string][]string{}
				for op, kv := range c {
					st.Conditions[op] = map[string][]string{}
					for k, v := range kv.(map[string]any) {
						vals, err := r.strs(v)
						if err != nil {
							return pol, err
						}
						st.Conditions[op][k] = vals
					}
				}
			}
			pol.Statements = append(pol.Statements, st)
		}
	}
	return pol, nil
}

// Route is one route of the HTTP API: its key and the function it invokes.
type Route struct {
	Method, Path string
	Function     string // the function's name
}

// Routes lists the HTTP API's routes.
func (t *Template) Routes(fns map[string]FunctionDef) ([]Route, error) {
	byID := map[string]string{}
	for name, fd := range fns {
		byID[fd.LogicalID] = name
	}
	var out []Route
	for _, res := range t.Resources {
		if res.Type != "AWS::ApiGatewayV2::Route" {
			continue
		}
		key, _ := res.Properties["RouteKey"].(string)
		method, path, _ := strings.Cut(key, " ")
		integ := integrationID(res.Properties["Target"])
		ir, ok := t.Resources[integ]
		if !ok {
			return nil, fmt.Errorf("route %s: no integration %s", key, integ)
		}
		ga, _ := ir.Properties["IntegrationUri"].(map[string]any)["Fn::GetAtt"].([]any)
		if len(ga) != 2 {
			return nil, fmt.Errorf("route %s: integration is not a function", key)
		}
		fnID, _ := ga[0].(string)
		out = append(out, Route{Method: method, Path: path, Function: byID[fnID]})
	}
	return out, nil
}

func integrationID(target any) string {
	m, _ := target.(map[string]any)
	j, _ := m["Fn::Join"].([]any)
	if len(j) != 2 {
		return ""
	}
	parts, _ := j[1].([]any)
	for _, p := range parts {
		if pm, ok := p.(map[string]any); ok {
			if ref, ok := pm["Ref"].(string); ok {
				return ref
			}
		}
	}
	return ""
}

// QueueNames lists the QueueName of every queue.
func (t *Template) QueueNames() []string {
	var out []string
	for _, res := range t.Resources {
		if res.Type == "AWS::SQS::Queue" {
			if n, ok := res.Properties["QueueName"].(string); ok {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// SecretNames lists the Name of every secret the template creates.
func (t *Template) SecretNames() []string {
	var out []string
	for _, res := range t.Resources {
		if res.Type == "AWS::SecretsManager::Secret" {
			if n, ok := res.Properties["Name"].(string); ok {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// EventSource is the queue event source of a function.
type EventSource struct {
	Function       string
	QueueName      string
	BatchSize      int
	MaxConcurrency int
}

// EventSources lists the SQS event sources.
func (t *Template) EventSources(fns map[string]FunctionDef) []EventSource {
	byID := map[string]string{}
	for name, fd := range fns {
		byID[fd.LogicalID] = name
	}
	var out []EventSource
	for _, res := range t.Resources {
		if res.Type != "AWS::Lambda::EventSourceMapping" {
			continue
		}
		p := res.Properties
		fnRef, _ := p["FunctionName"].(map[string]any)["Ref"].(string)
		es := EventSource{Function: byID[fnRef]}
		if ga, ok := p["EventSourceArn"].(map[string]any)["Fn::GetAtt"].([]any); ok {
			qid, _ := ga[0].(string)
			es.QueueName, _ = t.Resources[qid].Properties["QueueName"].(string)
		}
		if n, ok := p["BatchSize"].(float64); ok {
			es.BatchSize = int(n)
		}
		if sc, ok := p["ScalingConfig"].(map[string]any); ok {
			if n, ok := sc["MaximumConcurrency"].(float64); ok {
				es.MaxConcurrency = int(n)
			}
		}
		out = append(out, es)
	}
	return out
}

func tagValue(tags any, key string) string {
	list, _ := tags.([]any)
	for _, t := range list {
		m, _ := t.(map[string]any)
		if m["Key"] == key {
			s, _ := m["Value"].(string)
			return s
		}
	}
	return ""
}
