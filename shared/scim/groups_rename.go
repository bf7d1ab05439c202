package scim

import (
	"context"
	"net/http"
)

// RenameGroup sets the displayName of /Groups/{groupID} with one PATCH
// replace, leaving its members alone (a PUT would replace them too).
func (c *Client) RenameGroup(ctx context.Context, groupID, displayName string) error {
	path, err := resourcePath(groupsPath, groupID)
	if err != nil {
		return err
	}
	type operation struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value string `json:"value"`
	}
	return c.do(ctx, request{
		method: http.MethodPatch, path: path,
		body: struct {
			Schemas    []string    `json:"schemas"`
			Operations []operation `json:"Operations"`
		}{[]string{SchemaPatchOp}, []operation{{Op: "replace", Path: "displayName", Value: displayName}}},
		ok: []int{http.StatusOK, http.StatusNoContent},
	})
}
