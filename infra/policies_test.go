package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"
)

// The expectations below are written out by hand rather than derived from
// functionSpecs, so that a change of a spec that widens a function's
// permissions fails here until the test is changed on purpose.

var (
	wantTableReads   = []string{"dynamodb:GetItem", "dynamodb:Query", "dynamodb:BatchGetItem", "dynamodb:ConditionCheckItem"}
	wantTableWrites  = []string{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"}
	wantQueueConsume = []string{"sqs:ReceiveMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueUrl", "sqs:DeleteMessage", "sqs:GetQueueAttributes"}
)

// grantSet is a set of "action on resource-label" strings.
type grantSet map[string]bool

func grants(actions []string, labels ...string) grantSet {
	g := grantSet{}
	for _, a := range actions {
		for _, l := range labels {
			g[a+" on "+l] = true
		}
	}
	return g
}

func union(sets ...grantSet) grantSet {
	out := grantSet{}
	for _, s := range sets {
		for k := range s {
			out[k] = true
		}
	}
	return out
}

func (g grantSet) sorted() []string {
	out := make([]string, 0, len(g))
	for k := range g {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Resource labels used by classifyResource.
const (
	lTable          = "table"
	lIndexes        = "table-indexes"
	lQueue          = "scim-queue"
	lDLQ            = "scim-dlq"
	lOwnLogs        = "own-log-group"
	lSESIdentity    = "ses-identity"
	lSESConfigSet   = "ses-configuration-set"
	lMachineCallers = "machine-callers-secret"
	lOIDCClient     = "oidc-client-secret"
	lSPSecrets      = "invite/sp/* secrets"
	lConnSecrets    = "invite/scim-connections/* secrets"
	lOriginVerify   = "origin-verify-secret"
	lIntrospection  = "oidc-introspection-secret"
)

func leadingKeys(patterns ...string) string { return conditionLabel(lTable, patterns) }

func indexLeadingKeys(patterns ...string) string { return conditionLabel(lIndexes, patterns) }

// conditionLabel is a resource label with its LeadingKeys condition, the
// patterns sorted and without repeats, as describeCondition writes it.
func conditionLabel(label string, patterns []string) string {
	set := map[string]bool{}
	for _, p := range patterns {
		set[p] = true
	}
	sorted := make([]string, 0, len(set))
	for p := range set {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	return label + " if LeadingKeys in " + strings.Join(sorted, ",")
}

// Item kinds as LeadingKeys patterns, written out by hand (see above).
var (
	pMembership = []string{"SEQ#*", "USER#*", "UWORD#*", "UEXACT#*", "COUNT#*", "USERSUB#*", "DELIVERY#*", "AUDIT#*"}
	pRoles      = []string{"ROLE#*", "ROLENAME#*", "APP#*", "RWORD#*", "ROLELISTING"}
	iPeople     = []string{"USERS", "ORGUSERS#*", "ADMIN#*", "UR#*", "ROLE#*", "ORG#*", "ROLES", "RLIST#*", "RWORD#*"}
	iInvitation = []string{"INVHASH#*", "INVITER#*", "INVITERAPI#*", "INVOPEN"}
)

func patterns(groups ...[]string) []string {
	var out []string
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func keysOf(keys ...string) []string { return keys }

// tableGrants are the three table statements of a function: reads of the
// item kinds reads (which include what it writes), Query of the index
// partitions, writes of the kinds writes.
func tableGrants(reads, indexes, writes []string) grantSet {
	g := grants(wantTableReads, leadingKeys(reads...))
	if len(indexes) > 0 {
		g = union(g, grants([]string{"dynamodb:Query"}, indexLeadingKeys(indexes...)))
	}
	if len(writes) > 0 {
		g = union(g, grants(wantTableWrites, leadingKeys(writes...)))
	}
	return g
}

var (
	logsWrite      = grants([]string{"logs:CreateLogStream", "logs:PutLogEvents"}, lOwnLogs)
	queueSend      = grants([]string{"sqs:SendMessage"}, lQueue)
	deadLetterSend = grants([]string{"sqs:SendMessage"}, lDLQ)
	queueConsume   = grants(wantQueueConsume, lQueue)
	mailSend       = grants([]string{"ses:SendEmail"}, lSESIdentity, lSESConfigSet)
	machineCallers = grants([]string{"secretsmanager:GetSecretValue"}, lMachineCallers)
	spSecrets      = grants([]string{"secretsmanager:GetSecretValue"}, lSPSecrets, lConnSecrets)
	connSecrets    = grants([]string{"secretsmanager:CreateSecret", "secretsmanager:PutSecretValue", "secretsmanager:GetSecretValue",
		"secretsmanager:DeleteSecret"}, lConnSecrets)
	spSecretsRead = grants([]string{"secretsmanager:GetSecretValue"}, lSPSecrets)
	oidcClient    = grants([]string{"secretsmanager:GetSecretValue"}, lOIDCClient)
	originVerify  = grants([]string{"secretsmanager:GetSecretValue"}, lOriginVerify) // every API function, with CloudFront
	introspection = grants([]string{"secretsmanager:GetSecretValue"}, lIntrospection)
)

var (
	usersTable = tableGrants(
		patterns(patterns(pRoles, keysOf("INV#*", "REGISTRY", "SPLINK#*", "TOKEN#*"), pMembership, keysOf("MAIL#*"), keysOf("ORGANIZATIONS")), keysOf("AUTHFAIL#*")),
		iPeople,
		patterns(patterns(pMembership, keysOf("MAIL#*")), keysOf("AUTHFAIL#*")))
	rolesTable = tableGrants(
		patterns(patterns(keysOf("INV#*", "REGISTRY", "SPLINK#*", "TOKEN#*"), pMembership, pRoles, keysOf("MAIL#*", "JOB#job#*"), keysOf("ORGANIZATIONS")), keysOf("AUTHFAIL#*")),
		patterns(iPeople, keysOf("INVITER#*")),
		patterns(patterns(pMembership, pRoles, keysOf("MAIL#*", "JOB#job#*")), keysOf("AUTHFAIL#*")))
	invitationsTable = tableGrants(
		patterns(patterns(pRoles, keysOf("REGISTRY", "SPLINK#*", "TOKEN#*"), pMembership, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*"), keysOf("ORGANIZATIONS")), keysOf("AUTHFAIL#*")),
		patterns(iPeople, iInvitation),
		patterns(patterns(pMembership, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*")), keysOf("AUTHFAIL#*")))
	crmTable = tableGrants(
		patterns(patterns(pRoles, keysOf("REGISTRY", "SPLINK#*", "TOKEN#*"), pMembership, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*"), keysOf("ORGANIZATIONS")), keysOf("AUTHFAIL#*")),
		patterns(iPeople, iInvitation, keysOf("CRMCONTACT#*", "CRMORGS")),
		patterns(patterns(pMembership, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*")), keysOf("AUTHFAIL#*")))
	tokensTable = tableGrants(
		patterns(keysOf("ROLE#*", "RWORD#*", "ROLELISTING", "COUNT#*", "AUDIT#*", "REGISTRY", "ORGANIZATIONS", "SPLINK#*", "TOKEN#*", "TOKENID#*", "TOKENPENDING#*", "SEQ#*", "USER#*", "UWORD#*", "UEXACT#*", "USERSUB#*", "DELIVERY#*"), keysOf("AUTHFAIL#*")),
		keysOf("ORG#*", "TOKENS", "AUDIT", "ROLES", "RLIST#*", "RWORD#*", "UR#*"),
		patterns(keysOf("TOKEN#*", "TOKENID#*", "TOKENPENDING#*", "SEQ#*", "USER#*", "UWORD#*", "UEXACT#*", "USERSUB#*", "DELIVERY#*"), keysOf("AUTHFAIL#*")))
	systemTable = tableGrants(
		patterns(patterns(keysOf("SPLINK#*", "CRMORG#*"), pMembership, pRoles, keysOf("INV#*", "MAIL#*", "REGISTRY", "REGISTRYAUDIT", "TOKEN#*", "TOKENID#*", "JOB#*", "ORGANIZATIONS")), keysOf("AUTHFAIL#*")),
		patterns(iPeople, iInvitation, keysOf("SP#*", "OUTBOX#*", "DLQ#*", "MAILBOX#*", "AUDIT", "TOKENS", "EXPIRES#*", "INVEXPIRES#*", "TOKENEXPIRES#*", "CRMORGS")),
		patterns(patterns(pMembership, pRoles, keysOf("INV#*", "MAIL#*", "REGISTRY", "REGISTRYAUDIT", "TOKEN#*", "TOKENID#*", "JOB#*", "ORGANIZATIONS")), keysOf("AUTHFAIL#*")))
	webTable = tableGrants(
		patterns(patterns(keysOf("SPLINK#*", "JOB#*"), pMembership, pRoles, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*", "REGISTRY", "REGISTRYAUDIT", "TOKEN#*", "TOKENID#*", "TOKENPENDING#*", "SESSION#*", "ORGANIZATIONS", "JOB#reconcile#*", "JOB#job#*")), keysOf("AUTHFAIL#*")),
		patterns(iPeople, iInvitation, keysOf("PERSONSESSIONS#*", "TOKENS", "AUDIT", "SP#*", "OUTBOX#*", "DLQ#*", "MAILBOX#*", "INVPERSON#*")),
		patterns(patterns(pMembership, pRoles, keysOf("INV#*", "INVQUOTA#*", "MAIL#*", "CRMORG#*", "REGISTRY", "REGISTRYAUDIT", "TOKEN#*", "TOKENID#*", "TOKENPENDING#*", "SESSION#*", "ORGANIZATIONS", "JOB#reconcile#*", "JOB#job#*")), keysOf("AUTHFAIL#*")))
	provisionerTable = tableGrants(
		keysOf("USER#*", "ROLE#*", "REGISTRY", "SPLINK#*", "DELIVERY#*", "AUDIT#*", "SEQ#audit*", "SPGUARD#*"),
		keysOf("SP#*", "ROLE#*", "UR#*"),
		keysOf("SPLINK#*", "DELIVERY#*", "AUDIT#*", "SEQ#audit*", "SPGUARD#*"))
	expiryTable = tableGrants(
		patterns(pRoles, keysOf("REGISTRY", "SPLINK#*"), pMembership, keysOf("MAIL#*", "JOB#expiry*", "JOB#job#*"), keysOf("ORGANIZATIONS")),
		patterns(iPeople, keysOf("EXPIRES#*")),
		patterns(pMembership, keysOf("MAIL#*", "JOB#expiry*", "JOB#job#*")))
	cleanupTable = tableGrants(
		patterns(pRoles, keysOf("REGISTRY", "SPLINK#*"), pMembership, keysOf("INV#*", "MAIL#*", "TOKEN#*", "TOKENID#*", "JOB#cleanup*"), keysOf("ORGANIZATIONS")),
		patterns(iPeople, keysOf("EXPIRES#*", "INVEXPIRES#*", "TOKENEXPIRES#*")),
		patterns(pMembership, keysOf("INV#*", "MAIL#*", "TOKEN#*", "TOKENID#*", "JOB#cleanup*")))
	reconcileTable = tableGrants(
		keysOf("USER#*", "ROLE#*", "REGISTRY", "SPLINK#*", "JOB#reconcile*", "SPGUARD#*"),
		keysOf("SP#*", "ROLE#*", "UR#*"),
		keysOf("SPLINK#*", "JOB#reconcile*", "SPGUARD#*"))
	outboxTable = tableGrants(
		keysOf("REGISTRY", "DELIVERY#*", "MAIL#*", "JOB#outbox-sweep*"),
		keysOf("OUTBOX#*", "MAILBOX#*"),
		keysOf("DELIVERY#*", "MAIL#*", "JOB#outbox-sweep*"))
	jobsTable = tableGrants(
		patterns(keysOf("SPLINK#*", "CRMORG#*", "REGISTRY", "ORGANIZATIONS"), pMembership, pRoles, keysOf("INV#*", "MAIL#*", "TOKEN#*", "TOKENID#*", "JOB#*", "SEEDCOUNTS#*")),
		patterns(iPeople, iInvitation, keysOf("SP#*", "OUTBOX#*", "MAILBOX#*", "EXPIRES#*", "INVEXPIRES#*", "TOKENEXPIRES#*")),
		patterns(pMembership, pRoles, keysOf("INV#*", "MAIL#*", "TOKEN#*", "TOKENID#*", "JOB#*", "SEEDCOUNTS#*")))
	mailEventsTable = tableGrants(keysOf("REGISTRY", "MAIL#*"), nil, keysOf("MAIL#*"))
)

var expectedGrants = map[string]grantSet{
	"users":        union(logsWrite, originVerify, usersTable, queueSend, mailSend, machineCallers),
	"roles":        union(logsWrite, originVerify, rolesTable, queueSend, machineCallers, grants([]string{"lambda:InvokeFunction"}, "function invite jobs")),
	"invitations":  union(logsWrite, originVerify, invitationsTable, queueSend, mailSend, machineCallers),
	"crm":          union(logsWrite, originVerify, crmTable, queueSend, mailSend, machineCallers),
	"tokens":       union(logsWrite, originVerify, tokensTable),
	"system":       union(logsWrite, originVerify, systemTable, queueSend, mailSend, connSecrets, spSecretsRead, grants([]string{"lambda:InvokeFunction"}, "function invite reconcile", "function invite jobs")),
	"web":          union(logsWrite, originVerify, webTable, queueSend, mailSend, oidcClient, connSecrets, spSecretsRead, grants([]string{"lambda:InvokeFunction"}, "function invite reconcile", "function invite jobs")),
	"provisioner":  union(logsWrite, provisionerTable, queueConsume, deadLetterSend, spSecrets),
	"expiry":       union(logsWrite, expiryTable, queueSend, mailSend, grants([]string{"lambda:InvokeFunction"}, "function invite jobs")),
	"cleanup":      union(logsWrite, cleanupTable),
	"reconcile":    union(logsWrite, reconcileTable, spSecrets),
	"outbox-sweep": union(logsWrite, outboxTable, queueSend, mailSend),
	"mail-events":  union(logsWrite, mailEventsTable),
	"jobs":         union(logsWrite, jobsTable, grants([]string{"dynamodb:Scan"}, lTable), queueSend, mailSend, grants([]string{"lambda:InvokeFunction"}, "function invite jobs")),
}

// TestEachFunctionHasExactlyItsGrants compares every allowed action and
// resource of each function's role with the list above: a function may do
// what it needs and nothing else.
func TestEachFunctionHasExactlyItsGrants(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		for _, name := range expectedFunctionNames {
			t.Run(name, func(t *testing.T) {
				got := s.functionGrants(t, name)
				want := expectedGrants[name]
				if s.name == "custom" && apiFunctionNames[name] {
					// With oidcIntrospectionClientId every API function
					// introspects opaque access tokens with its secret.
					want = union(want, introspection)
				}
				var extra, missing []string
				for _, g := range got.sorted() {
					if !want[g] {
						extra = append(extra, g)
					}
				}
				for _, g := range want.sorted() {
					if !got[g] {
						missing = append(missing, g)
					}
				}
				if len(extra) > 0 || len(missing) > 0 {
					t.Errorf("grants of %s differ\n  not expected: %v\n  missing: %v", name, extra, missing)
				}
			})
		}
	})
}

// TestNoAPIFunctionConsumesTheQueueOrReadsSPSecrets: no API function
// consumes the SCIM queue or touches the DLQ, and none reads the hand-managed
// invite/sp/* secrets, except the functions serving the registry (system:
// the API; web: the console), whose "test connection" must resolve
// connections referencing them: they may read them and nothing more, never
// create, change or delete one.
func TestNoAPIFunctionConsumesTheQueueOrReadsSPSecrets(t *testing.T) {
	s := defaultScenario.synth(t)
	for _, name := range []string{"users", "roles", "invitations", "crm", "tokens", "system", "web"} {
		got := s.functionGrants(t, name)
		for g := range got {
			for _, forbidden := range []string{"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", lSPSecrets, lDLQ} {
				if !strings.Contains(g, forbidden) {
					continue
				}
				if (name == "system" || name == "web") && g == "secretsmanager:GetSecretValue on "+lSPSecrets {
					continue // the registry's test connection reads them
				}
				t.Errorf("API function %s may %s", name, g)
			}
		}
	}
	for _, name := range []string{"system", "web"} {
		if !s.functionGrants(t, name)["secretsmanager:GetSecretValue on "+lSPSecrets] {
			t.Errorf("the %s function cannot read invite/sp/* secrets: test connection fails for hand-managed secrets", name)
		}
	}
}

func TestTokensHasNoQueueMailOrSecretAccess(t *testing.T) {
	s := defaultScenario.synth(t)
	for g := range s.functionGrants(t, "tokens") {
		if strings.HasPrefix(g, "sqs:") || strings.HasPrefix(g, "ses:") ||
			(strings.HasPrefix(g, "secretsmanager:") && !strings.HasSuffix(g, " on "+lOriginVerify)) { // the origin secret: every API function
			t.Errorf("tokens may %s", g)
		}
	}
}

func TestOnlyTheSPClientsReadSPSecrets(t *testing.T) {
	s := customScenario.synth(t)
	var readers []string
	for _, name := range expectedFunctionNames {
		for g := range s.functionGrants(t, name) {
			if strings.HasSuffix(g, " on "+lSPSecrets) || strings.Contains(g, "sp-secret:") {
				readers = append(readers, name)
				break
			}
		}
	}
	sort.Strings(readers)
	if strings.Join(readers, ",") != "provisioner,reconcile,system,web" {
		t.Errorf("functions reading SP secrets: %v, want only provisioner, reconcile, system and web (test connection)", readers)
	}
}

// TestProvisionerTableWritesAreLimitedToItsPartitions checks the policy
// document itself, so that the condition operator and key are exactly the
// ones IAM evaluates.
func TestProvisionerTableWritesAreLimitedToItsPartitions(t *testing.T) {
	s := defaultScenario.synth(t)
	roleID := getAttID(s.function(t, "provisioner")["Role"])
	expect(t, func() {
		s.template.HasResourceProperties(jsii.String("AWS::IAM::Policy"), map[string]any{
			"Roles": []any{map[string]any{"Ref": roleID}},
			"PolicyDocument": map[string]any{
				"Statement": assertions.Match_ArrayWith(&[]any{assertions.Match_ObjectLike(&map[string]any{
					"Effect":   "Allow",
					"Action":   []any{"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"},
					"Resource": map[string]any{"Fn::GetAtt": []any{s.onlyID(t, "AWS::DynamoDB::Table"), "Arn"}},
					"Condition": map[string]any{
						"ForAllValues:StringLike": map[string]any{
							"dynamodb:LeadingKeys": []any{"SPLINK#*", "DELIVERY#*", "AUDIT#*", "SEQ#audit*", "SPGUARD#*"},
						},
					},
				})}),
			},
		})
	})
	// And no statement of the provisioner writes without that condition.
	for _, st := range s.roleStatements(t, roleID) {
		if hasAction(st, "dynamodb:PutItem") && st["Condition"] == nil {
			t.Errorf("provisioner writes to the table without a LeadingKeys condition: %v", st)
		}
	}
}

func TestNoWildcardsAndNoManagedPolicies(t *testing.T) {
	s := defaultScenario.synth(t)
	for id, p := range s.resources("AWS::IAM::Policy") {
		for _, st := range properties(p)["PolicyDocument"].(map[string]any)["Statement"].([]any) {
			stmt := st.(map[string]any)
			for _, a := range asList(stmt["Action"]) {
				if strings.Contains(fmt.Sprint(a), "*") {
					t.Errorf("%s allows wildcard action %v", id, a)
				}
			}
			for _, r := range asList(stmt["Resource"]) {
				if r == "*" {
					t.Errorf("%s allows %v on every resource", id, stmt["Action"])
				}
			}
		}
	}
	for id, r := range s.resources("AWS::IAM::Role") {
		if cdkCrossRegionReader(id) {
			continue // CDK's own providers (basic execution role): read and write the /cdk/exports/ parameters
		}
		if mp := properties(r)["ManagedPolicyArns"]; mp != nil {
			t.Errorf("role %s has managed policies %v; every grant must be an explicit statement", id, mp)
		}
	}
}

// cdkCrossRegionReader says whether a logical id belongs to the custom
// resources CDK adds to carry references across regions: the reader of the
// edge stack's WebACL ARN, the writer of the distribution's id for the
// us-east-1 alarm stack.
func cdkCrossRegionReader(logicalID string) bool {
	return strings.HasPrefix(logicalID, "CustomCrossRegionExportReader") || strings.HasPrefix(logicalID, "CustomCrossRegionExportWriter")
}

// --- policy analysis ---

// functionGrants collects what a function's role allows, as labels.
func (s *scenario) functionGrants(t *testing.T, name string) grantSet {
	t.Helper()
	fn := s.function(t, name)
	roleID := getAttID(fn["Role"])
	ownLogs := refID(fn["LoggingConfig"].(map[string]any)["LogGroup"])
	got := grantSet{}
	for _, st := range s.roleStatements(t, roleID) {
		if st["Effect"] != "Allow" {
			continue
		}
		label := func(resource any) string {
			l := s.classifyResource(resource, ownLogs)
			if cond, ok := st["Condition"].(map[string]any); ok {
				l = describeCondition(l, cond)
			}
			return l
		}
		for _, a := range asList(st["Action"]) {
			for _, r := range asList(st["Resource"]) {
				got[fmt.Sprint(a)+" on "+label(r)] = true
			}
		}
	}
	return got
}

// roleStatements returns the statements of every policy attached to roleID.
func (s *scenario) roleStatements(t *testing.T, roleID string) []map[string]any {
	t.Helper()
	if roleID == "" {
		t.Fatal("function has no role of its own")
	}
	var out []map[string]any
	for _, p := range s.resources("AWS::IAM::Policy") {
		attached := false
		for _, r := range asList(properties(p)["Roles"]) {
			attached = attached || refID(r) == roleID
		}
		if !attached {
			continue
		}
		for _, st := range properties(p)["PolicyDocument"].(map[string]any)["Statement"].([]any) {
			out = append(out, st.(map[string]any))
		}
	}
	return out
}

// classifyResource names the resource a statement refers to.
func (s *scenario) classifyResource(resource any, ownLogGroup string) string {
	all := s.raw["Resources"].(map[string]any)
	if id := getAttID(resource); id != "" {
		res := all[id].(map[string]any)
		switch res["Type"] {
		case "AWS::DynamoDB::Table":
			return lTable
		case "AWS::Lambda::Function":
			return "function " + fmt.Sprint(properties(res)["Description"])
		case "AWS::SQS::Queue":
			switch properties(res)["QueueName"] {
			case scimQueueName:
				return lQueue
			case scimDeadLetterQueueName:
				return lDLQ
			}
		case "AWS::Logs::LogGroup":
			if id == ownLogGroup {
				return lOwnLogs
			}
			return "log group " + id
		}
		return "unknown " + id
	}
	if id := refID(resource); id != "" {
		res := all[id].(map[string]any)
		if res["Type"] == "AWS::SecretsManager::Secret" {
			if name := properties(res)["Name"]; name == machineCallersSecretName {
				return lMachineCallers
			} else if name == oidcClientSecretName {
				return lOIDCClient
			} else if name == originVerifySecretName {
				return lOriginVerify
			} else if name == oidcIntrospectionSecretName {
				return lIntrospection
			} else {
				return fmt.Sprintf("secret:%v", name)
			}
		}
		return "unknown " + id
	}
	if join, ok := resource.(map[string]any)["Fn::Join"].([]any); ok {
		var literal strings.Builder
		var refs []string
		for _, part := range join[1].([]any) {
			switch p := part.(type) {
			case string:
				literal.WriteString(p)
			default:
				if id := getAttID(p); id != "" {
					refs = append(refs, id)
				} else if id := refID(p); id != "" && !strings.HasPrefix(id, "AWS::") {
					refs = append(refs, id)
				}
			}
		}
		typeOf := func(i int) any {
			if i < len(refs) {
				return all[refs[i]].(map[string]any)["Type"]
			}
			return nil
		}
		text := literal.String()
		switch {
		case len(refs) == 1 && typeOf(0) == "AWS::DynamoDB::Table" && strings.HasSuffix(text, "/index/*"):
			return lIndexes
		case len(refs) == 1 && typeOf(0) == "AWS::SES::EmailIdentity" && strings.Contains(text, ":ses:") && strings.HasSuffix(text, ":identity/"):
			return lSESIdentity
		case len(refs) == 1 && typeOf(0) == "AWS::SES::ConfigurationSet" && strings.HasSuffix(text, ":configuration-set/"):
			return lSESConfigSet
		case len(refs) == 0 && strings.Contains(text, ":secretsmanager:") && strings.HasSuffix(text, ":secret:invite/sp/*"):
			return lSPSecrets
		case len(refs) == 0 && strings.Contains(text, ":secretsmanager:") && strings.HasSuffix(text, ":secret:invite/scim-connections/*"):
			return lConnSecrets
		}
	}
	b, _ := json.Marshal(resource)
	return "unknown " + string(b)
}

func describeCondition(label string, cond map[string]any) string {
	if len(cond) == 1 {
		if like, ok := cond["ForAllValues:StringLike"].(map[string]any); ok && len(like) == 1 {
			var patterns []string
			for _, v := range asList(like["dynamodb:LeadingKeys"]) {
				patterns = append(patterns, fmt.Sprint(v))
			}
			if len(patterns) > 0 {
				return conditionLabel(label, patterns)
			}
		}
	}
	b, _ := json.Marshal(cond)
	return label + " if " + string(b)
}

func hasAction(statement map[string]any, action string) bool {
	for _, a := range asList(statement["Action"]) {
		if a == action {
			return true
		}
	}
	return false
}

// asList treats a single IAM value and a list of them alike.
func asList(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	default:
		return []any{x}
	}
}

// TestSecretsManagerGrantsOnlyOnTheirPrefixes: every secretsmanager action
// any function may take names the machine-callers secret, the pages' OIDC
// client secret, the invite/sp/* prefix (read only) or the connection prefix; writing a secret
// (Create/Put/Delete) is allowed on the connection prefix only, and only to
// the functions serving the registry: the API (system) and the console (web).
func TestSecretsManagerGrantsOnlyOnTheirPrefixes(t *testing.T) {
	bothScenarios(t, func(t *testing.T, s *scenario) {
		for _, name := range expectedFunctionNames {
			for g := range s.functionGrants(t, name) {
				if !strings.HasPrefix(g, "secretsmanager:") {
					continue
				}
				action, resource, _ := strings.Cut(g, " on ")
				switch {
				case resource == lConnSecrets:
				case action == "secretsmanager:GetSecretValue" && (resource == lSPSecrets || resource == lMachineCallers || resource == lOIDCClient || resource == lOriginVerify || resource == lIntrospection || strings.Contains(resource, "sp-secret:")):
				default:
					t.Errorf("%s may %s", name, g)
				}
				if action != "secretsmanager:GetSecretValue" && name != "system" && name != "web" {
					t.Errorf("%s may write secrets: %s", name, g)
				}
			}
		}
	})
}
