package service

import (
	"context"
	"reflect"
	"sync"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// Pages name organizations on nearly every view; the stored names are
// read once per organizationsFresh per process (per store) rather than on
// every page, so a page costs no extra request. A rename shows at once in
// the process that made it and within organizationsFresh elsewhere.
const organizationsFresh = 30 * time.Second

type organizationSnapshot struct {
	items []domain.Organization
	at    time.Time
}

// organizationSnapshots holds one snapshot per store.
var organizationSnapshots sync.Map // domain.Store -> *organizationSnapshot

// snapshotKey is the store as a key of organizationSnapshots: only a
// pointer is (a store of another kind, as some tests wrap one, is read
// every time).
func (s *Service) snapshotKey() (any, bool) {
	return s.Store, s.Store != nil && reflect.TypeOf(s.Store).Kind() == reflect.Pointer
}

// storedOrganizations are the stored organizations, from the snapshot
// while it is fresh.
func (s *Service) storedOrganizations(ctx context.Context) ([]domain.Organization, error) {
	key, cached := s.snapshotKey()
	if !cached {
		return s.Store.ListOrganizations(ctx)
	}
	if v, ok := organizationSnapshots.Load(key); ok {
		if snap := v.(*organizationSnapshot); time.Since(snap.at) < organizationsFresh {
			return snap.items, nil
		}
	}
	items, err := s.Store.ListOrganizations(ctx)
	if err != nil {
		return nil, err
	}
	organizationSnapshots.Store(key, &organizationSnapshot{items: items, at: time.Now()})
	return items, nil
}

// organizationsChanged drops the snapshot after a write of this process.
func (s *Service) organizationsChanged() {
	if key, cached := s.snapshotKey(); cached {
		organizationSnapshots.Delete(key)
	}
}
