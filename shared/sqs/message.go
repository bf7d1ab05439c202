// Package sqs is the adapter to Amazon SQS: it puts deliveries on the FIFO
// provisioning queue (one message group per resource at an SP, so each gets
// its changes in order and nothing else waits on it) and dead-letters
// deliveries that cannot succeed.
package sqs

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// Message is the body of a provisioning message (schema:
// events/scim-delivery.schema.json). It names the outbox item and what it is
// about, never personal data: the provisioner reads the current state.
type Message struct {
	DeliveryID    string    `json:"deliveryId"`
	SPID          string    `json:"sp"`
	Kind          string    `json:"kind"`
	UserID        int64     `json:"userId,omitempty"`
	RoleID        int64     `json:"roleId,omitempty"`
	CorrelationID string    `json:"correlationId,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	ExternalID    string    `json:"externalId,omitempty"`
}

// EncodeDelivery renders a delivery as a message body.
func EncodeDelivery(d domain.Delivery) (string, error) {
	b, err := json.Marshal(Message{DeliveryID: d.ID, SPID: d.SPID, Kind: string(d.Kind), UserID: d.UserID,
		RoleID: d.RoleID, CorrelationID: d.CorrelationID, CreatedAt: d.CreatedAt.UTC(), ExternalID: d.ExternalID})
	return string(b), err
}

// DecodeDelivery parses a message body; a body that is not a valid delivery
// is a permanent failure (redelivering it cannot help).
func DecodeDelivery(body string) (domain.Delivery, error) {
	var m Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return domain.Delivery{}, fmt.Errorf("provisioning message is not JSON: %w", err)
	}
	d := domain.Delivery{ID: m.DeliveryID, SPID: m.SPID, Kind: domain.DeliveryKind(m.Kind), UserID: m.UserID,
		RoleID: m.RoleID, CorrelationID: m.CorrelationID, CreatedAt: m.CreatedAt, ExternalID: m.ExternalID}
	if d.ID == "" || d.SPID == "" {
		return d, fmt.Errorf("provisioning message lacks deliveryId or sp")
	}
	switch d.Kind {
	case domain.DeliverGroupCreate, domain.DeliverGroupDelete, domain.DeliverGroupUpdate, domain.DeliverMemberAdd, domain.DeliverMemberRemove:
		if d.RoleID == 0 {
			return d, fmt.Errorf("provisioning message %s of kind %s lacks roleId", d.ID, d.Kind)
		}
	case domain.DeliverUserCreate, domain.DeliverUserUpdate, domain.DeliverUserDelete:
	default:
		return d, fmt.Errorf("provisioning message %s has unknown kind %q", d.ID, m.Kind)
	}
	if (d.Kind == domain.DeliverMemberAdd || d.Kind == domain.DeliverMemberRemove || d.Kind == domain.DeliverUserCreate ||
		d.Kind == domain.DeliverUserUpdate || d.Kind == domain.DeliverUserDelete) && d.UserID == 0 {
		return d, fmt.Errorf("provisioning message %s of kind %s lacks userId", d.ID, d.Kind)
	}
	return d, nil
}
