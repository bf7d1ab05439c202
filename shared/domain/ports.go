package domain

import (
	"context"
	"time"
)

// Queue puts deliveries on the provisioning queue, ordered per SP.
type Queue interface {
	Enqueue(ctx context.Context, deliveries []Delivery) error
}

// Email is one rendered message.
type Email struct {
	To      string
	Subject string
	HTML    string
	Text    string
}

// Mailer sends e-mail.
type Mailer interface {
	Send(ctx context.Context, e Email) error
}

// Clock is the time source; tests control it.
type Clock func() time.Time
