package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

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

	m := loadMachineCallers(context.Background(), logger, r, "env:TEST_MACHINES")
	a := &auth.Authenticator{Machines: m}
	req := httptest.NewRequest("POST", "/crm/profile", nil)
	req.Header.Set(auth.CRMKeyHeader, key)
	if p, err := a.Authenticate(req); err != nil || p.Kind != auth.KindCRM {
		t.Fatalf("loaded key not accepted: %+v %v", p, err)
	}

	if m := loadMachineCallers(context.Background(), logger, r, "env:TEST_PLACEHOLDER"); m != nil {
		t.Error("the generated placeholder was accepted as configuration")
	}
	if m := loadMachineCallers(context.Background(), logger, r, "env:TEST_UNSET"); m != nil {
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
