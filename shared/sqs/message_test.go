package sqs

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/domain"
)

func TestDeliveryRoundTrip(t *testing.T) {
	d := domain.Delivery{ID: "1795000000000-000000-0a1b2c3d", SPID: "sp-1", Kind: domain.DeliverMemberAdd, UserID: 7, RoleID: 3,
		CorrelationID: "abc", CreatedAt: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	body, err := EncodeDelivery(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, "@") {
		t.Fatalf("message body must not carry personal data: %s", body)
	}
	got, err := DecodeDelivery(body)
	if err != nil {
		t.Fatal(err)
	}
	if got != d {
		t.Fatalf("round trip = %+v, want %+v", got, d)
	}
}

func TestDecodeDeliveryRejects(t *testing.T) {
	tests := map[string]string{
		"not json":            `nope`,
		"no sp":               `{"deliveryId":"1","kind":"group.create","roleId":1}`,
		"unknown kind":        `{"deliveryId":"1","sp":"a","kind":"group.rename","roleId":1}`,
		"group without role":  `{"deliveryId":"1","sp":"a","kind":"group.create"}`,
		"member without user": `{"deliveryId":"1","sp":"a","kind":"member.add","roleId":1}`,
		"user without user":   `{"deliveryId":"1","sp":"a","kind":"user.delete"}`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := DecodeDelivery(body); err == nil {
				t.Fatalf("DecodeDelivery(%s) accepted an invalid message", body)
			}
		})
	}
}

// The sample event in events/ must stay a valid message.
func TestSampleEventDecodes(t *testing.T) {
	b, err := os.ReadFile("../../events/sqs-scim-delivery.json")
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SQSEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	d, err := DecodeDelivery(ev.Records[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	d.OrderKey = ev.Records[0].Attributes["MessageGroupId"]
	if d.Kind != domain.DeliverGroupCreate || d.MessageGroup() != domain.OrderKeyOf(domain.ServiceProvider{ID: d.SPID}, d.Kind, d.UserID, d.RoleID) {
		t.Fatalf("sample decodes to %+v", d)
	}
}
