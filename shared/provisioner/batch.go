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
// item and delivery), and their audit entries, written in one request when
// it ends. It holds only what can be trusted for the batch's short life:
// users, roles and memberships as read at its start (their changes come as
// later deliveries of the same line), and SP links that name a resource at
// the SP, kept up to date by this batch's own link writes. A link that is
// absent or names nothing is never cached: creating a resource, or waiting
// for another line to create it, always reads the stored link; and a repair
// after a drift answer forgets the links the batch holds (forgetLinks).
type batch struct {
	mu        sync.Mutex
	users     map[int64]domain.User
	roles     map[int64]domain.Role
	userRoles map[domain.UserRoleKey]domain.UserRole
	links     map[domain.SPLinkKey]domain.SPLink
	audits    []domain.AuditEntry
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
		userRoles: map[domain.UserRoleKey]domain.UserRole{}, links: map[domain.SPLinkKey]domain.SPLink{}}
	var q domain.SubjectsQuery
	for _, m := range records {
		d, err := sqs.DecodeDelivery(m.Body)
		if err != nil {
			continue // handleMessage dead-letters it
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
	reader, ok := p.Store.(SubjectsReader)
	if !ok {
		return context.WithValue(ctx, batchKey{}, b), b
	}
	got, err := reader.GetDeliverySubjects(ctx, q)
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
	return context.WithValue(ctx, batchKey{}, b), b
}

// flushAudits writes the audit entries the batch collected, in one request.
func (p *Provisioner) flushAudits(ctx context.Context, b *batch) {
	b.mu.Lock()
	entries := b.audits
	b.audits = nil
	b.mu.Unlock()
	if len(entries) == 0 {
		return
	}
	if err := p.Store.PutProvisioningAudit(ctx, entries); err != nil {
		p.log().WarnContext(ctx, "provisioning outcomes not audited", "count", len(entries), "delivery", entries[0].DeliveryID, "error", err)
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
// resource at the SP.
func (p *Provisioner) getLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, error) {
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		l, ok := b.links[domain.SPLinkKey{Kind: kind, LocalID: localID, SPID: spID}]
		b.mu.Unlock()
		if ok {
			return l, nil
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
// (a repair made there), not what the batch read at its start.
func (p *Provisioner) forgetLinks(ctx context.Context) {
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		clear(b.links)
		b.mu.Unlock()
	}
}
