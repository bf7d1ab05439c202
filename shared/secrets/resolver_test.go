package secrets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

type fakeSM struct {
	values map[string]string
	calls  int
}

func (f *fakeSM) GetSecretValue(_ context.Context, in *secretsmanager.GetSecretValueInput, _ ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	f.calls++
	v, ok := f.values[*in.SecretId]
	if !ok {
		return nil, errors.New("ResourceNotFoundException")
	}
	return &secretsmanager.GetSecretValueOutput{SecretString: &v}, nil
}

func TestResolve(t *testing.T) {
	t.Setenv("SP_TOKEN", "from-env")
	sm := &fakeSM{values: map[string]string{
		"invite/sp/plain": "plain-value",
		"invite/sp/json":  `{"username": "u", "password": "p4ss"}`,
	}}
	r := NewResolver(sm, time.Minute)
	tests := []struct {
		ref, want, wantErr string
	}{
		{ref: "env:SP_TOKEN", want: "from-env"},
		{ref: "env:NOT_SET_ANYWHERE", wantErr: "variable not set"},
		{ref: "secretsmanager:invite/sp/plain", want: "plain-value"},
		{ref: "secretsmanager:invite/sp/json#password", want: "p4ss"},
		{ref: "secretsmanager:invite/sp/json#missing", wantErr: `no string key "missing"`},
		{ref: "secretsmanager:invite/sp/plain#key", wantErr: "not a JSON object"},
		{ref: "secretsmanager:invite/sp/absent", wantErr: "read secret"},
		{ref: "literal", wantErr: "not a secret reference"},
	}
	for _, tc := range tests {
		t.Run(tc.ref, func(t *testing.T) {
			got, err := r.Resolve(context.Background(), tc.ref)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestResolveCachesUntilTTL(t *testing.T) {
	sm := &fakeSM{values: map[string]string{"s": "v1"}}
	r := NewResolver(sm, time.Minute)
	now := time.Unix(0, 0)
	r.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if _, err := r.Resolve(context.Background(), "secretsmanager:s"); err != nil {
			t.Fatal(err)
		}
	}
	if sm.calls != 1 {
		t.Fatalf("Secrets Manager called %d times within the TTL, want 1", sm.calls)
	}
	sm.values["s"] = "v2"
	now = now.Add(2 * time.Minute)
	got, _ := r.Resolve(context.Background(), "secretsmanager:s")
	if got != "v2" || sm.calls != 2 {
		t.Fatalf("after TTL got %q with %d calls, want v2 with 2 (rotation picked up)", got, sm.calls)
	}
}

// stagedSM answers by version stage, as Secrets Manager does after a
// rotation: AWSCURRENT the new value, AWSPREVIOUS the one it replaced.
type stagedSM struct{ stages map[string]string }

func (f *stagedSM) GetSecretValue(_ context.Context, in *secretsmanager.GetSecretValueInput, _ ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error) {
	stage := "AWSCURRENT"
	if in.VersionStage != nil {
		stage = *in.VersionStage
	}
	v, ok := f.stages[stage]
	if !ok || in.VersionId != nil {
		return nil, errors.New("ResourceNotFoundException")
	}
	return &secretsmanager.GetSecretValueOutput{SecretString: &v}, nil
}

func TestResolveVersionStage(t *testing.T) {
	sm := &stagedSM{stages: map[string]string{"AWSCURRENT": "new", "AWSPREVIOUS": "old"}}
	r := NewResolver(sm, time.Minute)
	for ref, want := range map[string]string{
		"secretsmanager:invite/origin-verify":                          "new",
		"secretsmanager:invite/origin-verify?versionStage=AWSPREVIOUS": "old",
	} {
		if got, err := r.Resolve(context.Background(), ref); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", ref, got, err, want)
		}
	}
	delete(sm.stages, "AWSPREVIOUS")
	if got, err := r.ResolveFresh(context.Background(), "secretsmanager:invite/origin-verify?versionStage=AWSPREVIOUS"); err == nil {
		t.Errorf("a retired previous version read fresh: %q, want an error", got)
	}
}
