// Command provisioner is the Lambda that consumes the SCIM provisioning
// queue and delivers each change to its SP.
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunProvisioner() }
