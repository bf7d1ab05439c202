package substitutes_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	smtypes "github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/edu-invite/invite/localstack/substitutes"
)

func secretsClient(url string) *secretsmanager.Client {
	return secretsmanager.New(secretsmanager.Options{BaseEndpoint: aws.String(url), Region: "eu-west-1",
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
}

// TestSecretsManagerThroughTheSDK drives the emulator with the real SDK
// client: create, rotate, read the current and an older version, delete,
// and the data file survives a restart.
func TestSecretsManagerThroughTheSDK(t *testing.T) {
	dir := t.TempDir()
	sm, err := substitutes.StartSecretsManager("", dir)
	if err != nil {
		t.Fatal(err)
	}
	c := secretsClient(sm.URL)
	ctx := context.Background()
	created, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("invite/scim/sp-a"), SecretString: aws.String(`{"token":"one"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String("invite/scim/sp-a"), SecretString: aws.String("x")}); !errors.As(err, new(*smtypes.ResourceExistsException)) {
		t.Fatalf("second create: %v, want ResourceExistsException", err)
	}
	put, err := c.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String("invite/scim/sp-a"), SecretString: aws.String(`{"token":"two"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(put.VersionId) == aws.ToString(created.VersionId) {
		t.Fatal("a new value must get a new version id")
	}
	cur, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("invite/scim/sp-a")})
	if err != nil || aws.ToString(cur.SecretString) != `{"token":"two"}` {
		t.Fatalf("current = %v, %v", aws.ToString(cur.SecretString), err)
	}
	old, err := c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: created.ARN, VersionId: created.VersionId})
	if err != nil || aws.ToString(old.SecretString) != `{"token":"one"}` {
		t.Fatalf("by ARN and version = %v, %v", aws.ToString(old.SecretString), err)
	}
	info, err := os.Stat(filepath.Join(dir, "secretsmanager.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("data file: %v %v", info, err)
	}
	_ = sm.Close()

	again, err := substitutes.StartSecretsManager("", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	c = secretsClient(again.URL)
	cur, err = c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("invite/scim/sp-a")})
	if err != nil || aws.ToString(cur.SecretString) != `{"token":"two"}` {
		t.Fatalf("after restart = %v, %v", aws.ToString(cur.SecretString), err)
	}
	if _, err := c.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String("invite/scim/sp-a"), ForceDeleteWithoutRecovery: aws.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String("invite/scim/sp-a")})
	var nf *smtypes.ResourceNotFoundException
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "can't find") {
		t.Fatalf("after delete: %v, want ResourceNotFoundException", err)
	}
}
