package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// batchWriteLimit is DynamoDB's maximum number of writes per BatchWriteItem.
const batchWriteLimit = 25

// Seed implements domain.UserSearchStore (S1): roles with their unique
// names and application links, users with their sub reservations and the
// same index items as every other user write (so seeded users are
// searchable), and memberships, 25 puts per BatchWriteItem. The writes are
// not conditional and not atomic: the caller gives fresh ids. No
// deliveries are written: seed data are never provisioned.
func (s *Store) Seed(ctx context.Context, seed domain.Seed) error {
	var records []any
	for _, r := range seed.Roles {
		if err := checkRole(r); err != nil {
			return err
		}
		records = append(records, newRoleRecord(r, 1), newRoleNameRecord(r))
		for _, manageID := range r.ManageIDs() {
			records = append(records, newAppLinkRecord(r, manageID))
		}
	}
	for _, u := range seed.Users {
		records = append(records, newUserRecord(u, 1), newUserSubRecord(u))
		for _, w := range userWords(u) {
			records = append(records, userWordRecord{itemKey: userWordKey(w, u.ID), Entity: entityUserWord, UserID: u.ID})
		}
	}
	for _, ur := range seed.UserRoles {
		records = append(records, newUserRoleRecord(ur, 1))
	}
	for start := 0; start < len(records); start += batchWriteLimit {
		if err := s.batchPut(ctx, records[start:min(start+batchWriteLimit, len(records))]); err != nil {
			return err
		}
	}
	perShard := map[int64]int64{}
	for _, u := range seed.Users {
		perShard[u.ID%userCountShards]++
	}
	for shard, n := range perShard {
		upd, err := userCountUpdate(userCountKey(shard), n)
		if err != nil {
			return err
		}
		_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(s.table), Key: upd.Key,
			UpdateExpression: upd.UpdateExpression, ExpressionAttributeNames: upd.ExpressionAttributeNames,
			ExpressionAttributeValues: upd.ExpressionAttributeValues})
		if err != nil {
			return fmt.Errorf("count seeded users: %w", err)
		}
	}
	return nil
}

// batchPut writes up to 25 items, retrying unprocessed ones with a growing pause.
func (s *Store) batchPut(ctx context.Context, records []any) error {
	reqs := make([]types.WriteRequest, 0, len(records))
	for _, rec := range records {
		av, err := marshal(rec)
		if err != nil {
			return err
		}
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: av}})
	}
	pause := 20 * time.Millisecond
	for attempt := 0; len(reqs) > 0; attempt++ {
		if attempt > 0 {
			if attempt > 8 {
				return fmt.Errorf("batch write: %d items still unprocessed after %d attempts", len(reqs), attempt)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause):
			}
			pause *= 2
		}
		out, err := s.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{s.table: reqs}})
		if err != nil {
			return fmt.Errorf("batch write: %w", err)
		}
		reqs = out.UnprocessedItems[s.table]
	}
	return nil
}
