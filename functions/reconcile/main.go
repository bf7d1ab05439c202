// Command reconcile is the scheduled Lambda (EventBridge, daily) that
// compares every SP with the service and repairs the difference; the
// system function also invokes it for one SP on demand (app.RunReconcile).
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunReconcile() }
