package domain

import (
	"context"
	"time"
)

// Queue puts deliveries on the provisioning queue, ordered per SP.
type Queue interface {
	// Enqueue sends the deliveries, each in the FIFO group of its SP. An error
	// is the queue's own (no domain error); the deliveries stay pending for
	// the outbox sweep.
	Enqueue(ctx context.Context, deliveries []Delivery) error
}

// Email is one rendered message.
type Email struct {
	To      string
	Subject string
	HTML    string
	Text    string
	// Ref is the mail outbox id; the mailer sends it along (an SES message
	// tag) so that later bounce and complaint events find the outbox item.
	Ref string
}

// Mailer sends e-mail.
type Mailer interface {
	// Send sends one e-mail. An error is the mail service's own (no domain
	// error); the mail stays pending for a retry.
	Send(ctx context.Context, e Email) error
}

// Clock is the time source; tests control it.
type Clock func() time.Time
