package dynamo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

const entityInvitationQuota = "InvitationQuota"

// invitationQuotaKey is an inviter's count of one day, alone in its
// partition; the inviter is a digest (the id may name a person's account).
func invitationQuotaKey(inviter, day string) itemKey {
	sum := sha256.Sum256([]byte(inviter))
	return itemKey{PK: "INVQUOTA#" + hex.EncodeToString(sum[:16]), SK: "DAY#" + day}
}

// ReserveInvitations adds n to the day's count with one conditional ADD:
// it succeeds only while the count stays within limit, so concurrent
// requests never pass the limit together. The item expires two days after
// its day.
func (s *Store) ReserveInvitations(ctx context.Context, inviter, day string, n, limit int) error {
	refused := domain.Limitf("at most %d invitations a day per inviter: %d more would pass it today; send the rest tomorrow (UTC) or ask a super user", limit, n)
	if n > limit {
		return refused
	}
	start, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return domain.Invalidf("day %q is not a date", day)
	}
	_, err = s.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(s.table),
		Key:                      invitationQuotaKey(inviter, day).attributes(),
		UpdateExpression:         aws.String("ADD #n :n SET #e = :e, #ttl = :ttl"),
		ConditionExpression:      aws.String("attribute_not_exists(#n) OR #n <= :room"),
		ExpressionAttributeNames: map[string]string{"#n": "count", "#e": "entity", "#ttl": attrTTL},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":n":    &types.AttributeValueMemberN{Value: strconv.Itoa(n)},
			":room": &types.AttributeValueMemberN{Value: strconv.Itoa(limit - n)},
			":e":    &types.AttributeValueMemberS{Value: entityInvitationQuota},
			":ttl":  &types.AttributeValueMemberN{Value: strconv.FormatInt(start.Add(72*time.Hour).Unix(), 10)},
		},
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return refused
	}
	if err != nil {
		return fmt.Errorf("reserve invitations: %w", err)
	}
	return nil
}
