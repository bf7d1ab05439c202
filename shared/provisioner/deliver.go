package provisioner

import (
	"context"
	"fmt"

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
		err = p.deleteUser(ctx, client, sp, d.UserID, d.ExternalID, d.ID)
	case domain.DeliverMemberAdd:
		err = p.addMember(ctx, client, sp, d.RoleID, d.UserID, d.CreatedAt)
	case domain.DeliverMemberRemove:
		err = p.removeMember(ctx, client, sp, d.RoleID, d.UserID, d.ID)
	default:
		err = permanent("unknown delivery kind %q", d.Kind)
	}
	if err != nil {
		return fmt.Errorf("%s at %s: %w", d.Kind, d.SPID, err)
	}
	return nil
}
