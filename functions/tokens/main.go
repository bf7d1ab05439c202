// Command tokens is the Lambda of the tokens resource group of the REST API.
package main

import (
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/httpapi"
)

func main() { app.RunAPI(httpapi.GroupTokens) }
