// Command outbox-sweep is the scheduled Lambda (EventBridge, every minute)
// that re-sends SCIM deliveries committed but never put on the queue, and
// retries e-mails that SES did not take.
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunScheduled("outbox-sweep") }
