package testkit

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// VaultPrefix starts every reference a MemoryVault hands out.
const VaultPrefix = "secretsmanager:test-vault/"

// MemoryVault is a credential vault in memory for the registry's tests (the
// Secrets Manager path itself is tested against the emulator in
// shared/secrets and the stack). Each stored value gets a reference of its
// own, as a new secret version does.
type MemoryVault struct {
	mu     sync.Mutex
	values map[string]string // reference -> value
	n      int
}

// NewMemoryVault returns an empty vault.
func NewMemoryVault() *MemoryVault { return &MemoryVault{values: map[string]string{}} }

// ErrNoSecret is what Resolve answers for a reference it does not hold.
var ErrNoSecret = errors.New("secret not found")

func (v *MemoryVault) Store(_ context.Context, id, field, value string) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.n++
	ref := VaultPrefix + id + "?versionId=v" + strings.Repeat("1", v.n) + "#" + field
	v.values[ref] = value
	return ref, nil
}

func (v *MemoryVault) Delete(_ context.Context, id string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	for ref := range v.values {
		if v.Managed(ref, id) {
			delete(v.values, ref)
		}
	}
	return nil
}

func (v *MemoryVault) Managed(ref, id string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(ref, VaultPrefix), "?")
	return strings.HasPrefix(ref, VaultPrefix) && name == id
}

func (v *MemoryVault) InVault(ref string) bool { return strings.HasPrefix(ref, VaultPrefix) }

func (v *MemoryVault) Resolve(_ context.Context, ref string) (string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if val, ok := v.values[ref]; ok {
		return val, nil
	}
	return "", ErrNoSecret
}

// Secrets returns every value stored, for tests that look for leaks.
func (v *MemoryVault) Secrets() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for _, val := range v.values {
		out = append(out, val)
	}
	return out
}

// ReferencesAndSecrets returns every reference and value stored, for leak
// checks that must find neither.
func (v *MemoryVault) ReferencesAndSecrets() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for ref, val := range v.values {
		out = append(out, ref, val)
	}
	return out
}
