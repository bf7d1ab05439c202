// Command web is the Lambda of the pages people use in a browser: sign-in,
// the acceptance page and "my access" (shared/web).
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunWeb() }
