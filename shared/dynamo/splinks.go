package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

// GetLink reads what the service knows of a user or group at one SP.
func (s *Store) GetLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) (domain.SPLink, error) {
	var rec spLinkRecord
	found, err := s.getItem(ctx, spLinkKey(kind, localID, spID), &rec)
	if err != nil {
		return domain.SPLink{}, err
	}
	if !found {
		return domain.SPLink{}, domain.NotFoundf("%s %d has no link to SP %s", kind, localID, spID)
	}
	return rec.domain()
}

// PutLink writes a link whatever is stored: the provisioner is its only
// writer and handles one resource per SP at a time (the queue is ordered
// per SP).
func (s *Store) PutLink(ctx context.Context, l domain.SPLink) error {
	if l.Kind != domain.ResourceUser && l.Kind != domain.ResourceGroup {
		return domain.Invalidf("unknown resource kind %q", l.Kind)
	}
	av, err := marshal(newSPLinkRecord(l))
	if err != nil {
		return err
	}
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return fmt.Errorf("put link %s %d at %s: %w", l.Kind, l.LocalID, l.SPID, err)
	}
	return nil
}

// DeleteLink removes a link; removing an absent link is not an error.
func (s *Store) DeleteLink(ctx context.Context, kind domain.ResourceKind, localID int64, spID string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table),
		Key:       spLinkKey(kind, localID, spID).attributes(),
	})
	if err != nil {
		return fmt.Errorf("delete link %s %d at %s: %w", kind, localID, spID, err)
	}
	return nil
}

// ListLinks returns the links of a user or group to all SPs, by SP id.
func (s *Store) ListLinks(ctx context.Context, kind domain.ResourceKind, localID int64) ([]domain.SPLink, error) {
	in, err := s.partitionQuery("", spLinkPK(kind, localID), nil)
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[spLinkRecord, domain.SPLink])
}

// ListLinksOfSP returns the links of one kind to one SP (gsi1), by local id
// as text: what the service believes the SP holds, for a reconcile run.
func (s *Store) ListLinksOfSP(ctx context.Context, spID string, kind domain.ResourceKind) ([]domain.SPLink, error) {
	in, err := s.partitionQuery(indexGSI1, "SP#"+spID, sortKeyPrefix(string(kind)+"#"))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[spLinkRecord, domain.SPLink])
}

// GetLinksAt reads the links of many users or groups to one SP in batches
// (BatchGetItem, 100 keys a request), by local id; ids without a link are
// absent from the map. A whole-group PUT reads its members' links so.
func (s *Store) GetLinksAt(ctx context.Context, kind domain.ResourceKind, localIDs []int64, spID string) (map[int64]domain.SPLink, error) {
	keys := make([]itemKey, 0, len(localIDs))
	seen := make(map[int64]bool, len(localIDs))
	for _, id := range localIDs {
		if !seen[id] {
			seen[id] = true
			keys = append(keys, spLinkKey(kind, id, spID))
		}
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]domain.SPLink, len(items))
	for _, av := range items {
		l, err := decodeWith[spLinkRecord, domain.SPLink](av)
		if err != nil {
			return nil, err
		}
		out[l.LocalID] = l
	}
	return out, nil
}
