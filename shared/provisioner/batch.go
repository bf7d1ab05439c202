package provisioner

import (
	"context"
	"sync"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/sqs"
)

// batch is what the deliveries of one SQS batch share: the items they are
// about, read in one request when the batch starts (instead of a GetItem per
// item and delivery), and their outcomes (the links of users its lines
// created at PATCH SPs, final statuses and audit entries), written in one
// request when it ends (instead of up to three writes per delivery, each
// in the way of the next delivery of its line).
//
// It holds only what can be trusted for the batch's short life: users,
// roles and memberships as read at its start (their changes come as later
// deliveries of the same line); SP links that name a resource at the SP,
// kept up to date by the batch's own link writes; and, for the line of a
// user or group (domain.ResourceLine), its own link as read at the start,
// even when absent or naming nothing, because that line is where the
// resource is created: no other line stores a creation of it meanwhile.
// (A group.update to an SP new to a role also creates the role's members,
// and a reconcile run repairs; should either race a user's own creation,
// the SP's 409 on the second POST adopts the first, and a reconcile run
// removes a duplicate at an SP that allowed one.) Other lines never see an
// absent link from the batch: waiting for another line's creation always
// reads the stored link. A repair after a drift answer forgets what the
// batch holds of links (forgetLinks).
type batch struct {
	mu        sync.Mutex
	users     map[int64]domain.User
	roles     map[int64]domain.Role
	userRoles map[domain.UserRoleKey]domain.UserRole
	links     map[domain.SPLinkKey]domain.SPLink
	own       map[domain.SPLinkKey]ownLink     // a line's own link, served to that line only
	created   map[domain.SPLinkKey]createdLink // links of creations, stored with the outcomes (see storeCreated)
	finished  []domain.Delivery                // delivered, never replayed (see recordDelivered)
	audits    []domain.AuditEntry
}

// ownLink is a line's own link as the batch read it; found is false when
// there was none.
type ownLink struct {
	link  domain.SPLink
	found bool
}

type batchKey struct{}

func batchOf(ctx context.Context) *batch {
	b, _ := ctx.Value(batchKey{}).(*batch)
	return b
}

// startBatch reads what the batch's deliveries are about and returns a
// context that carries it. A failed read only costs the reads it would have
// saved: each delivery then reads for itself.
func (p *Provisioner) startBatch(ctx context.Context, records []events.SQSMessage) (context.Context, *batch) {
	b := &batch{users: map[int64]domain.User{}, roles: map[int64]domain.Role{},
		userRoles: map[domain.UserRoleKey]domain.UserRole{}, links: map[domain.SPLinkKey]domain.SPLink{},
		own: map[domain.SPLinkKey]ownLink{}, created: map[domain.SPLinkKey]createdLink{}}
	var q domain.SubjectsQuery
	var owned []domain.SPLinkKey
	for _, m := range records {
		d, err := sqs.DecodeDelivery(m.Body)
		if err != nil {
			continue // handleMessage dead-letters it
		}
		if k, ok := ownLinkOf(d, m.Attributes["MessageGroupId"]); ok {
			owned = append(owned, k)
		}
		if d.UserID != 0 {
			q.Users = append(q.Users, d.UserID)
			q.Links = append(q.Links, domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: d.UserID, SPID: d.SPID})
		}
		if d.RoleID != 0 {
			q.Roles = append(q.Roles, d.RoleID)
			q.Links = append(q.Links, domain.SPLinkKey{Kind: domain.ResourceGroup, LocalID: d.RoleID, SPID: d.SPID})
		}
		if d.Kind == domain.DeliverMemberAdd && d.UserID != 0 && d.RoleID != 0 {
			q.UserRoles = append(q.UserRoles, domain.UserRoleKey{UserID: d.UserID, RoleID: d.RoleID})
		}
	}
	if len(q.Links) == 0 { // no delivery names a user or role: nothing to read
		return context.WithValue(ctx, batchKey{}, b), b
	}
	got, err := p.Store.GetDeliverySubjects(ctx, q)
	if err != nil {
		p.log().WarnContext(ctx, "batch read failed; each delivery reads for itself", "error", err)
		return context.WithValue(ctx, batchKey{}, b), b
	}
	b.users, b.roles, b.userRoles = got.Users, got.Roles, got.UserRoles
	for k, l := range got.Links {
		if linkNamesResource(l) {
			b.links[k] = l
		}
	}
	for _, k := range owned {
		l, found := got.Links[k]
		b.own[k] = ownLink{link: l, found: found}
	}
	return context.WithValue(ctx, batchKey{}, b), b
}

