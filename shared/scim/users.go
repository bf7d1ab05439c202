package scim

import (
	"context"
	"slices"
)

// CreateUser POSTs u to /Users and returns the SP's user, whose ID the
// caller stores for later updates. u.ID is sent if set: the placeholder case
// of spec 6 puts the internal placeholder identifier there.
func (c *Client) CreateUser(ctx context.Context, u User) (User, error) {
	return createResource(ctx, c, usersPath, outgoingUser(u))
}

// ReplaceUser PUTs the complete user to /Users/{id}; the body carries id.
func (c *Client) ReplaceUser(ctx context.Context, id string, u User) (User, error) {
	u.ID = id
	return replaceResource(ctx, c, usersPath, id, outgoingUser(u))
}

// DeleteUser DELETEs /Users/{id}. IsNotFound(err) means it was gone already.
func (c *Client) DeleteUser(ctx context.Context, id string) error {
	return deleteResource(ctx, c, usersPath, id)
}

// GetUser reads /Users/{id}.
func (c *Client) GetUser(ctx context.Context, id string) (User, error) {
	return getResource[User](ctx, c, usersPath, id)
}

// FindUsers lists the users whose attribute equals value, e.g.
// FindUsers(ctx, "externalId", eppn) to find a user created earlier whose
// SP-side id was lost.
func (c *Client) FindUsers(ctx context.Context, attribute, value string) ([]User, error) {
	return findResources[User](ctx, c, usersPath, attribute, value)
}

// outgoingUser fills in the core schema when the caller left it out and
// drops meta, which is read-only at the SP (RFC 7643 3.1), so that a user
// read from the SP can be sent back as is.
func outgoingUser(u User) User {
	if len(u.Schemas) == 0 {
		u.Schemas = []string{SchemaUser}
	} else {
		u.Schemas = slices.Clone(u.Schemas)
	}
	u.Meta = nil
	return u
}
