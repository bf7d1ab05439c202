package provisioner

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// The link of a resource records whether and under which id it exists at an
// SP. The workers of every delivery kind read and store it through these
// helpers; the dispatcher (deliver.go) only routes.

// activeLink returns the SP-side id of a resource, or "" when it does not
// exist there (never created, or deprovisioned).
func (p *Provisioner) activeLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, string, error) {
	l, err := p.getLink(ctx, kind, localID, spID)
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
	return p.putLink(ctx, provisioned(l, remoteID, p.now()))
}

// provisioned is the link of a resource that is at the SP under remoteID
// as of now (provisioned since now when the id is new).
func provisioned(l domain.SPLink, remoteID string, now time.Time) domain.SPLink {
	if l.RemoteID != remoteID || l.ProvisionedAt == nil {
		l.ProvisionedAt = &now
	}
	l.RemoteID, l.Status, l.UpdatedAt, l.LastError, l.Attempts = remoteID, domain.StatusProvisioned, now, "", 0
	return l
}

func (p *Provisioner) storeDeprovisioned(ctx context.Context, l domain.SPLink) error {
	l.RemoteID, l.Status, l.UpdatedAt, l.LastError = "", domain.StatusDeprovisioned, p.now(), ""
	return p.putLink(ctx, l)
}

// settleNeverCreated ends the link of a resource whose deletion found it
// absent at the SP (the look-up found nothing): a creation that was still
// being retried (pending) or was dead-lettered (failed) when the resource
// left the service never reached the SP and never will, since its retry
// finds the resource gone. The link says deprovisioned, as after any
// deletion, instead of pending for ever. A resource without a link, or
// already deprovisioned, is left as it is.
func (p *Provisioner) settleNeverCreated(ctx context.Context, l domain.SPLink) error {
	if l.Status == "" || l.Status == domain.StatusDeprovisioned {
		return nil
	}
	return p.storeDeprovisioned(ctx, l)
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

// ensureResource is the one create-or-adopt path of users and groups: it
// returns the SP-side id of a resource when its link has one. Otherwise
// only the resource's own line (create) makes it, through make, which
// returns exists false when the resource is gone from the service; other
// lines wait for the link that line stores, unless the creation was
// dead-lettered. awaited says whether other lines may be waiting for the
// link (see storeCreated).
func (p *Provisioner) ensureResource(ctx context.Context, kind domain.ResourceKind, localID int64, spID string, create, awaited bool,
	make func(lookFirst bool) (remoteID string, exists bool, err error)) (string, bool, error) {
	link, remoteID, err := p.activeLink(ctx, kind, localID, spID)
	if err != nil || remoteID != "" {
		return remoteID, err == nil, err
	}
	if !create {
		if link.Status == domain.StatusFailed {
			// Its creation was dead-lettered: a replay of it comes first.
			return "", false, permanent("%s is not at the SP: its creation failed: %s", resourceName(kind, localID), link.LastError)
		}
		remoteID, err = p.awaitLink(ctx, kind, localID, spID)
		return remoteID, err == nil, err
	}
	remoteID, exists, err := make(mayExistAlready(ctx, link))
	if err != nil || !exists {
		return "", false, err
	}
	if awaited {
		return remoteID, true, p.storeProvisioned(ctx, link, remoteID)
	}
	return remoteID, true, p.storeCreated(ctx, link, remoteID)
}

// resourceName names a resource in an error: "the user 7", "the group of
// role 3".
func resourceName(kind domain.ResourceKind, localID int64) string {
	if kind == domain.ResourceGroup {
		return fmt.Sprintf("the group of role %d", localID)
	}
	return fmt.Sprintf("the user %d", localID)
}
