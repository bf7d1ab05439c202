package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// expectedFunctionNames are the directories under functions/.
var expectedFunctionNames = []string{
	"users", "roles", "invitations", "crm", "tokens", "system", "web",
	"provisioner", "expiry", "cleanup", "outbox-sweep", "mail-events", "reconcile", "jobs",
}

var apiFunctionNames = map[string]bool{"users": true, "roles": true, "invitations": true, "crm": true, "tokens": true, "system": true, "web": true}

func TestOneFunctionPerDirectory(t *testing.T) {
	s := defaultScenario.synth(t)
	var service []string
	for id := range s.resources("AWS::Lambda::Function") {
		if !cdkCrossRegionReader(id) {
			service = append(service, id)
		}
	}
	if len(service) != len(expectedFunctionNames) {
		t.Errorf("%d functions besides CDK's cross-region reader, want %d: %v", len(service), len(expectedFunctionNames), service)
	}
	for _, name := range expectedFunctionNames {
		s.functionID(t, name) // fails unless exactly one function carries the name
	}
}

func TestFunctionRuntimeAndLimits(t *testing.T) {
	s := defaultScenario.synth(t)
	timeouts := map[string]float64{"invitations": 29, "web": 29, "provisioner": 60, "expiry": 300, "cleanup": 300, "outbox-sweep": 50, "mail-events": 30, "reconcile": 900, "jobs": 900}
	for _, name := range expectedFunctionNames {
		t.Run(name, func(t *testing.T) {
			fn := s.function(t, name)
			want := map[string]any{
				"Runtime":       "provided.al2023",
				"Architectures": []any{"arm64"},
				"Handler":       "bootstrap",
				"MemorySize":    float64(256),
			}
			for k, v := range want {
				if fmt.Sprint(fn[k]) != fmt.Sprint(v) {
					t.Errorf("%s = %v, want %v", k, fn[k], v)
				}
			}
			wantTimeout := float64(10)
			if tmo, ok := timeouts[name]; ok {
				wantTimeout = tmo
			}
			if fn["Timeout"] != wantTimeout {
				t.Errorf("Timeout = %v, want %v", fn["Timeout"], wantTimeout)
			}
		})
	}
}

