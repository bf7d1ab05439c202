package dynamo

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// repairRoleListings writes the listing items (roles_sortindex.go) of a
// page of roles of the index repair, as the projection of their creation
// makes them: a
// role of an older version has none, and one updated since has only those
// its update changed. Items that are already right are written unchanged.
func (s *Store) repairRoleListings(ctx context.Context, roleIDs []int64) error {
	roles, err := s.GetRoles(ctx, roleIDs)
	if err != nil {
		return err
	}
	var records []any
	for _, r := range roles {
		// The projection of the role's creation, without its member
		// counter (the recount's) and the ready item (written last).
		for _, w := range projectChanges(projectionState{}, createdRole(r)).only(copyRoleListing, "").writes {
			if w.err != nil {
				return w.err
			}
			records = append(records, w.put)
		}
	}
	return s.batchPutAll(ctx, records)
}

// finishRoleListings ends the role part of the index repair: it counts the
// roles of every scope (one Query of the listing of all roles by name,
// projected to the organization), writes the counts, and then the ready
// item, from which on listings read the sorted items. A role created or
// deleted while this runs can leave a count off by one: run the repair
// when the service is quiet, or again.
func (s *Store) finishRoleListings(ctx context.Context) error {
	in, err := s.partitionQuery(indexGSI2, rolesPK, nil)
	if err != nil {
		return err
	}
	project(in, "organizationGUID")
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return err
	}
	counts := map[string]int64{}
	for _, it := range items {
		var rec struct {
			OrganizationGUID string `dynamodbav:"organizationGUID"`
		}
		if err := unmarshal(it, &rec); err != nil {
			return err
		}
		for _, scope := range roleScopesOf(domain.Role{OrganizationGUID: rec.OrganizationGUID}) {
			counts[scope]++
		}
	}
	if _, ok := counts[roleScopeAll]; !ok {
		counts[roleScopeAll] = 0
	}
	records := make([]any, 0, len(counts)+1)
	for scope, n := range counts {
		records = append(records, roleCountRecord{itemKey: roleCountKey(scope), Entity: entityRoleCount, Value: n})
	}
	if err := s.batchPutAll(ctx, records); err != nil {
		return err
	}
	return s.batchPutAll(ctx, []any{roleReadyRecord{itemKey: roleListingReadyKey, Entity: entityRoleReady}})
}
