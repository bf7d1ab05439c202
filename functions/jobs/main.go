// Command jobs is the Lambda that runs the on-demand jobs the system
// function starts asynchronously (cron, repairs, performance seed): work
// longer than a request, in a function whose time limit fits it.
package main

import "github.com/edu-invite/invite/shared/app"

func main() { app.RunJobs() }
