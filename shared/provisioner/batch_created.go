package provisioner

import (
	"context"

	"github.com/edu-invite/invite/shared/domain"
)

// createdLink is the link of a resource a line created at the SP, to be
// stored with the batch's outcomes, and that line.
type createdLink struct {
	link domain.SPLink
	line string
}

// storeCreated records the SP-side id of a resource just created (or
// adopted) that no other line waits for (a user at a PATCH SP, whose
// memberships are in its own line). In a batch, in the resource's own
// line, the link is stored with the batch's outcomes when it ends, in the
// same request, rather than with a write of its own in the way of the
// line's next delivery: the line reads it from the batch meanwhile. Should
// a crash lose it, the line is received again and, being a retry, looks the
// resource up before creating it. A link other lines wait for is stored at
// once: two batches each holding a link the other waits for would wait for
// each other. Outside its own line (a group line creating a member at an SP
// new to its role) or outside a batch, it is stored at once too.
func (p *Provisioner) storeCreated(ctx context.Context, l domain.SPLink, remoteID string) error {
	b := batchOf(ctx)
	line := domain.ResourceLine(l.Kind, l.SPID, l.LocalID)
	if b == nil || lineOf(ctx) != line {
		return p.storeProvisioned(ctx, l, remoteID)
	}
	l = provisioned(l, remoteID, p.now())
	k := domain.SPLinkKey{Kind: l.Kind, LocalID: l.LocalID, SPID: l.SPID}
	b.mu.Lock()
	b.created[k] = createdLink{link: l, line: line}
	b.links[k] = l
	b.own[k] = ownLink{link: l, found: true}
	b.mu.Unlock()
	return nil
}

// storeCreatedNow stores the links of the batch's creations at once (before
// a repair reads the store); those that fail stay for the batch's end.
func (p *Provisioner) storeCreatedNow(ctx context.Context, b *batch) {
	b.mu.Lock()
	pending := make([]createdLink, 0, len(b.created))
	for _, c := range b.created {
		pending = append(pending, c)
	}
	b.mu.Unlock()
	for _, c := range pending {
		if err := p.Store.PutLink(ctx, c.link); err != nil {
			continue
		}
		k := domain.SPLinkKey{Kind: c.link.Kind, LocalID: c.link.LocalID, SPID: c.link.SPID}
		b.mu.Lock()
		if cur, ok := b.created[k]; ok && cur.link == c.link {
			delete(b.created, k)
		}
		b.mu.Unlock()
	}
}

// creationUnstored reports whether the resource's link is one this batch
// created and has not stored yet: no other line has seen it.
func (p *Provisioner) creationUnstored(ctx context.Context, k domain.SPLinkKey) bool {
	b := batchOf(ctx)
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.created[k]
	return ok
}
