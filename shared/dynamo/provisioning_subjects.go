package dynamo

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// GetDeliverySubjects reads the users, roles, memberships and SP links a
// batch of deliveries is about in one BatchGetItem per 100 keys (strongly
// consistent, as GetItem), instead of a GetItem per item and delivery.
// Items that do not exist are left out. No domain error.
func (s *Store) GetDeliverySubjects(ctx context.Context, q domain.SubjectsQuery) (domain.DeliverySubjects, error) {
	got := domain.DeliverySubjects{Users: map[int64]domain.User{}, Roles: map[int64]domain.Role{},
		UserRoles: map[domain.UserRoleKey]domain.UserRole{}, Links: map[domain.SPLinkKey]domain.SPLink{}}
	decoders := map[itemKey]func(item) error{}
	var keys []itemKey
	add := func(k itemKey, decode func(item) error) {
		if _, ok := decoders[k]; !ok {
			decoders[k] = decode
			keys = append(keys, k)
		}
	}
	for _, id := range q.Users {
		add(userKey(id), func(av item) error {
			u, err := decodeWith[userRecord, domain.User](av)
			got.Users[id] = u
			return err
		})
	}
	for _, id := range q.Roles {
		add(roleKey(id), func(av item) error {
			r, err := decodeWith[roleRecord, domain.Role](av)
			got.Roles[id] = r
			return err
		})
	}
	for _, k := range q.UserRoles {
		add(userRoleKey(k.UserID, k.RoleID), func(av item) error {
			ur, err := decodeWith[userRoleRecord, domain.UserRole](av)
			got.UserRoles[k] = ur
			return err
		})
	}
	for _, k := range q.Links {
		add(spLinkKey(k.Kind, k.LocalID, k.SPID), func(av item) error {
			l, err := decodeWith[spLinkRecord, domain.SPLink](av)
			got.Links[k] = l
			return err
		})
	}
	if len(keys) == 0 {
		return got, nil
	}
	items, err := s.batchGet(ctx, keys)
	if err != nil {
		return got, fmt.Errorf("get delivery subjects: %w", err)
	}
	for _, av := range items {
		pk, _ := av[attrPK].(*types.AttributeValueMemberS)
		sk, _ := av[attrSK].(*types.AttributeValueMemberS)
		if pk == nil || sk == nil {
			continue
		}
		decode, ok := decoders[itemKey{PK: pk.Value, SK: sk.Value}]
		if !ok {
			continue
		}
		if err := decode(av); err != nil {
			return got, fmt.Errorf("get delivery subjects %s/%s: %w", pk.Value, sk.Value, err)
		}
	}
	return got, nil
}
