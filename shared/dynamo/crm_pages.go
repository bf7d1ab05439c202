package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// ListCRMContactsAfter implements domain.CRMStore: a Query of the
// organisation's partition for at most limit contacts after the contact
// after, by contact id.
func (s *Store) ListCRMContactsAfter(ctx context.Context, organisationID, after string, limit int) ([]domain.CRMContact, bool, error) {
	in, err := s.partitionQuery("", crmOrganisationPK(organisationID), sortKeyPrefix(prefixCRMContact))
	if err != nil {
		return nil, false, err
	}
	if after != "" {
		in.ExclusiveStartKey = crmContactKey(organisationID, after).attributes()
	}
	items, more, err := s.queryUpTo(ctx, in, limit)
	if err != nil {
		return nil, false, err
	}
	contacts, err := decodeAll(items, decodeWith[crmContactRecord, domain.CRMContact])
	return contacts, more, err
}

// ListCRMInvitationLinksAfter implements domain.CRMStore: a Query of the
// organisation's partition for at most limit invitation links after the
// link after, by contact id and then invitation id; the invitations
// themselves are not read.
func (s *Store) ListCRMInvitationLinksAfter(ctx context.Context, organisationID string, after domain.CRMInvitationLink, limit int) ([]domain.CRMInvitationLink, bool, error) {
	in, err := s.partitionQuery("", crmOrganisationPK(organisationID), sortKeyPrefix(prefixCRMInvitationLink))
	if err != nil {
		return nil, false, err
	}
	if after.InvitationID != 0 {
		in.ExclusiveStartKey = crmInvitationLinkKey(organisationID, after.ContactID, after.InvitationID).attributes()
	}
	items, more, err := s.queryUpTo(ctx, in, limit)
	if err != nil {
		return nil, false, err
	}
	links := make([]domain.CRMInvitationLink, 0, len(items))
	for _, av := range items {
		var rec crmInvitationRecord
		if err := unmarshal(av, &rec); err != nil {
			return nil, false, err
		}
		links = append(links, domain.CRMInvitationLink{ContactID: rec.ContactID, InvitationID: rec.InvitationID})
	}
	return links, more, nil
}

// GetCRMInvitations implements domain.CRMStore: a BatchGetItem per 100
// invitations, by id.
func (s *Store) GetCRMInvitations(ctx context.Context, ids []int64) ([]domain.Invitation, error) {
	keys := make([]itemKey, 0, len(ids))
	for _, invID := range ids {
		keys = append(keys, invitationKey(invID))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	return invitationsByID(items)
}

// GetCRMContacts implements domain.CRMStore: a BatchGetItem per 100
// contacts of the organisation.
func (s *Store) GetCRMContacts(ctx context.Context, organisationID string, contactIDs []string) (map[string]domain.CRMContact, error) {
	keys := make([]itemKey, 0, len(contactIDs))
	for _, c := range contactIDs {
		keys = append(keys, crmContactKey(organisationID, c))
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	contacts, err := decodeAll(items, decodeWith[crmContactRecord, domain.CRMContact])
	if err != nil {
		return nil, err
	}
	out := make(map[string]domain.CRMContact, len(contacts))
	for _, c := range contacts {
		out[c.ContactID] = c
	}
	return out, nil
}

// queryUpTo reads at most limit items of a query from its start key;
// more is set when the query may hold more (DynamoDB returned a
// continuation key).
func (s *Store) queryUpTo(ctx context.Context, in *dynamodb.QueryInput, limit int) ([]item, bool, error) {
	in.TableName = aws.String(s.table)
	var items []item
	for len(items) < limit {
		in.Limit = aws.Int32(int32(min(limit-len(items), queryAllPageSize)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, false, fmt.Errorf("query %s: %w", aws.ToString(in.IndexName), err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, false, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return items, true, nil
}
