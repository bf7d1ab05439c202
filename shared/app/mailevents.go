package app

import (
	"context"
	"encoding/json"

	"github.com/edu-invite/invite/shared/service"
	"github.com/edu-invite/invite/shared/ses"
)

// HandleMailEvent records an SES event (the detail of its EventBridge
// event) on the outbox mail it is about. Events the service does not act
// on are answered, not failed: a failure would make EventBridge retry.
func (a *App) HandleMailEvent(ctx context.Context, detail json.RawMessage) (service.MailEventResult, error) {
	ev, handled, err := ses.ParseEvent(detail)
	if err != nil {
		a.Logger.WarnContext(ctx, "unreadable SES event dropped", "error", err)
		return service.MailEventResult{Ignored: "unreadable event"}, nil
	}
	if !handled {
		return service.MailEventResult{Ignored: "event type not handled"}, nil
	}
	return a.Service.HandleMailEvent(ctx, ev)
}
