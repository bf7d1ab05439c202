package secrets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	smtypes "github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"
)

// SecretsManagerWriter is the part of the Secrets Manager client the vault uses.
type SecretsManagerWriter interface {
	CreateSecret(ctx context.Context, in *secretsmanager.CreateSecretInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.CreateSecretOutput, error)
	PutSecretValue(ctx context.Context, in *secretsmanager.PutSecretValueInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.PutSecretValueOutput, error)
	DeleteSecret(ctx context.Context, in *secretsmanager.DeleteSecretInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.DeleteSecretOutput, error)
}

// DefaultConnectionPrefix is the name prefix of the connections' secrets;
// the CDK stack grants the functions access to secrets under it and to no
// other (CONNECTION_SECRET_PREFIX overrides it, for a second deployment in
// one account).
const DefaultConnectionPrefix = "invite/scim-connections/"

// Vault writes the credentials entered through the API: one secret per
// SCIM connection, named Prefix+connection id, holding a JSON object of the
// connection's secret field. It returns references, never values, and
// never logs a value.
type Vault struct {
	SM     SecretsManagerWriter
	Prefix string
}

// Name is the secret name of a connection.
func (v *Vault) Name(connectionID string) string {
	p := v.Prefix
	if p == "" {
		p = DefaultConnectionPrefix
	}
	return p + connectionID
}

// Managed reports whether ref points at a secret this vault writes (the
// connection's own), as opposed to one managed elsewhere.
func (v *Vault) Managed(ref, connectionID string) bool {
	id, _, _ := strings.Cut(strings.TrimPrefix(ref, "secretsmanager:"), "#")
	id, _, _ = strings.Cut(id, "?")
	return v != nil && strings.HasPrefix(ref, "secretsmanager:") && id == v.Name(connectionID)
}

// InVault reports whether ref points at a secret under the prefix, any
// connection's.
func (v *Vault) InVault(ref string) bool {
	id, ok := strings.CutPrefix(ref, "secretsmanager:")
	p := v.Prefix
	if p == "" {
		p = DefaultConnectionPrefix
	}
	return ok && (strings.HasPrefix(id, p) || strings.Contains(id, ":secret:"+p))
}

// Store writes value as the connection's credential under field and
// returns the versioned reference to it
// ("secretsmanager:<name>?versionId=<id>#<field>"), creating the secret on
// first use.
func (v *Vault) Store(ctx context.Context, connectionID, field, value string) (string, error) {
	if v == nil || v.SM == nil {
		return "", errors.New("no Secrets Manager client configured for connection credentials")
	}
	body, err := json.Marshal(map[string]string{field: value})
	if err != nil {
		return "", err
	}
	name := v.Name(connectionID)
	put, err := v.SM.PutSecretValue(ctx, &secretsmanager.PutSecretValueInput{SecretId: aws.String(name), SecretString: aws.String(string(body))})
	var version string
	var nf *smtypes.ResourceNotFoundException
	switch {
	case err == nil:
		version = aws.ToString(put.VersionId)
	case errors.As(err, &nf):
		created, cerr := v.SM.CreateSecret(ctx, &secretsmanager.CreateSecretInput{Name: aws.String(name), SecretString: aws.String(string(body)),
			Description: aws.String("SCIM credential of the invite connection " + connectionID)})
		if cerr != nil {
			return "", fmt.Errorf("create secret %s: %w", name, cerr)
		}
		version = aws.ToString(created.VersionId)
	default:
		return "", fmt.Errorf("write secret %s: %w", name, err)
	}
	ref := "secretsmanager:" + name
	if version != "" {
		ref += "?versionId=" + version
	}
	return ref + "#" + field, nil
}

// Delete removes a connection's secret; an absent one is not an error.
func (v *Vault) Delete(ctx context.Context, connectionID string) error {
	if v == nil || v.SM == nil {
		return nil
	}
	_, err := v.SM.DeleteSecret(ctx, &secretsmanager.DeleteSecretInput{SecretId: aws.String(v.Name(connectionID)),
		ForceDeleteWithoutRecovery: aws.Bool(true)})
	var nf *smtypes.ResourceNotFoundException
	if err != nil && !errors.As(err, &nf) {
		return fmt.Errorf("delete secret %s: %w", v.Name(connectionID), err)
	}
	return nil
}
