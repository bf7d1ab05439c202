package service

import (
	"context"
	"strings"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
)

// maxFailedListed bounds one listing of dead letters.
const maxFailedListed = 1000

// FailedDeliveries lists the dead-lettered deliveries of an SP, oldest
// first (super users only).
func (s *Service) FailedDeliveries(ctx context.Context, p *auth.Principal, spID string) ([]domain.Delivery, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	if spID == "" {
		return nil, domain.Invalidf("sp is required")
	}
	return s.Store.ListFailedDeliveries(ctx, spID, maxFailedListed)
}

// FailedOverview is every dead letter with counts per SP and per reason.
type FailedOverview struct {
	Deliveries []domain.Delivery
	BySP       map[string]int
	ByReason   map[string]int
	// Truncated is set when more than maxFailedListed are dead-lettered:
	// the counts are of the oldest ones listed.
	Truncated bool
}

// FailedDeliveriesOfAllSPs lists the dead letters of every SP, oldest
// first, and counts them per SP and per reason (ReasonClass), so that an
// operator sees at once which SP refuses what (super users only).
func (s *Service) FailedDeliveriesOfAllSPs(ctx context.Context, p *auth.Principal) (FailedOverview, error) {
	if err := requireSuperUser(p); err != nil {
		return FailedOverview{}, err
	}
	ds, err := s.Store.ListFailedDeliveries(ctx, "", maxFailedListed+1)
	if err != nil {
		return FailedOverview{}, err
	}
	o := FailedOverview{BySP: map[string]int{}, ByReason: map[string]int{}, Truncated: len(ds) > maxFailedListed}
	o.Deliveries = ds[:min(len(ds), maxFailedListed)]
	for _, d := range o.Deliveries {
		o.BySP[d.SPID]++
		o.ByReason[ReasonClass(d.LastError)]++
	}
	return o, nil
}

// ReasonClass groups dead-letter reasons: the SP's answer without the
// request it was given ("scim POST /Users/42: 401 Unauthorized: ..." is
// "401 Unauthorized"), or the first clause of another error.
func ReasonClass(reason string) string {
	r := strings.TrimSpace(reason)
	if r == "" {
		return "unknown"
	}
	for {
		rest, ok := strings.CutPrefix(r, "gave up after ")
		if !ok {
			break
		}
		if _, after, found := strings.Cut(rest, ": "); found {
			r = after
			continue
		}
		break
	}
	if strings.HasPrefix(r, "scim ") {
		if _, after, found := strings.Cut(r, ": "); found {
			r = after
		}
	}
	if head, _, found := strings.Cut(r, ": "); found {
		r = head
	}
	return r
}

// Selection names dead letters: some by id, or all of an SP.
type Selection struct {
	IDs  []string
	SPID string
}

// Replay puts dead-lettered deliveries back on the queue, in their original
// order per SP, once the cause is fixed (credentials, the SP's schema). The
// provisioner reads the current state, so replaying an old delivery brings
// the SP in line with today's service, not with the past.
func (s *Service) Replay(ctx context.Context, p *auth.Principal, sel Selection) (int, error) {
	failed, err := s.selectFailed(ctx, p, sel)
	if err != nil || len(failed) == 0 {
		return 0, err
	}
	for i := range failed {
		failed[i].Status, failed[i].Replays, failed[i].UpdatedAt = domain.DeliveryPending, failed[i].Replays+1, s.now()
		if err := s.Store.UpdateDeliveryStatus(ctx, failed[i]); err != nil {
			return i, err
		}
	}
	// Pending now: if the queue is down, the outbox sweep sends them later.
	s.dispatch(ctx, failed)
	return len(failed), nil
}

// Discard drops dead-lettered deliveries that must not be replayed.
func (s *Service) Discard(ctx context.Context, p *auth.Principal, sel Selection) (int, error) {
	failed, err := s.selectFailed(ctx, p, sel)
	if err != nil {
		return 0, err
	}
	for i, d := range failed {
		d.Status, d.UpdatedAt = domain.DeliveryDiscarded, s.now()
		if err := s.Store.UpdateDeliveryStatus(ctx, d); err != nil {
			return i, err
		}
	}
	return len(failed), nil
}

func (s *Service) selectFailed(ctx context.Context, p *auth.Principal, sel Selection) ([]domain.Delivery, error) {
	if err := requireSuperUser(p); err != nil {
		return nil, err
	}
	switch {
	case len(sel.IDs) > 0 && sel.SPID != "":
		return nil, domain.Invalidf("name deliveries by ids or by sp, not both")
	case sel.SPID != "":
		return s.Store.ListFailedDeliveries(ctx, sel.SPID, maxFailedListed)
	case len(sel.IDs) == 0:
		return nil, domain.Invalidf("ids or sp is required")
	}
	out := make([]domain.Delivery, 0, len(sel.IDs))
	for _, id := range sel.IDs {
		d, err := s.Store.GetDelivery(ctx, id)
		if err != nil {
			return nil, err
		}
		if d.Status != domain.DeliveryFailed {
			return nil, domain.Conflictf("delivery %s is %s, not failed", id, d.Status)
		}
		out = append(out, d)
	}
	return out, nil
}

func requireSuperUser(p *auth.Principal) error {
	switch {
	case p == nil:
		return domain.Unauthenticatedf("authentication required")
	case !p.SuperUser:
		return domain.Forbiddenf("super users only")
	}
	return nil
}
