package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// Synthesis is the slow part of these tests (a Node process, a few seconds
// per stack), so each scenario is synthesized once per test binary and its
// template shared by every test.

// scenario is one synthesized stack with the context it was built from.
type scenario struct {
	name     string
	context  map[string]any
	once     sync.Once
	stack    awscdk.Stack
	template assertions.Template
	raw      map[string]any // the template as JSON, for checks Match cannot express
	// edge is the us-east-1 stack of the WAF WebACL (context edge=true).
	edge    assertions.Template
	edgeRaw map[string]any
	// edgeMonitoring is the us-east-1 stack of the CloudFront alarm.
	edgeMonitoring assertions.Template
	err            error
}

var (
	// workDir holds the code directories and the applications document.
	workDir string

	// defaultScenario sets only codeDir (to zips that exist), so every
	// other key has its default.
	defaultScenario = &scenario{name: "default"}

	// customScenario sets every context key to a non-default value, in the
	// string form the CDK CLI passes for `-c key=value`, and points codeDir
	// at an empty directory so that every function gets the placeholder.
	customScenario = &scenario{name: "custom"}
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	defer jsii.Close()
	dir, err := os.MkdirTemp("", "invite-infra-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	workDir = dir
	if err := prepareScenarios(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func prepareScenarios(dir string) error {
	zips := filepath.Join(dir, "build")
	empty := filepath.Join(dir, "empty")
	for _, d := range []string{zips, empty} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for _, name := range expectedFunctionNames {
		// The content does not matter to CDK: the zip is uploaded as it is.
		if err := os.WriteFile(filepath.Join(zips, name+".zip"), []byte("zip of "+name), 0o644); err != nil {
			return err
		}
	}

	defaultScenario.context = map[string]any{ctxCodeDir: zips}
	customScenario.context = map[string]any{
		ctxCodeDir:              empty,
		ctxDeletionProtection:   "false",
		ctxLogRetentionDays:     "90",
		ctxLogLevel:             "debug",
		ctxMaxReceiveCount:      "5",
		ctxQueueAgeAlarmSeconds: "600",
		ctxAlarmEmail:           "ops@example.org",
		ctxPublicBaseURL:        "https://invite.example.edu/",
		ctxOIDCIssuer:           "https://login.example.edu",
		ctxOIDCAudience:         "invite-api",
		ctxOIDCClientID:         "invite-web",
		ctxSuperUsers:           "urn:collab:person:example.edu:admin,boss@example.edu",
		ctxDisclaimer:           "Guests of Example University accept its acceptable-use policy.",
		ctxMailDomain:           "mail.example.edu",
		ctxMailFrom:             "guests@mail.example.edu",
		ctxSPIDs:                "sp-a, sp-b",
		ctxSCIMAllowedAddresses: "10.20.0.0/16, scim.intranet.example.edu",
		ctxSessionMaxLifetime:   "10h",
		ctxIntrospectionClient:  "invite-api",
		ctxInvitationsPerDay:    "500",
		ctxExpiryLimit:          "2000",
		ctxRoleDeletionBudget:   "200",
		ctxRoleMoveBudget:       "300",
		"oidcScopes":            "openid profile email eduperson",
		"oidcClaimEppn":         "eppn",
		ctxThrottleRate:         "20",
		ctxThrottleBurst:        "40",
		ctxWAFRateLimit:         "300",
		ctxWAFManagedRules:      "count",
		ctxDomainName:           "Invite.Example.edu",
		ctxCertificateArn:       "arn:aws:acm:us-east-1:123456789012:certificate/0c1d2e3f-aaaa-bbbb-cccc-0123456789ab",
		ctxOriginSecretVersion:  "9f8e7d6c-1111-2222-3333-444455556666",
		// Session settings (U6).
		"clientUrl":                     "https://guests.example.edu",
		"welcomeUrl":                    "https://welcome.example.edu",
		"serverUrl":                     "https://api.example.edu",
		"serverWelcomeUrl":              "https://api.example.edu/welcome",
		"fedidEntityId":                 "https://idp.example.edu",
		"fedidIdpSchacHomeOrganization": "example.edu",
		"languages":                     "nl",
		ctxEnvironment:                  "test",
		"roleSearchRequired":            "true",
		"pastDateAllowed":               "true",
		ctxPerformanceSeedAllowed:       "false",
	}
	return nil
}

// synth returns the scenario's stack, synthesizing it on first use.
func (s *scenario) synth(t *testing.T) *scenario {
	t.Helper()
	s.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				s.err = fmt.Errorf("synth panicked: %v", r)
			}
		}()
		cfg, err := LoadStackConfig(func(key string) any { return s.context[key] })
		if err != nil {
			s.err = err
			return
		}
		app := awscdk.NewApp(nil)
		s.stack, s.err = buildStacks(app, cfg, testEnvironment)
		if s.err != nil {
			return
		}
		s.template = assertions.Template_FromStack(s.stack, nil)
		if s.raw, s.err = rawTemplate(s.template); s.err != nil || !cfg.Edge {
			return
		}
		edge, ok := app.Node().TryFindChild(jsii.String(edgeStackName)).(awscdk.Stack)
		if !ok {
			s.err = fmt.Errorf("no %s with context edge=true", edgeStackName)
			return
		}
		s.edge = assertions.Template_FromStack(edge, nil)
		if s.edgeRaw, s.err = rawTemplate(s.edge); s.err != nil {
			return
		}
		alarms, ok := app.Node().TryFindChild(jsii.String(edgeMonitoringStackName)).(awscdk.Stack)
		if !ok {
			s.err = fmt.Errorf("no %s with context edge=true", edgeMonitoringStackName)
			return
		}
		s.edgeMonitoring = assertions.Template_FromStack(alarms, nil)
	})
	if s.err != nil {
		t.Fatalf("%s scenario: %v", s.name, s.err)
	}
	return s
}

