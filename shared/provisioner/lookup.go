package provisioner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// A creation is a plain POST: look-ups are requests an SP may legitimately
// refuse (RFC 7644 lets it refuse any filter), so they run only where they
// can matter: on a retry (an earlier attempt's answer may have been lost
// after the SP created the resource) and after a 409. They try, in order,
// what the SP supports: an eq filter on userName (on externalId for
// groups), then on externalId (displayName for groups), then a listing
// read page by page when the SP holds few enough resources. A refused
// filter moves on to the next way, remembered per SP, and never fails the
// delivery by itself.

// errNoLookup is the retryable failure of a look-up the SP offers no way to
// make: every filter refused and too many resources to list.
var errNoLookup = errors.New("the SP offers no way to look the resource up (filters refused, listing too large)")

// maxListedLookup bounds the resources a look-up lists page by page.
const maxListedLookup = 2000

// listPageSize is the count asked per listing page.
const listPageSize = 100

// capsTTL is how long what an SP supports is remembered.
const capsTTL = time.Hour

// spCaps is what an SP answered to look-ups so far.
type spCaps struct {
	mu      sync.Mutex
	read    time.Time // when /ServiceProviderConfig was read; zero: not yet
	filter  bool      // filtering supported (true when the SP did not say)
	refused map[string]bool
}

func (c *spCaps) isRefused(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.filter || c.refused[key]
}

func (c *spCaps) refuse(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refused[key] = true
}

// configReader is the optional discovery of a client.
type configReader interface {
	GetServiceProviderConfig(ctx context.Context) (scim.ServiceProviderConfig, error)
}

// capsOf returns what the SP supports, reading /ServiceProviderConfig on
// the first look-up (and hourly after). An SP that does not serve it is
// tried filter by filter.
func (p *Provisioner) capsOf(ctx context.Context, c SCIMClient, spID string) (*spCaps, error) {
	v, _ := p.caps.LoadOrStore(spID, &spCaps{filter: true, refused: map[string]bool{}})
	caps := v.(*spCaps)
	caps.mu.Lock()
	fresh := !caps.read.IsZero() && time.Since(caps.read) < capsTTL
	caps.mu.Unlock()
	if fresh {
		return caps, nil
	}
	filter := true
	if cr, ok := c.(configReader); ok {
		cfg, err := cr.GetServiceProviderConfig(ctx)
		switch {
		case err == nil:
			filter = cfg.Filter.Supported
		case scim.IsRetryable(err):
			return nil, err
		}
	}
	caps.mu.Lock()
	caps.read, caps.filter, caps.refused = time.Now(), filter, map[string]bool{}
	caps.mu.Unlock()
	return caps, nil
}

// lookupUser finds the user at the SP by userName, externalId or a
// listing; "" when the SP answered and has no such user, errNoLookup when
// the SP offers no way to tell.
func (p *Provisioner) lookupUser(ctx context.Context, c SCIMClient, spID string, u scim.User) (string, error) {
	caps, err := p.capsOf(ctx, c, spID)
	if err != nil {
		return "", err
	}
	id, answered, err := filterLookup(ctx, caps, "Users", [][2]string{{"userName", u.UserName}, {"externalId", u.ExternalID}}, c.FindUsers,
		func(found []scim.User) string {
			for _, f := range found {
				if userMatches(f, u) {
					return f.ID
				}
			}
			return ""
		})
	if err != nil || id != "" || answered {
		return id, err
	}
	return listLookup(ctx, func(start int) ([]scim.User, int, error) {
		pg, err := c.ListUsers(ctx, start, listPageSize)
		return pg.Resources, pg.TotalResults, err
	}, func(f scim.User) (string, bool) { return f.ID, userMatches(f, u) })
}

