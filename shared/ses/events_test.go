package ses

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

// The samples in events/ are what SES publishes to EventBridge; they are
// also what `make` users invoke the mail-events function with.
func sampleDetail(t *testing.T, name string) json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile("../../events/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Detail json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev.Detail
}

func TestParseEvent(t *testing.T) {
	tests := []struct {
		name    string
		detail  json.RawMessage
		handled bool
		want    domain.MailEvent
	}{
		{"permanent bounce sample", sampleDetail(t, "ses-bounce.json"), true, domain.MailEvent{Kind: domain.MailEventBounce,
			Ref: "0001795441200000-000000-0a1b2c3d", Permanent: true, Reason: "Permanent/General 5.1.1"}},
		{"complaint sample", sampleDetail(t, "ses-complaint.json"), true, domain.MailEvent{Kind: domain.MailEventComplaint,
			Ref: "0001795441200000-000001-4e5f6a7b", Permanent: true, Reason: "abuse"}},
		{"transient bounce", json.RawMessage(`{"eventType":"Bounce","bounce":{"bounceType":"Transient","bounceSubType":"MailboxFull"},"mail":{"tags":{"mail":["m1"]}}}`),
			true, domain.MailEvent{Kind: domain.MailEventBounce, Ref: "m1", Reason: "Transient/MailboxFull"}},
		{"undetermined bounce is retried", json.RawMessage(`{"eventType":"Bounce","bounce":{"bounceType":"Undetermined","bounceSubType":"Undetermined"},"mail":{"tags":{}}}`),
			true, domain.MailEvent{Kind: domain.MailEventBounce, Reason: "Undetermined/Undetermined"}},
		{"delivery is not acted on", json.RawMessage(`{"eventType":"Delivery","mail":{"tags":{"mail":["m1"]}}}`), false, domain.MailEvent{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, handled, err := ParseEvent(tc.detail)
			if err != nil {
				t.Fatal(err)
			}
			if handled != tc.handled || got != tc.want {
				t.Fatalf("got %+v (handled %v), want %+v (handled %v)", got, handled, tc.want, tc.handled)
			}
		})
	}
}

func TestParseEventRejectsGarbage(t *testing.T) {
	for _, detail := range []string{`not json`, `{"eventType":"Bounce"}`} {
		if _, _, err := ParseEvent(json.RawMessage(detail)); err == nil {
			t.Errorf("%s: no error", detail)
		}
	}
}

// The reason never carries the recipient or the diagnostic text.
func TestParseEventKeepsNoPersonalData(t *testing.T) {
	ev, _, err := ParseEvent(sampleDetail(t, "ses-bounce.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"nobody@example.org", "user unknown"} {
		if strings.Contains(ev.Reason, leak) {
			t.Errorf("reason %q contains %q", ev.Reason, leak)
		}
	}
}

func TestSendInputTagsTheMailRef(t *testing.T) {
	in := sendEmailInput("from@example.org", "set", domain.Email{To: "a@example.org", Subject: "s", Text: "t", Ref: "m-1"})
	if len(in.EmailTags) != 1 || *in.EmailTags[0].Name != MailRefTag || *in.EmailTags[0].Value != "m-1" {
		t.Fatalf("tags %+v", in.EmailTags)
	}
	if in := sendEmailInput("from@example.org", "", domain.Email{To: "a@example.org", Text: "t"}); len(in.EmailTags) != 0 {
		t.Fatalf("tags without a ref: %+v", in.EmailTags)
	}
}
