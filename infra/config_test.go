package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2"
)

func lookupFrom(values map[string]any) ContextLookup {
	return func(key string) any { return values[key] }
}

func TestStackConfigDefaults(t *testing.T) {
	cfg, err := LoadStackConfig(lookupFrom(nil))
	if err != nil {
		t.Fatal(err)
	}
	want := StackConfig{
		CodeDir:              "../build",
		DeletionProtection:   true,
		LogRetentionDays:     30,
		LogLevel:             "info",
		MaxReceiveCount:      100,
		QueueAgeAlarmSeconds: 300,
		MailDomain:           "example.org",
		MailFrom:             "noreply@example.org",
		SessionIdleTimeout:   "8h",
		IdentityProvider:     map[string]string{},
		ThrottleRate:         50,
		ThrottleBurst:        100,
		Edge:                 true,
		WAFRateLimit:         1000,
		WAFManagedRules:      "block",
		Session: map[string]string{"ENVIRONMENT": "prod", "ROLE_SEARCH_REQUIRED": "false", "PAST_DATE_ALLOWED": "false",
			"PERFORMANCE_SEED_ALLOWED": "false"},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("defaults\n  got  %+v\n  want %+v", cfg, want)
	}
}

// TestStackConfigAcceptsCLIAndJSONForms: `-c key=value` gives strings,
// cdk.json gives numbers and booleans; both mean the same.
func TestStackConfigAcceptsCLIAndJSONForms(t *testing.T) {
	forms := []map[string]any{
		{"deletionProtection": "false", "maxReceiveCount": "3", "throttleRate": "12.5", "spIds": "a, b,,c", "mailDomain": "x.edu"},
		{"deletionProtection": false, "maxReceiveCount": float64(3), "throttleRate": 12.5, "spIds": "a,b,c", "mailDomain": "x.edu"},
	}
	for _, form := range forms {
		cfg, err := LoadStackConfig(lookupFrom(form))
		if err != nil {
			t.Fatalf("%v: %v", form, err)
		}
		if cfg.DeletionProtection || cfg.MaxReceiveCount != 3 || cfg.ThrottleRate != 12.5 ||
			!reflect.DeepEqual(cfg.SPIDs, []string{"a", "b", "c"}) || cfg.MailFrom != "noreply@x.edu" {
			t.Errorf("%v read as %+v", form, cfg)
		}
	}
}

func TestStackConfigRejectsBadValues(t *testing.T) {
	cases := []struct {
		key   string
		value any
		want  string
	}{
		{"logRetentionDays", "31", "not a CloudWatch Logs retention"},
		{"maxReceiveCount", "0", "outside 1..1000"},
		{"maxReceiveCount", "ten", "not a number"},
		{"maxReceiveCount", "2.5", "not a whole number"},
		{"deletionProtection", "maybe", "not true or false"},
		{"queueAgeAlarmSeconds", "10", "below 60 seconds"},
		{"throttleBurst", "-1", "must be positive"},
		{"logLevel", "verbose", "not one of"},
		{"alarmEmail", "ops", "not an e-mail address"},
		{"mailFrom", "noreply", "not an e-mail address"},
		{"publicBaseUrl", "invite.example.org", "not an http(s) URL"},
		{"spIds", "good,bad id", `"bad id" may hold only`},
		{"spIds", "a,a", "listed twice"},
		{"applicationsConfig", "/apps.json", "make import-applications APPS=/apps.json"},
		{"clientUrl", "guests.example.org", "not an http(s) URL"},
		{"pastDateAllowed", "sometimes", "not true or false"},
		{"environment", " ", "must not be empty"},
		{"sessionIdleTimeout", "a day", "not a positive Go duration"},
		{"sessionMaxLifetime", "-1h", "not a positive Go duration"},
		{"invitationsPerInviterPerDay", "0", "neither a positive number nor off"},
		{"invitationsPerInviterPerDay", "lots", "neither a positive number nor off"},
		{"expiryLimit", "-5", "not a positive number of memberships"},
		{"expiryLimit", "1.5", "not a whole number"},
		{"roleDeletionBudget", "-1", "not a positive number of members"},
		{"roleMoveBudget", "2.5", "not a whole number"},
	}
	for _, c := range cases {
		t.Run(c.key+"="+fmt.Sprint(c.value), func(t *testing.T) {
			_, err := LoadStackConfig(lookupFrom(map[string]any{c.key: c.value}))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.key) {
				t.Errorf("error = %v, want it to name %s and say %q", err, c.key, c.want)
			}
		})
	}
}