// filterLookup asks the SP with each eq filter (attribute, value) of a
// resource type in turn, skipping an empty value and a filter the SP
// refused before (a new refusal is remembered, and is no failure), until
// match finds the resource among the answer. answered says whether the SP
// answered any filter: then a miss means the SP has no such resource.
func filterLookup[T any](ctx context.Context, caps *spCaps, resource string, filters [][2]string,
	find func(ctx context.Context, attribute, value string) ([]T, error), match func([]T) string) (id string, answered bool, err error) {
	for _, q := range filters {
		key := resource + "/" + q[0]
		if q[1] == "" || caps.isRefused(key) {
			continue
		}
		found, err := find(ctx, q[0], q[1])
		if scim.IsFilterRefused(err) {
			caps.refuse(key)
			continue
		}
		if err != nil {
			return "", false, err
		}
		answered = true
		if id := match(found); id != "" {
			return id, true, nil
		}
	}
	return "", answered, nil
}

// userMatches compares as the SCIM schema does: userName case-insensitive,
// externalId exact.
func userMatches(f, want scim.User) bool {
	return (want.UserName != "" && strings.EqualFold(f.UserName, want.UserName)) ||
		(want.ExternalID != "" && f.ExternalID == want.ExternalID)
}

// lookupGroup finds the role's group at the SP by externalId (the role's
// URN), by displayName (where the SP keeps no externalId), or a listing.
func (p *Provisioner) lookupGroup(ctx context.Context, c SCIMClient, spID, urn, name string) (string, error) {
	caps, err := p.capsOf(ctx, c, spID)
	if err != nil {
		return "", err
	}
	id, answered, err := filterLookup(ctx, caps, "Groups", [][2]string{{"externalId", urn}, {"displayName", name}}, c.FindGroups,
		func(found []scim.Group) string { return matchGroup(found, urn, name) })
	if err != nil || id != "" || answered {
		return id, err
	}
	var all []scim.Group
	_, err = listLookup(ctx, func(start int) ([]scim.Group, int, error) {
		pg, err := c.ListGroups(ctx, start, listPageSize)
		return pg.Resources, pg.TotalResults, err
	}, func(g scim.Group) (string, bool) { all = append(all, g); return "", false })
	if err != nil {
		return "", err
	}
	return matchGroup(all, urn, name), nil
}

// matchGroup is the group with the URN as externalId, else the one group
// with the name and no externalId (an SP that does not keep externalId).
func matchGroup(gs []scim.Group, urn, name string) string {
	byName := ""
	n := 0
	for _, g := range gs {
		if g.ExternalID == urn && urn != "" {
			return g.ID
		}
		if g.ExternalID == "" && name != "" && strings.EqualFold(g.DisplayName, name) {
			byName = g.ID
			n++
		}
	}
	if n == 1 {
		return byName
	}
	return ""
}

// listLookup reads a listing page by page until match finds the resource,
// refusing listings larger than maxListedLookup.
func listLookup[T any](ctx context.Context, page func(start int) ([]T, int, error), match func(T) (string, bool)) (string, error) {
	start := 1
	for {
		items, total, err := page(start)
		if scim.IsFilterRefused(err) {
			return "", errNoLookup
		}
		if err != nil {
			return "", err
		}
		if total > maxListedLookup {
			return "", errNoLookup
		}
		for _, it := range items {
			if id, ok := match(it); ok {
				return id, nil
			}
		}
		start += len(items)
		if len(items) == 0 || start > total {
			return "", nil
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
}

// retryKey marks a delivery attempt that may follow an earlier one that
// reached the SP: a redelivery, a replay.
type retryKey struct{}

func withRetry(ctx context.Context, retry bool) context.Context {
	return context.WithValue(ctx, retryKey{}, retry)
}

// mayExistAlready reports whether a resource without a stored SP-side id
// may nevertheless be at the SP: this attempt repeats an earlier one, or an
// earlier delivery for the resource failed (recorded on its link).
func mayExistAlready(ctx context.Context, l domain.SPLink) bool {
	retry, _ := ctx.Value(retryKey{}).(bool)
	return retry || l.Attempts > 0 || l.Status == domain.StatusFailed
}
