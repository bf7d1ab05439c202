package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/service"
)

// Jobs are the scheduled functions, by the name of their Lambda
// (functions/<name>): EventBridge schedules invoke them in AWS, a timer in
// the local stack.
var Jobs = service.ScheduledJobs

// RunJob runs the scheduled job of the Lambda called name, as of now, and
// records the run for the console's operations page.
func (a *App) RunJob(ctx context.Context, name string, now time.Time) (any, error) {
	res, err := a.runJob(ctx, name, now)
	if slices.Contains(Jobs, name) {
		a.Service.RecordJobRun(ctx, name, now, res, err)
	}
	return res, err
}

func (a *App) runJob(ctx context.Context, name string, now time.Time) (any, error) {
	switch name {
	case "expiry":
		return a.Expire(ctx)
	case "cleanup":
		return a.Cleanup(ctx)
	case "outbox-sweep":
		return a.Sweep(ctx, now)
	case "reconcile":
		return a.Reconcile(ctx, nil)
	}
	return nil, fmt.Errorf("unknown job %q (known: %v)", name, Jobs)
}

// ExpiryResult is what one expiry run did.
type ExpiryResult struct {
	Reminded service.ReminderResult `json:"reminded"`
	Removed  service.ExpiryResult   `json:"removed"`
}

// Expire sends the expiry reminders, then ends the memberships whose end
// date has passed (which may send SCIM changes and e-mail).
func (a *App) Expire(ctx context.Context) (ExpiryResult, error) {
	var res ExpiryResult
	var err error
	if res.Reminded, err = a.Service.SendReminders(ctx); err != nil {
		return res, err
	}
	res.Removed, err = a.Service.RemoveExpired(ctx)
	return res, err
}

// CleanupResult is what one cleanup run deleted.
type CleanupResult struct {
	Invitations int `json:"invitations"`
	APITokens   int `json:"apiTokens"`
}

// Cleanup deletes expired invitations and expired API tokens. Expired
// memberships are Expire's: this job sends neither SCIM changes nor e-mail.
func (a *App) Cleanup(ctx context.Context) (CleanupResult, error) {
	var res CleanupResult
	var err error
	if res.Invitations, err = a.Service.CleanupInvitations(ctx); err != nil {
		return res, err
	}
	res.APITokens, err = a.Service.CleanupAPITokens(ctx)
	return res, err
}

// SweepResult is what one outbox sweep did.
type SweepResult struct {
	Deliveries service.SweepResult `json:"deliveries"`
	Mails      service.MailResult  `json:"mails"`
}

// Sweep re-sends unsent SCIM deliveries and retries pending e-mails.
func (a *App) Sweep(ctx context.Context, now time.Time) (SweepResult, error) {
	var res SweepResult
	var err error
	if res.Deliveries, err = a.Service.SweepOutbox(ctx, 100); err != nil {
		return res, err
	}
	res.Mails, err = a.Service.SendPendingMails(ctx, now.Add(-time.Minute))
	return res, err
}

// Reconcile compares SPs with the service and repairs them: every SP when
// detail names none (the schedule), else the one SP of a ReconcileRequest
// (an on-demand run, dry run unless it says otherwise).
func (a *App) Reconcile(ctx context.Context, detail json.RawMessage) (any, error) {
	var one ReconcileRequest
	if len(detail) > 0 {
		if err := json.Unmarshal(detail, &one); err != nil {
			return nil, err
		}
	}
	if one.SP == "" {
		return a.Service.ReconcileSPs(ctx, a.Registry.TargetIDs())
	}
	share := one.MaxDeleteShare
	if share == 0 {
		share = a.Settings.ReconcileMaxDeleteShare
	}
	return a.Provisioner.Reconcile(ctx, one.SP, domain.ReconcileOptions{DryRun: one.DryRun, MaxDeleteShare: share})
}
