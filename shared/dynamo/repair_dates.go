package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// repairedEntities and the date attributes of each.
var repairedEntities = map[string][]string{
	entityUserRole:   {"endDate", "createdAt"},
	entityInvitation: {"expiryDate", "roleExpiryDate", "createdAt", "acceptedAt"},
	entityRole:       {"defaultExpiryDate"},
	entityAPIToken:   {"expiresAt", "createdAt"},
}

// repairedDate is what a bad stored date becomes: a year after 9999 whose
// seconds, read as milliseconds, give a storable date was an epoch in
// milliseconds read as seconds (the attack of issue 21), and becomes that
// date; anything else becomes domain.MaxDate ("no end" in practice).
func repairedDate(stored string) (time.Time, bool) {
	t, err := parseTime(stored)
	if err == nil && domain.DateInRange(t) {
		return time.Time{}, false
	}
	if err == nil {
		if ms := time.Unix(t.Unix()/1000, 0).UTC(); domain.DateInRange(ms) {
			return ms, true
		}
	}
	return domain.MaxDate, true
}

// RepairDates implements domain.DateRepairStore with a Scan of the
// entities that hold dates.
func (s *Store) RepairDates(ctx context.Context, apply bool) ([]domain.DateRepair, error) {
	names := make([]expression.OperandBuilder, 0, len(repairedEntities))
	for e := range repairedEntities {
		names = append(names, expression.Value(e))
	}
	filter := expression.Name("entity").In(names[0], names[1:]...)
	expr, err := expression.NewBuilder().WithFilter(filter).Build()
	if err != nil {
		return nil, err
	}
	in := &dynamodb.ScanInput{TableName: aws.String(s.table), FilterExpression: expr.Filter(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(), ConsistentRead: aws.Bool(true)}
	var repairs []domain.DateRepair
	for p := dynamodb.NewScanPaginator(s.db, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("scan for dates: %w", err)
		}
		for _, av := range page.Items {
			found, err := s.repairItem(ctx, av, apply)
			if err != nil {
				return repairs, err
			}
			repairs = append(repairs, found...)
		}
	}
	return repairs, nil
}

func (s *Store) repairItem(ctx context.Context, av item, apply bool) ([]domain.DateRepair, error) {
	entity := stringAttr(av, "entity")
	var repairs []domain.DateRepair
	id, _ := strconv.ParseInt(numberAttr(av, "id"), 10, 64)
	for _, field := range repairedEntities[entity] {
		stored := stringAttr(av, field)
		if stored == "" {
			continue
		}
		if fixed, bad := repairedDate(stored); bad {
			repairs = append(repairs, domain.DateRepair{Entity: entity, ID: id, Field: field, Stored: stored, Repaired: formatTime(fixed)})
			av[field] = &types.AttributeValueMemberS{Value: formatTime(fixed)}
		}
	}
	if entity == entityRole {
		if days, err := strconv.Atoi(numberAttr(av, "defaultExpiryDays")); err == nil && days > domain.MaxExpiryDays {
			repairs = append(repairs, domain.DateRepair{Entity: entity, ID: id, Field: "defaultExpiryDays", Stored: strconv.Itoa(days), Repaired: strconv.Itoa(domain.MaxExpiryDays)})
			av["defaultExpiryDays"] = &types.AttributeValueMemberN{Value: strconv.Itoa(domain.MaxExpiryDays)}
		}
	}
	if len(repairs) == 0 || !apply {
		return repairs, nil
	}
	// The item is rewritten through its record, so that its index keys
	// and expiry follow the repaired dates.
	var record any
	switch entity {
	case entityUserRole:
		ur, err := decodeWith[userRoleRecord, domain.UserRole](av)
		if err != nil {
			return nil, err
		}
		return repairs, s.rewriteRepairedMembership(ctx, ur)
	case entityInvitation:
		inv, err := decodeInvitation(av)
		if err != nil {
			return nil, err
		}
		return repairs, s.rewriteRepairedInvitation(ctx, inv)
	case entityRole:
		r, err := decodeRole(av)
		if err != nil {
			return nil, err
		}
		record = newRoleRecord(r, r.Version+1)
	case entityAPIToken:
		tok, err := decodeWith[apiTokenRecord, domain.APIToken](av)
		if err != nil {
			return nil, err
		}
		record = newAPITokenRecord(tok)
	}
	return repairs, s.putItem(ctx, record)
}

func stringAttr(av item, name string) string {
	if v, ok := av[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func numberAttr(av item, name string) string {
	if v, ok := av[name].(*types.AttributeValueMemberN); ok {
		return v.Value
	}
	return ""
}
