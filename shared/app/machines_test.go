package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/secrets"
)

func TestMachineCallersRef(t *testing.T) {
	t.Setenv("MACHINE_CALLERS", "")
	t.Setenv("MACHINE_CALLERS_SECRET_ARN", "arn:aws:secretsmanager:eu-west-1:1:secret:invite/machine-callers-AbC")
	if got := machineCallersRef(); got != "secretsmanager:arn:aws:secretsmanager:eu-west-1:1:secret:invite/machine-callers-AbC" {
		t.Errorf("ref = %q", got)
	}
	t.Setenv("MACHINE_CALLERS", "env:LOCAL_MACHINES")
	if got := machineCallersRef(); got != "env:LOCAL_MACHINES" {
		t.Errorf("ref = %q", got)
	}
}

func TestLoadMachineCallers(t *testing.T) {
	const key = "crm-key-0123456789abcdef"
	t.Setenv("TEST_MACHINES", `{"crm":[{"name":"SURF CRM","apiKey":"`+key+`"}]}`)
	t.Setenv("TEST_PLACEHOLDER", "GeneratedPlaceholderValue0123456789")
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, nil))
	r := secrets.NewResolver(nil, 0)

	a := &auth.Authenticator{MachineSource: newMachineCallerSource(logger, r, "env:TEST_MACHINES")}
	if p, err := a.Authenticate(crmRequest(key)); err != nil || p.Kind != auth.KindCRM {
		t.Fatalf("loaded key not accepted: %+v %v", p, err)
	}

	if m := newMachineCallerSource(logger, r, "env:TEST_PLACEHOLDER").MachineCallers(context.Background()); m != nil {
		t.Error("the generated placeholder was accepted as configuration")
	}
	if m := newMachineCallerSource(logger, r, "env:TEST_UNSET").MachineCallers(context.Background()); m != nil {
		t.Error("an unset reference gave callers")
	}
	if !strings.Contains(logs.String(), "machine callers not loaded") {
		t.Errorf("failure not logged: %s", logs.String())
	}
	for _, secret := range []string{key, "GeneratedPlaceholderValue0123456789"} {
		if strings.Contains(logs.String(), secret) {
			t.Fatalf("log reveals a secret: %s", logs.String())
		}
	}
}

func crmRequest(key string) *http.Request {
	req := httptest.NewRequest("POST", "/crm/profile", nil)
	req.Header.Set(auth.CRMKeyHeader, key)
	return req
}

// rotatingSecret is a secret whose value an operator changes; err makes
// reading it fail.
type rotatingSecret struct {
	value string
	err   error
	reads int
}

func (s *rotatingSecret) Resolve(context.Context, string) (string, error) {
	s.reads++
	return s.value, s.err
}

// A rotated machine-callers secret takes effect without a restart: the
// new key is accepted and the revoked one refused once the value is read
// again. A secret that cannot be read keeps the callers read before, and
// is not asked again at every request; a malformed new value switches
// machine callers off.
func TestRotatedMachineCallersTakeEffect(t *testing.T) {
	const oldKey, newKey = "crm-key-old-0123456789", "crm-key-new-0123456789"
	secret := &rotatingSecret{value: `{"crm":[{"name":"CRM","apiKey":"` + oldKey + `"}]}`}
	var logs bytes.Buffer
	source := newMachineCallerSource(slog.New(slog.NewJSONHandler(&logs, nil)), secret, "secretsmanager:invite/machine-callers")
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	source.now = func() time.Time { return now }
	a := &auth.Authenticator{MachineSource: source}
	accepted := func(key string) bool {
		p, err := a.Authenticate(crmRequest(key))
		return err == nil && p != nil && p.Kind == auth.KindCRM
	}
	steps := []struct {
		name         string
		rotate       func()
		advance      time.Duration
		oldOK, newOK bool
		wantReads    int
	}{
		{"as deployed", func() {}, 0, true, false, 2},
		{"rotated: the new key in, the old one out", func() {
			secret.value = `{"crm":[{"name":"CRM","apiKey":"` + newKey + `"}]}`
		}, 0, false, true, 4},
		{"Secrets Manager unreachable: the callers read before stay", func() { secret.err = errors.New("throttled") }, 0, false, true, 5},
		{"not asked again within the TTL", func() {}, 10 * time.Second, false, true, 5},
		{"asked again after it", func() { secret.err = nil }, machineCallersTTL, false, true, 7},
		{"a malformed value switches them off", func() { secret.value = "not json" }, 0, false, false, 9},
	}
	for _, st := range steps {
		st.rotate()
		now = now.Add(st.advance)
		if got := accepted(oldKey); got != st.oldOK {
			t.Errorf("%s: old key accepted %v, want %v", st.name, got, st.oldOK)
		}
		if got := accepted(newKey); got != st.newOK {
			t.Errorf("%s: new key accepted %v, want %v", st.name, got, st.newOK)
		}
		if secret.reads != st.wantReads {
			t.Errorf("%s: the secret was read %d times in all, want %d", st.name, secret.reads, st.wantReads)
		}
	}
	if !strings.Contains(logs.String(), "machine callers reloaded") {
		t.Errorf("the reload is not logged: %s", logs.String())
	}
	for _, k := range []string{oldKey, newKey} {
		if strings.Contains(logs.String(), k) {
			t.Fatalf("log reveals a key: %s", logs.String())
		}
	}
}