// ownLinkOf is the link of the resource whose own line the delivery is in
// (its message group), if it is: a user's or a group's at the SP.
func ownLinkOf(d domain.Delivery, line string) (domain.SPLinkKey, bool) {
	switch {
	case d.UserID != 0 && line == domain.ResourceLine(domain.ResourceUser, d.SPID, d.UserID):
		return domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: d.UserID, SPID: d.SPID}, true
	case d.RoleID != 0 && line == domain.ResourceLine(domain.ResourceGroup, d.SPID, d.RoleID):
		return domain.SPLinkKey{Kind: domain.ResourceGroup, LocalID: d.RoleID, SPID: d.SPID}, true
	}
	return domain.SPLinkKey{}, false
}

type lineKey struct{}

// inLine marks ctx as that of the deliveries of one line (message group).
func inLine(ctx context.Context, line string) context.Context {
	return context.WithValue(ctx, lineKey{}, line)
}

func lineOf(ctx context.Context) string {
	line, _ := ctx.Value(lineKey{}).(string)
	return line
}

// flushOutcomes writes the outcomes the batch collected, in one request per
// 25, and returns the lines whose creations could not be recorded: their
// messages must be received again (a creation the service does not know of
// would be made twice). Should the one write fail, each link and status is
// written on its own, as it would have been outside a batch; the audit
// entries are then logged as lost (an audit write never undoes a delivery
// that happened).
func (p *Provisioner) flushOutcomes(ctx context.Context, b *batch) (unrecorded map[string]bool) {
	b.mu.Lock()
	o := domain.Outcomes{Delivered: b.finished, Audit: b.audits}
	created := b.created
	for _, c := range created {
		o.Links = append(o.Links, c.link)
	}
	b.finished, b.audits, b.created = nil, nil, map[domain.SPLinkKey]createdLink{}
	b.mu.Unlock()
	if o.Empty() {
		return nil
	}
	err := p.Store.RecordOutcomes(ctx, o)
	if err == nil {
		return nil
	}
	// The line names the batch's first delivery, under that delivery's
	// correlation id, so that it is found with the request that caused it.
	first, logCtx := "", ctx
	switch {
	case len(o.Audit) > 0:
		first, logCtx = o.Audit[0].DeliveryID, domain.WithCorrelationID(ctx, o.Audit[0].CorrelationID)
	case len(o.Delivered) > 0:
		first, logCtx = o.Delivered[0].ID, domain.WithCorrelationID(ctx, o.Delivered[0].CorrelationID)
	}
	p.log().WarnContext(logCtx, "provisioning outcomes not recorded at once; links and statuses one by one, audit lost",
		"links", len(o.Links), "deliveries", len(o.Delivered), "audit_entries", len(o.Audit), "delivery", first, "error", err)
	for _, c := range created {
		if err := p.Store.PutLink(ctx, c.link); err != nil {
			p.log().WarnContext(ctx, "created at the SP but not recorded; its line is received again",
				"sp", c.link.SPID, "kind", c.link.Kind, "local_id", c.link.LocalID, "error", err)
			if unrecorded == nil {
				unrecorded = map[string]bool{}
			}
			unrecorded[c.line] = true
		}
	}
	for _, d := range o.Delivered {
		p.finishOne(ctx, d)
	}
	return unrecorded
}

// recordDelivered records a delivered delivery's status: with the batch's
// outcomes when it is in a batch and was never replayed, else at once.
func (p *Provisioner) recordDelivered(ctx context.Context, d domain.Delivery) {
	if b := batchOf(ctx); b != nil && d.Replays == 0 {
		b.mu.Lock()
		b.finished = append(b.finished, d)
		b.mu.Unlock()
		return
	}
	p.finishOne(ctx, d)
}

