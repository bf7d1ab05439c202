// Command mail-events is the Lambda that EventBridge invokes with the SES
// events of the service's configuration set (bounces and complaints): it
// records them on the mail outbox item the e-mail came from.
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunMailEvents() }
