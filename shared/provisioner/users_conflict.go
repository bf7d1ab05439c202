package provisioner

import (
	"context"
	"errors"

	"github.com/edu-invite/invite/shared/scim"
)

// lookupConflictingUser finds the user an SP's 409 on a creation refers to.
// userName is case-insensitive (RFC 7643), so the SP refuses a userName
// that differs from one it holds only in case; an SP whose filter compares
// case-exactly then finds nothing by it. So when the filters find nothing,
// the listing is read as well, compared the way the schema says.
func (p *Provisioner) lookupConflictingUser(ctx context.Context, c SCIMClient, spID string, want scim.User) (string, error) {
	id, err := p.lookupUser(ctx, c, spID, want)
	if id != "" || (err != nil && !errors.Is(err, errNoLookup)) {
		return id, err
	}
	listed, lerr := listLookup(ctx, func(start int) ([]scim.User, int, error) {
		pg, err := c.ListUsers(ctx, start, listPageSize)
		return pg.Resources, pg.TotalResults, err
	}, func(f scim.User) (string, bool) { return f.ID, userMatches(f, want) })
	if lerr != nil {
		if err != nil {
			return "", err
		}
		return "", lerr
	}
	return listed, nil
}
