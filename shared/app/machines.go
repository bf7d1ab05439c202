package app

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

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

// machineCallersTTL is how long a read of the machine callers' secret is
// used before it is read again: a rotated secret (a key added or revoked)
// takes effect within it, without a redeploy or a cold start.
const machineCallersTTL = time.Minute

// machineCallerSource gives the Authenticator the machine callers of the
// secret as it is now. The resolver caches the secret for
// machineCallersTTL; the parsed callers are kept until the value changes.
// A secret that cannot be read keeps the callers last read (Secrets
// Manager out for a moment must not lock the CRM out) and is tried again
// after machineCallersTTL; a malformed value switches machine callers off,
// as at start-up. The log never holds the secret's value.
type machineCallerSource struct {
	logger *slog.Logger
	r      secretResolver
	ref    string
	now    func() time.Time

	mu       sync.Mutex
	raw      string
	loaded   bool
	callers  *auth.MachineCallers
	failedAt time.Time
}

func newMachineCallerSource(logger *slog.Logger, r secretResolver, ref string) *machineCallerSource {
	return &machineCallerSource{logger: logger, r: r, ref: ref, now: time.Now}
}

// MachineCallers reads the secret (through the resolver's cache) and
// answers its callers.
func (s *machineCallerSource) MachineCallers(ctx context.Context) *auth.MachineCallers {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.failedAt.IsZero() && s.now().Sub(s.failedAt) < machineCallersTTL {
		return s.callers
	}
	raw, err := s.r.Resolve(ctx, s.ref)
	if err != nil {
		s.failedAt = s.now()
		s.logger.ErrorContext(ctx, "machine callers not read; the ones read before stay", "error", err, "loaded", s.callers != nil)
		return s.callers
	}
	s.failedAt = time.Time{}
	if s.loaded && raw == s.raw {
		return s.callers
	}
	first := !s.loaded
	s.raw, s.loaded = raw, true
	m, err := auth.ParseMachineCallers([]byte(raw))
	if err != nil {
		s.callers = nil
		s.logger.ErrorContext(ctx, "machine callers not loaded; CRM keys and Basic callers are refused", "error", err)
		return nil
	}
	s.callers = m
	if !first {
		s.logger.InfoContext(ctx, "machine callers reloaded: the secret changed")
	}
	return m
}
