package scim

import (
	"context"
	"fmt"
	"net/http"
	"slices"
)

// CreateGroup POSTs g to /Groups and returns the SP's group with its ID.
// Members are sent as given; the service creates groups with none (spec 3.2),
// written as "members": [].
func (c *Client) CreateGroup(ctx context.Context, g Group) (Group, error) {
	return createResource(ctx, c, groupsPath, outgoingGroup(g))
}

// ReplaceGroup PUTs the complete group, including all members, to
// /Groups/{id}; the body carries id.
func (c *Client) ReplaceGroup(ctx context.Context, id string, g Group) (Group, error) {
	g.ID = id
	return replaceResource(ctx, c, groupsPath, id, outgoingGroup(g))
}

// DeleteGroup DELETEs /Groups/{id}. IsNotFound(err) means it was gone already.
func (c *Client) DeleteGroup(ctx context.Context, id string) error {
	return deleteResource(ctx, c, groupsPath, id)
}

// GetGroup reads /Groups/{id}.
func (c *Client) GetGroup(ctx context.Context, id string) (Group, error) {
	return getResource[Group](ctx, c, groupsPath, id)
}

// FindGroups lists the groups whose attribute equals value, e.g.
// FindGroups(ctx, "externalId", urn).
func (c *Client) FindGroups(ctx context.Context, attribute, value string) ([]Group, error) {
	return findResources[Group](ctx, c, groupsPath, attribute, value)
}

// PatchGroupMembers adds or removes members of /Groups/{groupID} with one
// PatchOp operation on path "members" (spec 2.2). Only the members' Value
// (SP-side user id) is sent. With no members nothing is sent: a "remove" on
// "members" without a value would remove every member (RFC 7644 3.5.2.2).
// A 200 with the group or a 204 are success; the body is not needed.
func (c *Client) PatchGroupMembers(ctx context.Context, groupID string, op PatchOp, members []Member) error {
	if op != PatchAdd && op != PatchRemove {
		return fmt.Errorf("scim: unsupported patch op %q", string(op))
	}
	path, err := resourcePath(groupsPath, groupID)
	if err != nil {
		return err
	}
	if len(members) == 0 {
		return nil
	}
	values := make([]memberValue, 0, len(members))
	for _, m := range members {
		if m.Value == "" {
			return fmt.Errorf("scim: member without a value (SP-side user id)")
		}
		values = append(values, memberValue{Value: m.Value})
	}
	// Add and remove of members are idempotent, so a failure after some
	// chunks leaves nothing that repeating the whole call would not mend.
	for chunk := range slices.Chunk(values, c.maxPatch) {
		err := c.do(ctx, request{
			method: http.MethodPatch, path: path,
			body: patchRequest{
				Schemas:    []string{SchemaPatchOp},
				ID:         groupID,
				Operations: []patchOperation{{Op: op, Path: "members", Value: chunk}},
			},
			ok: []int{http.StatusOK, http.StatusNoContent},
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// outgoingGroup fills in the core schema when the caller left it out and
// drops read-only meta.
func outgoingGroup(g Group) Group {
	if len(g.Schemas) == 0 {
		g.Schemas = []string{SchemaGroup}
	} else {
		g.Schemas = slices.Clone(g.Schemas)
	}
	g.Meta = nil
	return g
}
