package dynamo

import (
	"context"
	"sync"
)

// auditIDBlock is how many audit ids a store reserves at a time for the
// provisioner's entries: at a thousand deliveries a second the sequence
// item is updated about once a second, not once per batch (every batch of
// every consumer would otherwise wait in line for that one item).
const auditIDBlock = 1000

// idBlock hands out ids of one sequence from a block reserved with one
// update of the sequence item. Ids left in a block when the process ends are
// never used: ids are unique, not gapless, and ids from two processes'
// blocks are not in time order (provisioning entries are ordered by time
// and delivery, not by id; see auditRecord).
type idBlock struct {
	sequence string
	size     int

	mu         sync.Mutex
	next, last int64 // next id to hand out, last one reserved; next > last when empty
}

func newIDBlock(sequence string, size int) *idBlock {
	return &idBlock{sequence: sequence, size: size, next: 1, last: 0}
}

// take returns n unique ids, reserving a new block when the current one
// runs out (a block of at least n, so one reservation covers the call).
func (b *idBlock) take(ctx context.Context, s *Store, n int) ([]int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := make([]int64, 0, n)
	for b.next <= b.last && len(ids) < n {
		ids = append(ids, b.next)
		b.next++
	}
	if missing := n - len(ids); missing > 0 {
		size := max(b.size, missing)
		first, err := s.NextIDs(ctx, b.sequence, size)
		if err != nil {
			return nil, err
		}
		b.next, b.last = first, first+int64(size)-1
		for range missing {
			ids = append(ids, b.next)
			b.next++
		}
	}
	return ids, nil
}
