package ses

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/substitutes/substitutestest"
)

// capturedMail is one entry of aws-ses-v2-local's GET /store.
type capturedMail struct {
	From        string `json:"from"`
	Destination struct {
		To []string `json:"to"`
	} `json:"destination"`
	Subject string `json:"subject"`
	Body    struct {
		HTML string `json:"html"`
		Text string `json:"text"`
	} `json:"body"`
}

func TestSendThroughLocalSES(t *testing.T) {
	// The substitutes' launcher binds port 0 and reports the port it got,
	// so parallel test packages never race for a port.
	base := substitutestest.SES(t).URL
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	want := testEmail()
	// The substitute does not record ConfigurationSetName; the httptest test
	// checks that it is sent. Here it only must not make the call fail.
	if err := NewSender(newTestClient(t, base), testFrom, testConfigSet).Send(ctx, want); err != nil {
		t.Fatalf("Send: %v", err)
	}

	resp, err := http.Get(base + "/store")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var store struct{ Emails []capturedMail }
	if err := json.NewDecoder(resp.Body).Decode(&store); err != nil {
		t.Fatalf("decode /store: %v", err)
	}
	if len(store.Emails) != 1 {
		t.Fatalf("store holds %d mails, want 1", len(store.Emails))
	}
	got := store.Emails[0]
	if got.From != testFrom {
		t.Errorf("from = %q, want %q", got.From, testFrom)
	}
	if len(got.Destination.To) != 1 || got.Destination.To[0] != want.To {
		t.Errorf("to = %q, want [%q]", got.Destination.To, want.To)
	}
	if got.Subject != want.Subject {
		t.Errorf("subject = %q, want %q", got.Subject, want.Subject)
	}
	if got.Body.HTML != want.HTML {
		t.Errorf("html = %q, want %q", got.Body.HTML, want.HTML)
	}
	if got.Body.Text != want.Text {
		t.Errorf("text = %q, want %q", got.Body.Text, want.Text)
	}
}
