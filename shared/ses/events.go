package ses

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/edu-invite/invite/shared/domain"
)

// sesEvent is the part of an SES event (as SES publishes it to EventBridge
// in the event's detail) that the service uses. Recipient addresses and
// diagnostic texts are not read: they are personal data and not needed.
type sesEvent struct {
	EventType string `json:"eventType"`
	Bounce    *struct {
		BounceType        string `json:"bounceType"`
		BounceSubType     string `json:"bounceSubType"`
		BouncedRecipients []struct {
			Status string `json:"status"`
		} `json:"bouncedRecipients"`
	} `json:"bounce"`
	Complaint *struct {
		ComplaintFeedbackType string `json:"complaintFeedbackType"`
	} `json:"complaint"`
	Mail struct {
		Tags map[string][]string `json:"tags"`
	} `json:"mail"`
}

// ParseEvent reads the detail of an SES EventBridge event. It returns
// false for event types the service does not act on (sends, deliveries,
// opens, delays: SES retries delayed mail itself).
func ParseEvent(detail json.RawMessage) (domain.MailEvent, bool, error) {
	var ev sesEvent
	if err := json.Unmarshal(detail, &ev); err != nil {
		return domain.MailEvent{}, false, fmt.Errorf("ses event: %w", err)
	}
	var ref string
	if refs := ev.Mail.Tags[MailRefTag]; len(refs) > 0 {
		ref = refs[0]
	}
	switch strings.ToLower(ev.EventType) {
	case "bounce":
		if ev.Bounce == nil {
			return domain.MailEvent{}, false, fmt.Errorf("ses event: bounce without details")
		}
		reason := ev.Bounce.BounceType + "/" + ev.Bounce.BounceSubType
		if len(ev.Bounce.BouncedRecipients) > 0 && ev.Bounce.BouncedRecipients[0].Status != "" {
			reason += " " + ev.Bounce.BouncedRecipients[0].Status
		}
		// Undetermined bounces are retried like transient ones: the
		// attempts limit of the outbox stops a mail that keeps bouncing.
		return domain.MailEvent{Kind: domain.MailEventBounce, Ref: ref, Permanent: ev.Bounce.BounceType == "Permanent", Reason: reason}, true, nil
	case "complaint":
		reason := "complaint"
		if ev.Complaint != nil && ev.Complaint.ComplaintFeedbackType != "" {
			reason = ev.Complaint.ComplaintFeedbackType
		}
		return domain.MailEvent{Kind: domain.MailEventComplaint, Ref: ref, Permanent: true, Reason: reason}, true, nil
	default:
		return domain.MailEvent{}, false, nil
	}
}