// finishOne writes one final status: FinishDelivery's conditional write,
// or when that does not hold (a newer replay, or the item is gone),
// UpdateDeliveryStatus.
func (p *Provisioner) finishOne(ctx context.Context, d domain.Delivery) {
	ctx = domain.WithCorrelationID(ctx, d.CorrelationID)
	if ok, err := p.Store.FinishDelivery(ctx, d); err == nil && ok {
		return
	}
	if err := p.Store.UpdateDeliveryStatus(ctx, d); err != nil {
		p.log().WarnContext(ctx, "delivered but status not recorded", "delivery", d.ID, "error", err)
	}
}

// linkNamesResource says whether a link names a resource at the SP.
func linkNamesResource(l domain.SPLink) bool {
	return l.RemoteID != "" && l.Status != domain.StatusDeprovisioned
}

// getUser reads a user, from the batch when it holds it.
func (p *Provisioner) getUser(ctx context.Context, id int64) (domain.User, error) {
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		u, ok := b.users[id]
		b.mu.Unlock()
		if ok {
			return u, nil
		}
	}
	return p.Store.GetUser(ctx, id)
}

// getRole reads a role, from the batch when it holds it.
func (p *Provisioner) getRole(ctx context.Context, id int64) (domain.Role, error) {
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		r, ok := b.roles[id]
		b.mu.Unlock()
		if ok {
			return r, nil
		}
	}
	return p.Store.GetRole(ctx, id)
}

// getUserRole reads a membership, from the batch when it holds it.
func (p *Provisioner) getUserRole(ctx context.Context, userID, roleID int64) (domain.UserRole, error) {
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		ur, ok := b.userRoles[domain.UserRoleKey{UserID: userID, RoleID: roleID}]
		b.mu.Unlock()
		if ok {
			return ur, nil
		}
	}
	return p.Store.GetUserRole(ctx, userID, roleID)
}

// getLink reads a link, from the batch when it holds one that names a
// resource at the SP, or when it is the link of the caller's own line.
func (p *Provisioner) getLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, error) {
	if b := batchOf(ctx); b != nil {
		k := domain.SPLinkKey{Kind: kind, LocalID: localID, SPID: spID}
		b.mu.Lock()
		l, named := b.links[k]
		own, isOwn := b.own[k]
		b.mu.Unlock()
		switch {
		case named:
			return l, nil
		case isOwn && lineOf(ctx) == domain.ResourceLine(kind, spID, localID):
			if !own.found {
				return domain.SPLink{}, domain.NotFoundf("%s has no link to %s", resourceName(kind, localID), spID)
			}
			return own.link, nil
		}
	}
	return p.Store.GetLink(ctx, kind, localID, spID)
}

// putLink writes a link and keeps the batch's copy in step with it.
func (p *Provisioner) putLink(ctx context.Context, l domain.SPLink) error {
	err := p.Store.PutLink(ctx, l)
	if b := batchOf(ctx); b != nil {
		k := domain.SPLinkKey{Kind: l.Kind, LocalID: l.LocalID, SPID: l.SPID}
		b.mu.Lock()
		delete(b.created, k) // this write is newer
		delete(b.own, k)     // the store, or links, holds what follows
		if err == nil && linkNamesResource(l) {
			b.links[k] = l
		} else {
			delete(b.links, k)
		}
		b.mu.Unlock()
	}
	return err
}

// forgetLinks drops the batch's links, so that the next reads are fresh: a
// repair after a drift answer must see what other lines stored meanwhile
// (a repair made there), not what the batch read at its start. The
// creations the batch has not stored yet are stored first, so that the
// repair finds them too.
func (p *Provisioner) forgetLinks(ctx context.Context) {
	if b := batchOf(ctx); b != nil {
		p.storeCreatedNow(ctx, b)
		b.mu.Lock()
		clear(b.links)
		clear(b.own)
		b.mu.Unlock()
	}
}
