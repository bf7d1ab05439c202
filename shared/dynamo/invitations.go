package dynamo

import (
	"context"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// CreateInvitations writes each invitation (version 1) with its role links,
// as many whole invitations per transaction as fit (a request with
// hundreds of recipients costs a few transactions, not one each); an
// invitation is all or nothing, the batch is not. The first failure stops
// the batch: the invitations of the transactions before it exist.
func (s *Store) CreateInvitations(ctx context.Context, invs []domain.Invitation) error {
	t := s.newTxn()
	for _, inv := range invs {
		if inv.ID == 0 || inv.HashDigest == "" {
			return domain.Invalidf("invitation without id or hash digest")
		}
		roles := distinctIDs(inv.RoleIDs)
		if len(t.items) > 0 && len(t.items)+1+len(roles) > maxTransactionItems {
			if err := t.commit(ctx); err != nil {
				return err
			}
			t = s.newTxn()
		}
		t.putNew(newInvitationRecord(inv, 1), always(domain.Conflictf("invitation %d already exists", inv.ID)))
		t.applyChanges(createdInvitation(inv))
	}
	if len(t.items) == 0 {
		return nil
	}
	return t.commit(ctx)
}

// GetInvitation reads one invitation.
func (s *Store) GetInvitation(ctx context.Context, invID int64) (domain.Invitation, error) {
	var rec invitationRecord
	found, err := s.getItem(ctx, invitationKey(invID), &rec)
	if err != nil {
		return domain.Invitation{}, err
	}
	if !found {
		return domain.Invitation{}, invitationNotFound(invID)
	}
	return rec.domain()
}

// GetInvitationByHashDigest finds an invitation by the digest of its secret.
// gsi1 is eventually consistent: an invitation created a moment ago may not
// be found yet, and the copy in the index may lag. The index is therefore
// used only to learn the id; the invitation itself is read consistently.
func (s *Store) GetInvitationByHashDigest(ctx context.Context, digest string) (domain.Invitation, error) {
	notFound := domain.NotFoundf("no invitation with this hash")
	if digest == "" {
		return domain.Invitation{}, notFound
	}
	in, err := s.partitionQuery(indexGSI1, invitationHashPK(digest), sortKeyIs(skInvitation))
	if err != nil {
		return domain.Invitation{}, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return domain.Invitation{}, err
	}
	if len(items) == 0 {
		return domain.Invitation{}, notFound
	}
	indexed, err := decodeInvitation(items[0])
	if err != nil {
		return domain.Invitation{}, err
	}
	inv, err := s.GetInvitation(ctx, indexed.ID)
	if domain.IsNotFound(err) {
		return domain.Invitation{}, notFound
	}
	return inv, err
}

// ListOpenInvitationsOfRole returns the open invitations that grant a role,
// by id. Expired invitations that nobody marked so are still OPEN here; the
// caller compares ExpiryDate.
func (s *Store) ListOpenInvitationsOfRole(ctx context.Context, roleID int64) ([]domain.Invitation, error) {
	in, err := s.partitionQuery(indexGSI1, prefixRole+id(roleID), sortKeyPrefix(prefixInvitation))
	if err != nil {
		return nil, err
	}
	items, err := s.openLinkedInvitations(ctx, in)
	if err != nil {
		return nil, err
	}
	invs, err := invitationsByID(items)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(invs, func(inv domain.Invitation) bool { return inv.Status != domain.InvitationOpen }), nil
}

func invitationNotFound(invID int64) error {
	return domain.NotFoundf("invitation %d not found", invID)
}

func distinctIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// linkedInvitations runs a query of link items that carry an invitationId
// (a role's or a CRM contact's) and reads the invitations they name
// (BatchGetItem); invitations that are gone are left out.
func (s *Store) linkedInvitations(ctx context.Context, in *dynamodb.QueryInput) ([]item, error) {
	links, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	keys := make([]itemKey, 0, len(links))
	for _, av := range links {
		var link struct {
			InvitationID int64 `dynamodbav:"invitationId"`
		}
		if err := unmarshal(av, &link); err != nil {
			return nil, err
		}
		keys = append(keys, invitationKey(link.InvitationID))
	}
	return s.batchGet(ctx, keys)
}
