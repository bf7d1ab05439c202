package provisioner

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// Deliver brings one SP in line for one delivery.
func (p *Provisioner) Deliver(ctx context.Context, d domain.Delivery) error {
	client, sp, err := p.Clients.Client(ctx, d.SPID)
	if err != nil {
		return err
	}
	// A redelivery or a replay may follow an attempt whose creation reached
	// the SP: only then do creations look the resource up first.
	ctx = withRetry(ctx, d.Attempts > 1 || d.Replays > 0)
	switch d.Kind {
	case domain.DeliverGroupCreate:
		_, _, err = p.ensureGroup(ctx, client, sp, d.RoleID, true)
	case domain.DeliverGroupDelete:
		err = p.deleteGroup(ctx, client, sp, d.RoleID, d.ExternalID)
	case domain.DeliverGroupUpdate:
		err = p.updateGroup(ctx, client, sp, d.RoleID)
	case domain.DeliverUserCreate:
		_, _, err = p.ensureUser(ctx, client, sp, d.UserID, true)
	case domain.DeliverUserUpdate:
		err = p.updateUser(ctx, client, sp, d.UserID)
	case domain.DeliverUserDelete:
		err = p.deleteUser(ctx, client, sp, d.UserID, d.ExternalID)
	case domain.DeliverMemberAdd:
		err = p.addMember(ctx, client, sp, d.RoleID, d.UserID)
	case domain.DeliverMemberRemove:
		err = p.removeMember(ctx, client, sp, d.RoleID, d.UserID)
	default:
		err = permanent("unknown delivery kind %q", d.Kind)
	}
	if err != nil {
		return fmt.Errorf("%s at %s: %w", d.Kind, d.SPID, err)
	}
	return nil
}

// activeLink returns the SP-side id of a resource, or "" when it does not
// exist there (never created, or deprovisioned).
func (p *Provisioner) activeLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, string, error) {
	l, err := p.Store.GetLink(ctx, kind, localID, spID)
	if domain.IsNotFound(err) {
		return domain.SPLink{Kind: kind, LocalID: localID, SPID: spID}, "", nil
	}
	if err != nil {
		return l, "", err
	}
	if l.Status == domain.StatusDeprovisioned {
		return l, "", nil
	}
	return l, l.RemoteID, nil
}

func (p *Provisioner) storeProvisioned(ctx context.Context, l domain.SPLink, remoteID string) error {
	now := p.now()
	if l.RemoteID != remoteID || l.ProvisionedAt == nil {
		l.ProvisionedAt = &now
	}
	l.RemoteID, l.Status, l.UpdatedAt, l.LastError, l.Attempts = remoteID, domain.StatusProvisioned, now, "", 0
	return p.Store.PutLink(ctx, l)
}

func (p *Provisioner) storeDeprovisioned(ctx context.Context, l domain.SPLink) error {
	l.RemoteID, l.Status, l.UpdatedAt, l.LastError = "", domain.StatusDeprovisioned, p.now(), ""
	return p.Store.PutLink(ctx, l)
}

// awaitLink waits up to awaitCreation for another line to store the
// SP-side id of a resource, and returns it, or errNotCreatedYet.
func (p *Provisioner) awaitLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (string, error) {
	deadline := time.Now().Add(awaitCreation)
	for time.Now().Before(deadline) {
		t := time.NewTimer(50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", ctx.Err()
		case <-t.C:
		}
		_, remoteID, err := p.activeLink(ctx, kind, localID, spID)
		if err != nil || remoteID != "" {
			return remoteID, err
		}
	}
	return "", errNotCreatedYet
}
