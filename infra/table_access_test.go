package main

import (
	"sort"
	"strings"
	"testing"
)

// TestEveryTableStatementIsByLeadingKey: no role may read or write the
// table or its indexes without a dynamodb:LeadingKeys condition, and no
// condition lets every key through; only the jobs function may Scan.
func TestEveryTableStatementIsByLeadingKey(t *testing.T) {
	s := defaultScenario.synth(t)
	for _, name := range expectedFunctionNames {
		roleID := getAttID(s.function(t, name)["Role"])
		for _, st := range s.roleStatements(t, roleID) {
			dynamo := false
			for _, a := range asList(st["Action"]) {
				dynamo = dynamo || strings.HasPrefix(a.(string), "dynamodb:")
			}
			if !dynamo {
				continue
			}
			if acts := asList(st["Action"]); len(acts) == 1 && acts[0] == "dynamodb:Scan" {
				// Scan has no leading key: only the maintenance job whose
				// date check reads every item may scan.
				if name != "jobs" {
					t.Errorf("%s may scan the table: %v", name, st)
				}
				continue
			}
			cond, _ := st["Condition"].(map[string]any)
			like, _ := cond["ForAllValues:StringLike"].(map[string]any)
			keys := asList(like["dynamodb:LeadingKeys"])
			if len(cond) != 1 || len(like) != 1 || len(keys) == 0 {
				t.Errorf("%s: table statement without a LeadingKeys condition: %v", name, st)
			}
			for _, k := range keys {
				if k == "*" || k == "" {
					t.Errorf("%s: LeadingKeys pattern %q lets every item through", name, k)
				}
			}
		}
	}
}

// TestSensitiveItemKinds: who may touch the browser sessions, the API
// tokens' hashes, the pending token values, the job runs and the
// registry. Each row is the whole list: a function added to one fails here.
func TestSensitiveItemKinds(t *testing.T) {
	s := defaultScenario.synth(t)
	tests := []struct {
		pattern, access string
		want            []string
	}{
		{"SESSION#*", "read", []string{"web"}},
		{"SESSION#*", "write", []string{"web"}},
		{"PERSONSESSIONS#*", "query", []string{"web"}},
		// A person's invitations by their address: the console's person page.
		{"INVPERSON#*", "query", []string{"web"}},
		// Every API function but the pages authenticates API tokens by
		// their hash; the pages and the token routes manage them, the
		// cleanup and its on-demand run (the jobs function) delete expired
		// ones.
		{"TOKEN#*", "read", []string{"cleanup", "crm", "invitations", "jobs", "roles", "system", "tokens", "users", "web"}},
		{"TOKEN#*", "write", []string{"cleanup", "jobs", "system", "tokens", "web"}},
		{"TOKENID#*", "write", []string{"cleanup", "jobs", "system", "tokens", "web"}},
		// Pending token values: the token routes' two steps, and the
		// console's token page that takes both in one request.
		{"TOKENPENDING#*", "read", []string{"tokens", "web"}},
		{"TOKENPENDING#*", "write", []string{"tokens", "web"}},
		{"TOKENS", "query", []string{"system", "tokens", "web"}},
		{"REGISTRY", "write", []string{"system", "web"}},
		{"REGISTRYAUDIT", "read", []string{"system", "web"}},
		{"INV#*", "write", []string{"cleanup", "crm", "invitations", "jobs", "system", "web"}},
		{"SPLINK#*", "write", []string{"provisioner", "reconcile"}},
		{"CRMORG#*", "write", []string{"crm", "invitations", "web"}},
	}
	for _, tc := range tests {
		t.Run(tc.access+" "+tc.pattern, func(t *testing.T) {
			var got []string
			for _, name := range expectedFunctionNames {
				if s.allowsLeadingKey(t, name, tc.access, tc.pattern) {
					got = append(got, name)
				}
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("functions that may %s %s: %v, want %v", tc.access, tc.pattern, got, tc.want)
			}
		})
	}
}

// allowsLeadingKey says whether a function's role has a statement of the
// access (read: GetItem on the table; write: PutItem; query: Query on the
// indexes) whose LeadingKeys patterns include pattern.
func (s *scenario) allowsLeadingKey(t *testing.T, name, access, pattern string) bool {
	t.Helper()
	action, resource := "dynamodb:GetItem", lTable
	switch access {
	case "write":
		action = "dynamodb:PutItem"
	case "query":
		action, resource = "dynamodb:Query", lIndexes
	}
	for g := range s.functionGrants(t, name) {
		rest, ok := strings.CutPrefix(g, action+" on "+resource+" if LeadingKeys in ")
		if !ok {
			continue
		}
		for _, p := range strings.Split(rest, ",") {
			if p == pattern {
				return true
			}
		}
	}
	return false
}
