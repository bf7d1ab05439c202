package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// GetUserRole reads the membership of a user in a role.
func (s *Store) GetUserRole(ctx context.Context, userID, roleID int64) (domain.UserRole, error) {
	var rec userRoleRecord
	found, err := s.getItem(ctx, userRoleKey(userID, roleID), &rec)
	if err != nil {
		return domain.UserRole{}, err
	}
	if !found {
		return domain.UserRole{}, userRoleNotFound(userID, roleID)
	}
	return rec.domain()
}

// ListUserRolesOfUser returns the memberships of a user, by role id as text.
func (s *Store) ListUserRolesOfUser(ctx context.Context, userID int64) ([]domain.UserRole, error) {
	in, err := s.partitionQuery("", userPK(userID), sortKeyPrefix(prefixUserRole))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeUserRoles(items)
}

// Page sizes of ListUserRolesOfRole.
const (
	defaultPageSize = 100
	maxPageSize     = 1000
)

// ListUserRolesOfRole pages through the memberships of a role (gsi1, which
// is eventually consistent). It asks for one item more than the page so
// that the last page comes with an empty token, rather than being followed
// by an empty page as DynamoDB's LastEvaluatedKey alone would do.
func (s *Store) ListUserRolesOfRole(ctx context.Context, roleID int64, pageToken string, limit int) ([]domain.UserRole, string, error) {
	if limit <= 0 {
		limit = defaultPageSize
	}
	limit = min(limit, maxPageSize)
	partition := prefixRole + id(roleID)
	in, err := s.partitionQuery(indexGSI1, partition, sortKeyPrefix(prefixUserRole))
	if err != nil {
		return nil, "", err
	}
	if pageToken != "" {
		start, err := decodePageToken(pageToken, partition)
		if err != nil {
			return nil, "", err
		}
		in.ExclusiveStartKey = start
	}
	var items []item
	for len(items) <= limit {
		in.Limit = aws.Int32(int32(limit + 1 - len(items)))
		out, err := s.db.Query(ctx, in)
		if err != nil {
			return nil, "", fmt.Errorf("query memberships of role %d: %w", roleID, err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	next := ""
	if len(items) > limit {
		items = items[:limit]
		if next, err = encodePageToken(items[limit-1]); err != nil {
			return nil, "", err
		}
	}
	page, err := decodeUserRoles(items)
	return page, next, err
}

// pageToken is the position after which the next page starts: the keys of
// the page's last item, table and gsi1, as DynamoDB wants them back.
type pageToken map[string]string

func encodePageToken(last item) (string, error) {
	token := pageToken{}
	for _, name := range []string{attrPK, attrSK, attrGSI1PK, attrGSI1SK} {
		value, ok := last[name].(*types.AttributeValueMemberS)
		if !ok {
			return "", fmt.Errorf("page token: item has no %s", name)
		}
		token[name] = value.Value
	}
	raw, err := json.Marshal(token)
	if err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// decodePageToken accepts only a token made for the same partition, so that
// a token cannot be used to read another role's memberships.
func decodePageToken(encoded, partition string) (item, error) {
	invalid := domain.Invalidf("invalid page token")
	raw, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil {
		return nil, invalid
	}
	var token pageToken
	if err := json.Unmarshal(raw, &token); err != nil || len(token) != 4 || token[attrGSI1PK] != partition {
		return nil, invalid
	}
	start := item{}
	for name, value := range token {
		if value == "" {
			return nil, invalid
		}
		start[name] = &types.AttributeValueMemberS{Value: value}
	}
	return start, nil
}

// DeleteUserRoles removes memberships, each if its stored version is the
// one given, and writes the audit entries and deliveries.
func (s *Store) DeleteUserRoles(ctx context.Context, urs []domain.UserRole, audit []domain.AuditEntry, deliveries []domain.Delivery) error {
	changes := make([]change, len(urs))
	for i, ur := range urs {
		changes[i] = removedMembership(ur)
	}
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	t := s.newTxn()
	t.apply(projectChanges(st, changes...), 0)
	t.putAudit(audit)
	t.putDeliveries(deliveries)
	return t.commitSkippingGoneUsers(ctx)
}

func userRoleNotFound(userID, roleID int64) error {
	return domain.NotFoundf("user %d has no role %d", userID, roleID)
}

// GetUserRoleByID finds a membership by its own id (gsi2), then reads it
// consistently from its user's partition.
func (s *Store) GetUserRoleByID(ctx context.Context, userRoleID int64) (domain.UserRole, error) {
	in, err := s.partitionQuery(indexGSI2, prefixUserRole+id(userRoleID), nil)
	if err != nil {
		return domain.UserRole{}, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return domain.UserRole{}, err
	}
	urs, err := decodeUserRoles(items)
	if err != nil {
		return domain.UserRole{}, err
	}
	if len(urs) == 0 {
		return domain.UserRole{}, domain.NotFoundf("user role %d not found", userRoleID)
	}
	return s.GetUserRole(ctx, urs[0].UserID, urs[0].RoleID)
}

// UpdateUserRole replaces a membership at its stored version, with audit.
func (s *Store) UpdateUserRole(ctx context.Context, ur domain.UserRole, audit []domain.AuditEntry, deliveries []domain.Delivery) error {
	changes := []change{changedMembership(ur, domain.User{})} // the copy of the user stays as read
	st, err := s.readProjectionState(ctx, newProjectionState(), changes)
	if err != nil {
		return err
	}
	t := s.newTxn()
	t.apply(projectChanges(st, changes...), 0)
	t.putAudit(audit)
	t.putDeliveries(deliveries)
	return t.commitSkippingGoneUsers(ctx)
}
