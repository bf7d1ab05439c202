package secrets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestScopePermits(t *testing.T) {
	closed := Scope{}
	open := Scope{Prefixes: []string{"env:SCIM_SP_", "secretsmanager:scim-external/", "secretsmanager:invite/"}}
	own := "secretsmanager:" + DefaultConnectionPrefix + "sp-a"
	tests := []struct {
		name  string
		scope Scope
		ref   string
		want  bool
	}{
		{"own vault entry", closed, own + "#token", true},
		{"own vault entry, versioned", closed, own + "?versionId=abc#password", true},
		{"another connection's vault entry", closed, "secretsmanager:" + DefaultConnectionPrefix + "sp-b#token", false},
		{"another connection's vault entry under a wide operator prefix", open, "secretsmanager:" + DefaultConnectionPrefix + "sp-b#token", false},
		{"another connection's vault entry by ARN", open, "secretsmanager:arn:aws:secretsmanager:eu-west-1:1:secret:" + DefaultConnectionPrefix + "sp-b-AbCd", false},
		{"the bootstrap token", closed, "env:BOOTSTRAP_API_TOKEN", false},
		{"the bootstrap token, prefixes set", open, "env:BOOTSTRAP_API_TOKEN", false},
		{"the function's AWS credentials", open, "env:AWS_SECRET_ACCESS_KEY", false},
		{"any secret", closed, "secretsmanager:prod/database#password", false},
		{"operator env prefix", open, "env:SCIM_SP_LMS", true},
		{"operator secret prefix", open, "secretsmanager:scim-external/lms#password", true},
		{"prefix in the key only", open, "secretsmanager:prod/database#scim-external/", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.scope.Permits("sp-a", tc.ref); got != tc.want {
				t.Fatalf("Permits(sp-a, %q) = %v, want %v", tc.ref, got, tc.want)
			}
		})
	}
}

func TestConnectionSecretsNameNoSecret(t *testing.T) {
	t.Setenv("BOOTSTRAP_API_TOKEN", "the-bootstrap-token")
	t.Setenv("SCIM_SP_LMS", "lms-token")
	sm := &fakeSM{values: map[string]string{}}
	cs := ConnectionSecrets{Resolver: NewResolver(sm, time.Minute), Scope: Scope{Prefixes: []string{"env:SCIM_SP_", "secretsmanager:scim-external/"}}}
	ctx := context.Background()
	if v, err := cs.Resolve(ctx, "lms", "env:SCIM_SP_LMS"); err != nil || v != "lms-token" {
		t.Fatalf("allowed reference: %q, %v", v, err)
	}
	v, err := cs.Resolve(ctx, "lms", "env:BOOTSTRAP_API_TOKEN")
	if v != "" || !errors.Is(err, ErrReferenceNotAllowed) {
		t.Fatalf("env:BOOTSTRAP_API_TOKEN resolved: %q, %v", v, err)
	}
	_, err = cs.Resolve(ctx, "lms", "secretsmanager:scim-external/absent-name#password")
	var ce *CredentialError
	if !errors.As(err, &ce) || strings.Contains(err.Error(), "absent-name") || strings.Contains(err.Error(), "ResourceNotFound") {
		t.Fatalf("unreadable secret: %v; want a CredentialError naming no secret", err)
	}
	if sm.calls != 1 {
		t.Fatalf("Secrets Manager called %d times, want 1 (the refused reference is never read)", sm.calls)
	}
}

func TestParseReferencePrefixes(t *testing.T) {
	got, err := ParseReferencePrefixes(" env:SCIM_SP_, secretsmanager:scim-external/ ")
	if err != nil || strings.Join(got, "|") != "env:SCIM_SP_|secretsmanager:scim-external/" {
		t.Fatalf("%q, %v", got, err)
	}
	for _, bad := range []string{"env:", "secretsmanager:", "SCIM_SP_", "file:/etc/", "secretsmanager:x#key"} {
		if _, err := ParseReferencePrefixes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
