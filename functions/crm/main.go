// Command crm is the Lambda of the crm resource group of the REST API.
package main

import (
	"github.com/edu-invite/invite/shared/app"
	"github.com/edu-invite/invite/shared/httpapi"
)

func main() { app.RunAPI(httpapi.GroupCRM) }
