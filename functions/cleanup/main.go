// Command cleanup is the scheduled Lambda (EventBridge, daily) that deletes
// expired invitations and expired API tokens. (Expired memberships are
// ended by expiry, which may send SCIM changes and e-mail; this function
// may do neither.)
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunScheduled("cleanup") }