// TestFunctionEnvironment checks that each function gets exactly the
// variables its work needs, with the values of the context.
func TestFunctionEnvironment(t *testing.T) {
	common := []string{"TABLE_NAME", "LOG_LEVEL"}
	oidc := []string{"OIDC_ISSUER", "OIDC_AUDIENCE", "SUPER_USERS", "ORIGIN_VERIFY_SECRET_ARN"} // every API function; the origin secret with CloudFront
	mail := []string{"MAIL_FROM", "SES_CONFIGURATION_SET"}
	// Session settings not given are left to the service's defaults; the
	// environment and the flags are always stated.
	session := map[string][]string{
		"default": {"ENVIRONMENT", "ROLE_SEARCH_REQUIRED", "PAST_DATE_ALLOWED", "PERFORMANCE_SEED_ALLOWED"},
		"custom": {"CLIENT_URL", "WELCOME_URL", "SERVER_URL", "SERVER_WELCOME_URL", "FEDID_ENTITY_ID",
			"FEDID_IDP_SCHAC_HOME_ORGANIZATION", "LANGUAGES", "ENVIRONMENT", "ROLE_SEARCH_REQUIRED", "PAST_DATE_ALLOWED",
			"PERFORMANCE_SEED_ALLOWED"},
	}
	want := map[string][]string{
		"users":       join(common, oidc, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "MACHINE_CALLERS_SECRET_ARN"}),
		"roles":       join(common, oidc, []string{"SCIM_QUEUE_URL", "MACHINE_CALLERS_SECRET_ARN", "JOBS_FUNCTION_NAME"}),
		"invitations": join(common, oidc, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "MACHINE_CALLERS_SECRET_ARN"}),
		"crm":         join(common, oidc, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "MACHINE_CALLERS_SECRET_ARN"}),
		"tokens":      join(common, oidc),
		"system":      join(common, oidc, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "PERFORMANCE_SEED_ALLOWED", "CONNECTION_SECRET_PREFIX", "RECONCILE_FUNCTION_NAME", "JOBS_FUNCTION_NAME"}),
		"web": join(common, oidc, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "CONNECTION_SECRET_PREFIX",
			"OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET_ARN", "SESSION_IDLE_TIMEOUT", "RECONCILE_FUNCTION_NAME", "JOBS_FUNCTION_NAME"}),
		"provisioner":  join(common, []string{"SCIM_QUEUE_URL", "SCIM_DLQ_URL", "SCIM_MAX_RECEIVE_COUNT"}),
		"expiry":       join(common, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "JOBS_FUNCTION_NAME"}),
		"cleanup":      common,
		"reconcile":    common,
		"outbox-sweep": join(common, mail, []string{"SCIM_QUEUE_URL"}),
		"mail-events":  common,
		"jobs":         join(common, mail, []string{"SCIM_QUEUE_URL", "PUBLIC_BASE_URL", "PERFORMANCE_SEED_ALLOWED", "JOBS_CONTINUE_IN_SELF"}),
	}
	bothScenarios(t, func(t *testing.T, s *scenario) {
		for _, name := range expectedFunctionNames {
			env := s.environment(t, name)
			got := make([]string, 0, len(env))
			for k := range env {
				got = append(got, k)
			}
			sort.Strings(got)
			w := append([]string(nil), want[name]...)
			if name == "users" {
				w = append(w, session[s.name]...)
			}
			if name == "web" && s.name == "custom" {
				w = append(w, "DISCLAIMER") // only when set
			}
			// The identity provider's settings, the introspection client
			// and the invitation cap, only when set, to every API
			// function; the absolute session lifetime to the pages.
			if s.name == "custom" && apiFunctionNames[name] {
				w = append(w, "OIDC_SCOPES", "OIDC_CLAIM_EPPN", "OIDC_INTROSPECTION_CLIENT_ID", "OIDC_INTROSPECTION_SECRET",
					"INVITATIONS_PER_INVITER_PER_DAY")
			}
			if s.name == "custom" && name == "web" {
				w = append(w, "SESSION_MAX_LIFETIME")
			}
			// The expiry run's bound, only when set, to the expiry run
			// and its continuation.
			if s.name == "custom" && (name == "expiry" || name == "jobs") {
				w = append(w, "EXPIRY_LIMIT")
			}
			// The role deletion's and move's request budgets, only when
			// set, to the functions that delete and move roles.
			if s.name == "custom" && (name == "roles" || name == "web") {
				w = append(w, "ROLE_DELETION_BUDGET", "ROLE_MOVE_BUDGET")
			}
			// The operator's SCIM address allow-list, only when set, to
			// every function that checks or calls an SP address.
			if s.name == "custom" && slices.Contains([]string{"system", "web", "provisioner", "reconcile"}, name) {
				w = append(w, "SCIM_ALLOWED_ADDRESSES")
			}
			sort.Strings(w)
			if strings.Join(got, ",") != strings.Join(w, ",") {
				t.Errorf("%s environment\n  got  %v\n  want %v", name, got, w)
			}
		}
	})
}

