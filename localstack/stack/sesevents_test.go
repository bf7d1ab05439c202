package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// An invitation e-mail that bounces for good: SES's event (the sample in
// events/, with the tag SES copies from the sent mail) reaches the outbox
// item through the mail-events function, and super users see it.
func TestSESBounceIsRecordedOnTheOutboxMail(t *testing.T) {
	clock := &testClock{}
	s := startTestStack(t, clock, "")
	c := client{t: t, base: s.URL}
	admin := map[string]string{"X-API-TOKEN": "e2e-bootstrap-token-0123456789abcdef"}
	var role struct {
		ID int64 `json:"id"`
	}
	if got := c.do("POST", "/api/v1/roles", admin, map[string]any{"name": "Bouncers", "organizationGUID": "org-e2e", "defaultExpiryDays": 30,
		"applicationUsages": []any{map[string]any{"application": map[string]any{"manageId": "sample-app"}}}}, &role); got != 201 {
		t.Fatalf("create role = %d", got)
	}
	if got := c.do("POST", "/api/v1/invitations", admin, map[string]any{"intendedAuthority": "GUEST",
		"invites": []string{"nobody@example.org"}, "roleIdentifiers": []int64{role.ID},
		"expiryDate": clock.Now().Add(24 * time.Hour).Unix()}, nil); got != 201 {
		t.Fatalf("invite = %d", got)
	}
	var sent []domain.MailDelivery
	eventually(t, "the invitation mail sent", func() bool {
		var err error
		sent, err = s.App.Store.ListMails(context.Background(), domain.MailSent, 10)
		return err == nil && len(sent) == 1
	})

	raw, err := os.ReadFile("../../events/ses-bounce.json")
	if err != nil {
		t.Fatal(err)
	}
	event := strings.Replace(string(raw), "0001795441200000-000000-0a1b2c3d", sent[0].ID, 1)
	for i := 0; i < 2; i++ { // EventBridge delivers at least once
		resp, err := http.Post(s.URL+"/local/events/ses", "application/json", bytes.NewReader([]byte(event)))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			To      string `json:"to"`
			Ignored string `json:"ignored"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&res)
		resp.Body.Close()
		if want := map[int]string{0: "bounced", 1: ""}[i]; resp.StatusCode != 200 || res.To != want {
			t.Fatalf("event %d: %d %+v, want to=%q", i, resp.StatusCode, res, want)
		}
	}
	var bounced []map[string]any
	if got := c.do("GET", "/api/v1/system/mails?status=bounced", admin, nil, &bounced); got != 200 || len(bounced) != 1 ||
		bounced[0]["id"] != sent[0].ID || bounced[0]["to"] != "nobody@example.org" || bounced[0]["reason"] != "bounce: Permanent/General 5.1.1" {
		t.Fatalf("bounced mails = %d %+v", got, bounced)
	}
	// The sweep does not send a bounced mail again.
	if _, err := s.RunJob(context.Background(), "outbox-sweep"); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.App.Store.GetMail(context.Background(), sent[0].ID); m.Status != domain.MailBounced || m.Attempts != 1 {
		t.Fatalf("after the sweep: %+v", m)
	}
}
