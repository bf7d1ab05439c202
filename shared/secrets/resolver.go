// Package secrets resolves the secret references of the configuration
// document: "secretsmanager:<name-or-arn>[#json-key]" from AWS Secrets
// Manager and "env:<VAR>" from the environment. Values are cached for a while
// so that a provisioner does not call Secrets Manager per SCIM request, and
// are never logged.
package secrets

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

// SecretsManagerAPI is the part of the Secrets Manager client the resolver uses.
type SecretsManagerAPI interface {
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, opts ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
}

// maxCachedSecrets bounds the cache: one entry per connection and version.
const maxCachedSecrets = 4096

// Resolver turns references into values.
type Resolver struct {
	sm  SecretsManagerAPI
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	cache map[string]cached
}

type cached struct {
	value   string
	fetched time.Time
}

// NewResolver returns a resolver; sm may be nil when only env references are used.
func NewResolver(sm SecretsManagerAPI, ttl time.Duration) *Resolver {
	if ttl <= 0 {
		ttl = 5 * time.Minute
	}
	return &Resolver{sm: sm, ttl: ttl, now: time.Now, cache: map[string]cached{}}
}

// Resolve returns the secret value a reference points at.
func (r *Resolver) Resolve(ctx context.Context, ref string) (string, error) {
	switch {
	case strings.HasPrefix(ref, "env:"):
		name := strings.TrimPrefix(ref, "env:")
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			return "", fmt.Errorf("secret reference env:%s: variable not set", name)
		}
		return v, nil
	case strings.HasPrefix(ref, "secretsmanager:"):
		return r.fromSecretsManager(ctx, strings.TrimPrefix(ref, "secretsmanager:"))
	default:
		return "", fmt.Errorf("not a secret reference (want secretsmanager:... or env:...)")
	}
}

func (r *Resolver) fromSecretsManager(ctx context.Context, ref string) (string, error) {
	id, key, hasKey := strings.Cut(ref, "#")
	id, version := splitVersion(id)
	raw, err := r.secretString(ctx, id, version)
	if err != nil {
		return "", err
	}
	if !hasKey {
		return raw, nil
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(raw), &fields); err != nil {
		return "", fmt.Errorf("secret %s is not a JSON object, cannot take key %q", id, key)
	}
	v, ok := fields[key].(string)
	if !ok || v == "" {
		return "", fmt.Errorf("secret %s has no string key %q", id, key)
	}
	return v, nil
}

// splitVersion takes the version of a reference's id: "?versionId=<id>"
// (a fixed version) or "?versionStage=<label>" (AWSPREVIOUS: the value a
// rotation replaced). The version as returned is the cache key's part.
func splitVersion(id string) (string, string) {
	if base, v, ok := strings.Cut(id, "?versionId="); ok {
		return base, v
	}
	if base, stage, ok := strings.Cut(id, "?versionStage="); ok {
		return base, "stage:" + stage
	}
	return id, ""
}

// secretString reads a secret's value, a given version of it when version
// is set. A versioned reference changes when the secret is rewritten, so
// the cache (keyed by id and version) never serves a replaced credential.
func (r *Resolver) secretString(ctx context.Context, id, version string) (string, error) {
	cacheKey := id + "?" + version
	r.mu.Lock()
	c, ok := r.cache[cacheKey]
	r.mu.Unlock()
	if ok && r.now().Sub(c.fetched) < r.ttl {
		return c.value, nil
	}
	if r.sm == nil {
		return "", fmt.Errorf("secret %s: no Secrets Manager client configured", id)
	}
	in := &secretsmanager.GetSecretValueInput{SecretId: &id}
	if stage, ok := strings.CutPrefix(version, "stage:"); ok {
		in.VersionStage = &stage
	} else if version != "" {
		in.VersionId = &version
	}
	out, err := r.sm.GetSecretValue(ctx, in)
	if err != nil {
		return "", fmt.Errorf("read secret %s: %w", id, err)
	}
	if out.SecretString == nil {
		return "", fmt.Errorf("secret %s has no string value", id)
	}
	r.mu.Lock()
	if len(r.cache) >= maxCachedSecrets {
		r.cache = map[string]cached{}
	}
	r.cache[cacheKey] = cached{value: *out.SecretString, fetched: r.now()}
	r.mu.Unlock()
	return *out.SecretString, nil
}