func TestEnvironmentReferencesTheStackResources(t *testing.T) {
	s := defaultScenario.synth(t)
	table := s.logicalID(t, "AWS::DynamoDB::Table", "TimeToLiveSpecification", map[string]any{"AttributeName": "ttl", "Enabled": true})
	queue := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimQueueName)
	dlq := s.logicalID(t, "AWS::SQS::Queue", "QueueName", scimDeadLetterQueueName)
	secret := s.logicalID(t, "AWS::SecretsManager::Secret", "Name", machineCallersSecretName)
	distribution := s.onlyID(t, "AWS::CloudFront::Distribution")
	configSet := s.onlyID(t, "AWS::SES::ConfigurationSet")

	users := s.environment(t, "users")
	checks := []struct {
		name string
		env  map[string]any
		key  string
		want any
	}{
		{"users", users, "TABLE_NAME", map[string]any{"Ref": table}},
		{"users", users, "SCIM_QUEUE_URL", map[string]any{"Ref": queue}},
		{"users", users, "MACHINE_CALLERS_SECRET_ARN", map[string]any{"Ref": secret}},
		{"users", users, "SES_CONFIGURATION_SET", map[string]any{"Ref": configSet}},
		{"users", users, "MAIL_FROM", "noreply@example.org"},
		{"users", users, "LOG_LEVEL", "info"},
		// Without publicBaseUrl, links point at CloudFront (the WAF's side).
		{"users", users, "PUBLIC_BASE_URL", map[string]any{"Fn::Join": []any{"", []any{"https://", map[string]any{"Fn::GetAtt": []any{distribution, "DomainName"}}}}}},
		{"provisioner", s.environment(t, "provisioner"), "SCIM_DLQ_URL", map[string]any{"Ref": dlq}},
	}
	for _, c := range checks {
		if fmt.Sprint(c.env[c.key]) != fmt.Sprint(c.want) {
			t.Errorf("%s %s = %v, want %v", c.name, c.key, c.env[c.key], c.want)
		}
	}
}

func TestEnvironmentTakesContextValues(t *testing.T) {
	s := customScenario.synth(t)
	invitations := s.environment(t, "invitations")
	want := map[string]string{
		"PUBLIC_BASE_URL": "https://invite.example.edu",
		"OIDC_ISSUER":     "https://login.example.edu",
		"OIDC_AUDIENCE":   "invite-api",
		"SUPER_USERS":     "urn:collab:person:example.edu:admin,boss@example.edu",
		"MAIL_FROM":       "guests@mail.example.edu",
		"LOG_LEVEL":       "debug",
	}
	for k, v := range want {
		if invitations[k] != v {
			t.Errorf("invitations %s = %v, want %v", k, invitations[k], v)
		}
	}
	users := s.environment(t, "users")
	for k, v := range map[string]string{"CLIENT_URL": "https://guests.example.edu", "WELCOME_URL": "https://welcome.example.edu",
		"LANGUAGES": "nl", "ENVIRONMENT": "test", "ROLE_SEARCH_REQUIRED": "true", "PAST_DATE_ALLOWED": "true",
		"PERFORMANCE_SEED_ALLOWED": "false", "FEDID_ENTITY_ID": "https://idp.example.edu"} {
		if users[k] != v {
			t.Errorf("users %s = %v, want %v", k, users[k], v)
		}
	}
	if got := defaultScenario.synth(t).environment(t, "users")["ENVIRONMENT"]; got != "prod" {
		t.Errorf("default ENVIRONMENT = %v, want prod", got)
	}
	if got := s.environment(t, "web")["DISCLAIMER"]; got != "Guests of Example University accept its acceptable-use policy." {
		t.Errorf("web DISCLAIMER = %v", got)
	}
	if _, set := defaultScenario.synth(t).environment(t, "web")["DISCLAIMER"]; set {
		t.Error("web DISCLAIMER is set without the disclaimer context key")
	}
	for _, name := range []string{"expiry", "jobs"} {
		if got := s.environment(t, name)["EXPIRY_LIMIT"]; got != "2000" {
			t.Errorf("%s EXPIRY_LIMIT = %v, want 2000", name, got)
		}
	}
	for _, name := range []string{"roles", "web"} {
		env := s.environment(t, name)
		if env["ROLE_DELETION_BUDGET"] != "200" || env["ROLE_MOVE_BUDGET"] != "300" {
			t.Errorf("%s ROLE_DELETION_BUDGET = %v, ROLE_MOVE_BUDGET = %v, want 200 and 300", name, env["ROLE_DELETION_BUDGET"], env["ROLE_MOVE_BUDGET"])
		}
	}
	if got := s.environment(t, "system")["CONNECTION_SECRET_PREFIX"]; got != "invite/scim-connections/" {
		t.Errorf("system CONNECTION_SECRET_PREFIX = %v", got)
	}
}

