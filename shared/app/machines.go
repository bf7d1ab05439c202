package app

import (
	"context"
	"log/slog"
	"os"

	"github.com/edu-invite/invite/shared/auth"
)

// machineCallersRef is where the machine callers' credentials are: an
// explicit reference (local stack, tests), else the secret the CDK stack
// creates and names in MACHINE_CALLERS_SECRET_ARN.
func machineCallersRef() string {
	if ref := os.Getenv("MACHINE_CALLERS"); ref != "" {
		return ref
	}
	if arn := os.Getenv("MACHINE_CALLERS_SECRET_ARN"); arn != "" {
		return "secretsmanager:" + arn
	}
	return ""
}

// secretResolver is the part of secrets.Resolver used here.
type secretResolver interface {
	Resolve(ctx context.Context, ref string) (string, error)
}

// loadMachineCallers reads the machine callers at start-up. A missing or
// malformed secret (a fresh deployment still holds the generated
// placeholder) switches machine callers off with an error in the log,
// rather than failing every request of the function: people and API tokens
// keep working. The log never holds the secret's value.
func loadMachineCallers(ctx context.Context, logger *slog.Logger, r secretResolver, ref string) *auth.MachineCallers {
	if ref == "" {
		return nil
	}
	raw, err := r.Resolve(ctx, ref)
	if err != nil {
		logger.ErrorContext(ctx, "machine callers not loaded; CRM keys and Basic callers are refused", "error", err)
		return nil
	}
	m, err := auth.ParseMachineCallers([]byte(raw))
	if err != nil {
		logger.ErrorContext(ctx, "machine callers not loaded; CRM keys and Basic callers are refused", "error", err)
		return nil
	}
	return m
}
