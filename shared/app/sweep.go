package app

import (
	"context"
	"time"

	"github.com/edu-invite/invite/shared/service"
)

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
