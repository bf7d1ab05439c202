package dynamo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// batchWriteLimit is DynamoDB's maximum number of writes per BatchWriteItem.
const batchWriteLimit = 25

// Seed implements domain.UserSearchStore (S1): roles with their unique
// names and application links, users with their sub reservations and the
// same index items as every other user write (so seeded users are
// searchable), and memberships, 25 puts per BatchWriteItem. The writes are
// not conditional and not atomic: the caller gives fresh ids. No
// deliveries are written: seed data are never provisioned.
func (s *Store) Seed(ctx context.Context, seed domain.Seed) error {
	var records []any
	users := make(map[int64]domain.User, len(seed.Users)) // every membership's user is seeded (checked below)
	for _, u := range seed.Users {
		users[u.ID] = u
	}
	st := newProjectionState()
	seededShards := map[itemKey]*roleMemberCountRecord{} // the counters of seeded roles are written whole, exact
	changes := make([]change, 0, len(seed.Roles)+len(seed.Users)+len(seed.UserRoles))
	for _, r := range seed.Roles {
		if err := checkRole(r); err != nil {
			return err
		}
		role := newRoleRecord(r, 1)
		role.MembersListed, role.MembersSided = true, true
		records = append(records, role, newRoleNameRecord(r))
		for _, manageID := range r.ManageIDs() {
			records = append(records, newAppLinkRecord(r, manageID))
		}
		st.roleOrgs[r.ID] = r.OrganizationGUID
		// Its member counter, listing items and role counts (and, for role
		// 1, a fresh table's ready item) are the projection's, as for CreateRole.
		changes = append(changes, createdRole(r))
	}
	for _, u := range seed.Users {
		changes = append(changes, createdUser(u))
	}
	for _, ur := range seed.UserRoles {
		u, ok := users[ur.UserID]
		if !ok {
			return domain.Invalidf("seeded membership %d is of user %d, who is not seeded", ur.ID, ur.UserID)
		}
		changes = append(changes, addedMembership(ur, u))
	}
	st, err := s.readProjectionState(ctx, st, changes) // the organizations of roles not in the seed
	if err != nil {
		return err
	}
	p := projectChanges(st, changes...)
	for _, u := range seed.Users {
		userItem, err := newUserItem(u, p.firstRoles[u.ID])
		if err != nil {
			return err
		}
		records = append(records, userItem, newUserSubRecord(u))
	}
	for _, w := range p.writes { // new items only: no condition can fail, nothing is deleted
		if w.err != nil {
			return w.err
		}
		if rec, ok := w.put.(roleMemberCountRecord); ok {
			seededShards[rec.itemKey] = &rec
			records = append(records, &rec)
		} else if w.put != nil {
			records = append(records, w.put)
		}
	}
	var adds []counterAdd
	for _, c := range p.counts {
		if rec, ok := seededShards[c.key]; ok {
			rec.Value += c.n
		} else {
			adds = append(adds, c)
		}
	}
	if err := s.batchPutAll(ctx, records); err != nil {
		return err
	}
	return s.addSeedCounts(ctx, seed, adds)
}

// DefaultSeedWriters is how many BatchWriteItem (and counter transaction)
// calls the seed has in flight: the load is bound by round trips, not by the
// table's capacity (on-demand), and a bound keeps DynamoDB Local and the
// Lambda's connections from being flooded.
const DefaultSeedWriters = 8

// SetSeedWriters changes how many writes the seed has in flight
// (DefaultSeedWriters); n < 1 keeps the default. For measuring the load.
func (s *Store) SetSeedWriters(n int) {
	if n >= 1 {
		s.seedWriters = n
	}
}

// batchPutAll writes records in batches of 25, s.seedWriters at a time; the
// first error stops the others.
func (s *Store) batchPutAll(ctx context.Context, records []any) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	batches := make(chan []any)
	var wg sync.WaitGroup
	for range s.seedWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range batches {
				if err := s.batchPut(ctx, batch); err != nil {
					cancel(err)
				}
			}
		}()
	}
send:
	for start := 0; start < len(records); start += batchWriteLimit {
		select {
		case batches <- records[start:min(start+batchWriteLimit, len(records))]:
		case <-ctx.Done():
			break send
		}
	}
	close(batches)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return nil
}

// batchPut writes up to 25 items, retrying unprocessed ones with a growing pause.
func (s *Store) batchPut(ctx context.Context, records []any) error {
	reqs := make([]types.WriteRequest, 0, len(records))
	for _, rec := range records {
		av, err := marshal(rec)
		if err != nil {
			return err
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
	}
	pause := 20 * time.Millisecond
	for attempt := 0; len(reqs) > 0; attempt++ {
		if attempt > 0 {
			if attempt > 8 {
				return fmt.Errorf("batch write: %d items still unprocessed after %d attempts", len(reqs), attempt)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
			pause *= 2
		}
		out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{s.table: reqs}})
		if err != nil {
			return fmt.Errorf("batch write: %w", err)
		}
		reqs = out.UnprocessedItems[s.table]
	}
	return nil
}
