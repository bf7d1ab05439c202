// Command invitations is the Lambda of the invitations resource group of the REST API.
package main

import (
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/httpapi"
)

func main() { app.RunAPI(httpapi.GroupInvitations) }