func TestEachFunctionLogsToItsOwnGroupWithRetention(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		wantDays := map[string]float64{"default": 30, "custom": 90}[s.name]
		wantPolicy := map[string]string{"default": "Retain", "custom": "Delete"}[s.name]
		groups := s.resources("AWS::Logs::LogGroup")
		seen := map[string]string{}
		for _, name := range expectedFunctionNames {
			id := refID(s.function(t, name)["LoggingConfig"].(map[string]any)["LogGroup"])
			group, ok := groups[id]
			if !ok {
				t.Fatalf("%s logs to %q, which is not a log group of the stack", name, id)
			}
			if other, dup := seen[id]; dup {
				t.Errorf("%s and %s share log group %s", name, other, id)
			}
			seen[id] = name
			if got := properties(group)["RetentionInDays"]; got != wantDays {
				t.Errorf("%s log retention = %v, want %v", name, got, wantDays)
			}
			if got := group["DeletionPolicy"]; got != wantPolicy {
				t.Errorf("%s log group DeletionPolicy = %v, want %v", name, got, wantPolicy)
			}
		}
	})
}

// TestCodeComesFromTheZipsOrThePlaceholder: with zips, each function has its
// own asset; without, all share the placeholder and synth warns per function.
func TestCodeComesFromTheZipsOrThePlaceholder(t *testing.T) {
	keys := func(s *scenario) map[string]bool {
		out := map[string]bool{}
		for _, name := range expectedFunctionNames {
			out[fmt.Sprint(s.function(t, name)["Code"].(map[string]any)["S3Key"])] = true
		}
		return out
	}
	placeholder := assertions.Match_StringLikeRegexp(jsii.String("placeholder code"))

	def := defaultScenario.synth(t)
	if got := len(keys(def)); got != len(expectedFunctionNames) {
		t.Errorf("default: %d distinct code assets, want one per function", got)
	}
	if found := assertions.Annotations_FromStack(def.stack).FindWarning(jsii.String("*"), placeholder); len(*found) != 0 {
		t.Errorf("default: %d placeholder warnings, want none", len(*found))
	}

	custom := customScenario.synth(t)
	if got := len(keys(custom)); got != 1 {
		t.Errorf("custom: %d distinct code assets, want the one placeholder", got)
	}
	found := assertions.Annotations_FromStack(custom.stack).FindWarning(jsii.String("*"), placeholder)
	if len(*found) != len(expectedFunctionNames) {
		t.Errorf("custom: %d placeholder warnings, want one per function", len(*found))
	}
}

func (s *scenario) environment(t *testing.T, name string) map[string]any {
	t.Helper()
	env, _ := s.function(t, name)["Environment"].(map[string]any)
	vars, _ := env["Variables"].(map[string]any)
	return vars
}

// onlyID returns the logical id of the only resource of typ.
func (s *scenario) onlyID(t *testing.T, typ string) string {
	t.Helper()
	res := s.resources(typ)
	if len(res) != 1 {
		t.Fatalf("want one %s, found %d", typ, len(res))
	}
	for id := range res {
		return id
	}
	return ""
}

func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// TestNoApplicationDocumentInAnyLambdaEnvironment: applications and SCIM
// connections are table items (issue 16); no function's environment holds
// an applications document, whatever its variable is called.
func TestNoApplicationDocumentInAnyLambdaEnvironment(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		for _, name := range expectedFunctionNames {
			for k, v := range s.environment(t, name) {
				text := fmt.Sprint(v)
				if strings.HasPrefix(k, "APPLICATIONS_CONFIG") || strings.Contains(text, `"applications"`) ||
					strings.Contains(text, `"provisionings"`) || strings.Contains(text, "manageId") {
					t.Errorf("%s: %s holds an applications document: %.120s", name, k, text)
				}
			}
		}
	})
}
