package provisioner

import (
	"context"
	"fmt"
	"time"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/scim"
)

// At a PATCH SP a member is added by its own line (the user's), and also by
// a group's update and the repairs, which add every current member the SP
// lacks: that can be a member whose own add is still queued. The own add,
// a first attempt, does not look before adding (that would cost a request
// per acceptance), so an SP whose PATCH add is not idempotent would then
// hold the member twice. Two rules keep each member once:
//
//   - a line that adds members other than its own notes it on the group's
//     link (MembersAddedAt) before it adds, and reads the group after, and
//     collapses what it finds twice;
//   - a member's own add reads that note after its PATCH; when the note may
//     be of an add that saw this membership, it reads the group too.
//
// Whichever of the two adds reaches the SP last is thus followed by a read
// that sees both. The own add of a user this batch created reads nothing:
// its link is stored when the batch ends, after the PATCH, and the other
// lines add only members whose link they see.

// clockSkew is how far the clocks of the functions that write a delivery
// and that add members may differ; a note older than the delivery by more
// cannot be of an add that saw its membership.
const clockSkew = 5 * time.Minute

// noteMembersAdded records on the group's link l (read from the store) that
// this line is about to add members at the SP, and returns the link as
// stored.
func (p *Provisioner) noteMembersAdded(ctx context.Context, l domain.SPLink) (domain.SPLink, error) {
	now := p.now()
	l.MembersAddedAt = &now
	return l, p.putLink(ctx, l)
}

// noteMembersAddedTo is noteMembersAdded for the group of a role, its link
// read now.
func (p *Provisioner) noteMembersAddedTo(ctx context.Context, roleID int64, spID string) error {
	l, err := p.Store.GetLink(ctx, domain.ResourceGroup, roleID, spID)
	if err != nil {
		return err
	}
	_, err = p.noteMembersAdded(ctx, l)
	return err
}

// settleOwnAdd makes a member its own line has just added appear once at
// the SP when another line may have added it as well (see above). queuedAt
// is when the delivery was written; zero reads the group whenever a note
// exists.
func (p *Provisioner) settleOwnAdd(ctx context.Context, c SCIMClient, sp domain.ServiceProvider, roleID, userID int64, groupID string,
	member []scim.Member, queuedAt time.Time) error {
	if p.creationUnstored(ctx, domain.SPLinkKey{Kind: domain.ResourceUser, LocalID: userID, SPID: sp.ID}) {
		return nil
	}
	l, err := p.Store.GetLink(ctx, domain.ResourceGroup, roleID, sp.ID)
	if domain.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !mayHaveAddedSince(l, queuedAt) {
		return nil
	}
	held, err := timesMember(ctx, c, groupID, member[0].Value)
	if isDrift(err) || (err == nil && held <= 1) {
		return nil // a lost group is rebuilt by the line that meets it
	}
	if err != nil {
		return err
	}
	if err := collapseRepeatedMembers(ctx, c, groupID, member); err != nil && !isDrift(err) {
		return err
	}
	return nil
}

// mayHaveAddedSince reports whether the group's link notes an add by
// another line that may have seen a membership whose delivery was written
// at queuedAt: such a line reads the memberships after they are written
// and notes the add after reading them.
func mayHaveAddedSince(l domain.SPLink, queuedAt time.Time) bool {
	if l.MembersAddedAt == nil {
		return false
	}
	return queuedAt.IsZero() || !l.MembersAddedAt.Before(queuedAt.Add(-clockSkew))
}

// timesMember counts how often the group at the SP holds the user: a retry
// of an add whose answer was lost checks before it adds again, and a
// member held twice is collapsed.
func timesMember(ctx context.Context, c SCIMClient, groupID, userRemoteID string) (int, error) {
	g, err := c.GetGroup(ctx, groupID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range g.Members {
		if m.Value == userRemoteID {
			n++
		}
	}
	return n, nil
}

// collapseRepeatedMembers makes each of the given members appear once at
// the SP. A remove takes every copy, so a member held twice is removed and
// added once again. Two lines collapsing the same member at once can both
// add it after both removed it: the group is read once more, and a member
// still held twice fails this attempt, whose retry looks first.
func collapseRepeatedMembers(ctx context.Context, c SCIMClient, groupID string, added []scim.Member) error {
	repeated, err := repeatedMembers(ctx, c, groupID, added)
	if err != nil || len(repeated) == 0 {
		return err
	}
	if err := c.PatchGroupMembers(ctx, groupID, scim.PatchRemove, repeated); err != nil {
		return err
	}
	if err := c.PatchGroupMembers(ctx, groupID, scim.PatchAdd, repeated); err != nil {
		return err
	}
	still, err := repeatedMembers(ctx, c, groupID, repeated)
	if err != nil {
		return err
	}
	if len(still) > 0 {
		return fmt.Errorf("group %s still holds %d members twice after collapsing them", groupID, len(still))
	}
	return nil
}

// repeatedMembers are those of the given members that the group at the SP
// holds more than once.
func repeatedMembers(ctx context.Context, c SCIMClient, groupID string, of []scim.Member) ([]scim.Member, error) {
	atSP, err := c.GetGroup(ctx, groupID)
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, m := range atSP.Members {
		count[m.Value]++
	}
	var repeated []scim.Member
	for _, m := range of {
		if count[m.Value] > 1 {
			repeated = append(repeated, scim.Member{Value: m.Value})
		}
	}
	return repeated, nil
}
