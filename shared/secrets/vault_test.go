package secrets_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/secrets"
)

// TestVaultRotationReachesTheResolver writes a credential, reads it through
// the resolver, rewrites it and reads the new value at once, although the
// resolver caches for an hour: the reference carries the version.
func TestVaultRotationReachesTheResolver(t *testing.T) {
	sm, err := substitutes.StartSecretsManager("", "")
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	client := secretsmanager.New(secretsmanager.Options{BaseEndpoint: aws.String(sm.URL), Region: "eu-west-1",
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
	vault := &secrets.Vault{SM: client, Prefix: "test/conn/"}
	resolver := secrets.NewResolver(client, time.Hour)
	ctx := context.Background()

	ref1, err := vault.Store(ctx, "sp-a", "token", "first-token")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ref1, "first-token") || !strings.HasPrefix(ref1, "secretsmanager:test/conn/sp-a?versionId=") || !strings.HasSuffix(ref1, "#token") {
		t.Fatalf("reference %q", ref1)
	}
	if !vault.Managed(ref1, "sp-a") || vault.Managed("secretsmanager:elsewhere/sp-a#token", "sp-a") {
		t.Fatal("Managed must tell the connection's own secret from others")
	}
	if v, err := resolver.Resolve(ctx, ref1); err != nil || v != "first-token" {
		t.Fatalf("resolve = %q, %v", v, err)
	}
	ref2, err := vault.Store(ctx, "sp-a", "token", "second-token")
	if err != nil || ref2 == ref1 {
		t.Fatalf("rotation: %q, %v", ref2, err)
	}
	if v, err := resolver.Resolve(ctx, ref2); err != nil || v != "second-token" {
		t.Fatalf("after rotation resolve = %q, %v", v, err)
	}
	if len(sm.Names()) != 1 {
		t.Fatalf("secrets = %v, want one per connection", sm.Names())
	}
	if err := vault.Delete(ctx, "sp-a"); err != nil || len(sm.Names()) != 0 {
		t.Fatalf("delete: %v, left %v", err, sm.Names())
	}
	if err := vault.Delete(ctx, "sp-a"); err != nil {
		t.Fatalf("deleting an absent secret: %v", err)
	}
}