// testEnvironment is the account and region of the stacks under test: a
// cross-region reference (the WebACL of the edge stack) needs both.
var testEnvironment = &awscdk.Environment{Account: jsii.String("123456789012"), Region: jsii.String("eu-west-1")}

// rawTemplate round-trips a template through JSON so that it holds plain
// maps, slices, strings and float64s.
func rawTemplate(t assertions.Template) (map[string]any, error) {
	b, err := json.Marshal(t.ToJSON())
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	return raw, json.Unmarshal(b, &raw)
}

// expect runs a CDK assertion, which panics on mismatch, as a test error.
func expect(t *testing.T, assertion func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%v", r)
		}
	}()
	assertion()
}

// bothScenarios runs a table of checks against the default and the custom
// stack, for settings whose value depends on the context.
func bothScenarios(t *testing.T, check func(t *testing.T, s *scenario)) {
	for _, s := range []*scenario{defaultScenario, customScenario} {
		t.Run(s.name, func(t *testing.T) { check(t, s.synth(t)) })
	}
}

// --- raw template helpers ---

// resources returns the resources of one type by logical id.
func (s *scenario) resources(typ string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for id, r := range s.raw["Resources"].(map[string]any) {
		res := r.(map[string]any)
		if res["Type"] == typ {
			out[id] = res
		}
	}
	return out
}

func properties(resource map[string]any) map[string]any {
	p, _ := resource["Properties"].(map[string]any)
	return p
}

// logicalID returns the only resource of typ whose property key equals
// value, failing the test when there is not exactly one.
func (s *scenario) logicalID(t *testing.T, typ, key string, value any) string {
	t.Helper()
	var found []string
	for id, r := range s.resources(typ) {
		if fmt.Sprint(properties(r)[key]) == fmt.Sprint(value) {
			found = append(found, id)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s with %s=%v, found %v", typ, key, value, found)
	}
	return found[0]
}

// functionID finds a function by the tag every function carries.
func (s *scenario) functionID(t *testing.T, name string) string {
	t.Helper()
	var found []string
	for id, r := range s.resources("AWS::Lambda::Function") {
		tags, _ := properties(r)["Tags"].([]any)
		for _, tag := range tags {
			kv := tag.(map[string]any)
			if kv["Key"] == functionTagKey && kv["Value"] == name {
				found = append(found, id)
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one function tagged %s=%s, found %v", functionTagKey, name, found)
	}
	return found[0]
}

func (s *scenario) function(t *testing.T, name string) map[string]any {
	t.Helper()
	return properties(s.raw["Resources"].(map[string]any)[s.functionID(t, name)].(map[string]any))
}

// getAttID returns X of {"Fn::GetAtt": [X, attr]}, or "".
func getAttID(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	parts, ok := m["Fn::GetAtt"].([]any)
	if !ok || len(parts) != 2 {
		return ""
	}
	return parts[0].(string)
}

// refID returns X of {"Ref": X}, or "".
func refID(v any) string {
	if m, ok := v.(map[string]any); ok {
		if id, ok := m["Ref"].(string); ok {
			return id
		}
	}
	return ""
}
