// Command expiry is the scheduled Lambda (EventBridge, hourly) that sends
// expiry reminders and ends memberships whose end date has passed.
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunScheduled("expiry") }