func TestStackConfigReportsAllProblemsAtOnce(t *testing.T) {
	_, err := LoadStackConfig(lookupFrom(map[string]any{"maxReceiveCount": "0", "logLevel": "loud"}))
	if err == nil || !strings.Contains(err.Error(), "maxReceiveCount") || !strings.Contains(err.Error(), "logLevel") {
		t.Errorf("error = %v, want both problems", err)
	}
}

// TestBuildFailsOnInvalidContext: the app stops before synthesizing, with
// the reason, instead of deploying a broken configuration.
func TestBuildFailsOnInvalidContext(t *testing.T) {
	app := awscdk.NewApp(&awscdk.AppProps{Context: &map[string]any{"logLevel": "verbose"}})
	err := build(app)
	if err == nil || !strings.Contains(err.Error(), "not one of debug") {
		t.Errorf("build error = %v, want the bad log level", err)
	}
	if children := len(*app.Node().Children()); children != 0 {
		t.Errorf("app has %d children after a failed build, want none", children)
	}
}

func TestDeploymentsRequireTheFunctionCode(t *testing.T) {
	cfg, err := LoadStackConfig(lookupFrom(map[string]any{"codeDir": t.TempDir(), "requireFunctionCode": "true"}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = buildStacks(awscdk.NewApp(nil), cfg, testEnvironment)
	if err == nil || !strings.Contains(err.Error(), "users.zip is missing: run 'make build'") {
		t.Errorf("error = %v, want the missing zip named", err)
	}
}

func TestResolveFunctionCode(t *testing.T) {
	dir := t.TempDir()
	zip := filepath.Join(dir, "roles.zip")
	if err := os.WriteFile(zip, []byte("zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "users.zip"), 0o755); err != nil { // a directory is not a zip
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		required bool
		want     functionCode
		wantErr  bool
	}{
		{"roles", false, functionCode{Path: zip}, false},
		{"roles", true, functionCode{Path: zip}, false},
		{"users", false, functionCode{Path: placeholderDir, Placeholder: true}, false},
		{"crm", false, functionCode{Path: placeholderDir, Placeholder: true}, false},
		{"crm", true, functionCode{}, true},
	}
	for _, c := range cases {
		got, err := resolveFunctionCode(dir, c.name, c.required)
		if (err != nil) != c.wantErr || got != c.want {
			t.Errorf("%s required=%v: got %+v, %v", c.name, c.required, got, err)
		}
	}
	if _, err := os.Stat(filepath.Join(placeholderDir, "bootstrap")); err != nil {
		t.Errorf("placeholder bootstrap missing: %v", err)
	}
}

func TestPascalCase(t *testing.T) {
	for in, want := range map[string]string{"outbox-sweep": "OutboxSweep", "users": "Users", "a_b-c": "ABC"} {
		if got := pascalCase(in); got != want {
			t.Errorf("pascalCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOIDCClientIsNotTheAudience: the pages' client and the API's audience
// are two names, so that an ID token of the pages is never an API
// credential.
func TestOIDCClientIsNotTheAudience(t *testing.T) {
	tests := []struct {
		name    string
		context map[string]any
		want    string
	}{
		{"same", map[string]any{"oidcAudience": "invite", "oidcClientId": "invite"}, "must differ"},
		{"client missing", map[string]any{"oidcAudience": "invite-api"}, "oidcClientId is required"},
		{"distinct", map[string]any{"oidcAudience": "invite-api", "oidcClientId": "invite-web"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadStackConfig(lookupFrom(tt.context))
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
}
