package dynamo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// The counters a seed adds to (the user count, the member counters of roles
// seeded before, the organizations' user counts) are additions, which a
// repeated write would count twice. A seed that stopped half-way (a load
// resumed after its process died) is written again whole: its puts are the
// same items again, and its counter additions go in transactions of up to
// seedCountsPerTxn, each with a guard item named after the seed's ids and the
// transaction's place among them, which must not exist yet. A transaction
// whose guard is there was applied before and is skipped, so a seed written
// twice counts once.

// seedCountsPerTxn leaves room for the guard item in a transaction.
const seedCountsPerTxn = maxTransactionItems - 1

// seedCountsGuardTTL: the guard only has to outlive a retry of its seed.
const seedCountsGuardTTL = 7 * 24 * time.Hour

const entitySeedCountsGuard = "SeedCountsGuard"

var errSeedCountsApplied = errors.New("seed counts applied before")

type seedCountsGuardRecord struct {
	itemKey
	Entity string `dynamodbav:"entity"`
	TTL    int64  `dynamodbav:"ttl"`
}

// seedIdentity names a seed by its ids (fresh for every seed, by Seed's contract).
func seedIdentity(seed domain.Seed) string {
	h := sha256.New()
	for _, r := range seed.Roles {
		fmt.Fprintf(h, "r%d,", r.ID)
	}
	for _, u := range seed.Users {
		fmt.Fprintf(h, "u%d,", u.ID)
	}
	for _, ur := range seed.UserRoles {
		fmt.Fprintf(h, "m%d,", ur.ID)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// addSeedCounts applies the seed's counter additions, s.seedWriters
// transactions at a time; the first error stops the others.
func (s *Store) addSeedCounts(ctx context.Context, seed domain.Seed, adds []counterAdd) error {
	if len(adds) == 0 {
		return nil
	}
	adds = slices.Clone(adds)
	slices.SortFunc(adds, func(a, b counterAdd) int { return compareKeys(a.key, b.key) })
	identity := seedIdentity(seed)
	expires := s.now().Add(seedCountsGuardTTL).Unix()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	parts := make(chan int)
	var wg sync.WaitGroup
	for range s.seedWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for part := range parts {
				chunk := adds[part*seedCountsPerTxn : min((part+1)*seedCountsPerTxn, len(adds))]
				if err := s.addSeedCountsOnce(ctx, identity, part, expires, chunk); err != nil {
					cancel(err)
				}
			}
		}()
	}
send:
	for part := 0; part*seedCountsPerTxn < len(adds); part++ {
		select {
		case parts <- part:
		case <-ctx.Done():
			break send
		}
	}
	close(parts)
	wg.Wait()
	return context.Cause(ctx)
}

// addSeedCountsOnce applies one transaction of additions unless its guard
// shows it was applied before.
func (s *Store) addSeedCountsOnce(ctx context.Context, identity string, part int, expires int64, adds []counterAdd) error {
	t := s.newTxn()
	guard := seedCountsGuardRecord{itemKey: itemKey{PK: "SEEDCOUNTS#" + identity, SK: id(int64(part))},
		Entity: entitySeedCountsGuard, TTL: expires}
	t.putNew(guard, always(errSeedCountsApplied))
	for _, c := range adds {
		t.count(c)
	}
	err := t.commit(ctx)
	if errors.Is(err, errSeedCountsApplied) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("count seeded items: %w", err)
	}
	return nil
}
