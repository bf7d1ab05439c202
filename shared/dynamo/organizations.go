package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/edu-invite/invite/shared/domain"
)

// CreateOrganization implements domain.OrganizationStore: a PutItem on the
// condition that the GUID is new.
func (s *Store) CreateOrganization(ctx context.Context, o domain.Organization) error {
	if o.GUID == "" {
		return domain.Invalidf("an organization needs a GUID")
	}
	held, err := s.putIf(ctx, s.organizationRecord(o), expression.AttributeNotExists(expression.Name(attrPK)))
	if err != nil {
		return err
	}
	if !held {
		return domain.Conflictf("organization %s exists", o.GUID)
	}
	return nil
}

// RenameOrganization implements domain.OrganizationStore: a PutItem on the
// condition that the organization is stored.
func (s *Store) RenameOrganization(ctx context.Context, o domain.Organization) error {
	if o.GUID == "" {
		return domain.Invalidf("an organization needs a GUID")
	}
	held, err := s.putIf(ctx, s.organizationRecord(o), expression.AttributeExists(expression.Name(attrPK)))
	if err != nil {
		return err
	}
	if !held {
		return domain.NotFoundf("no organization %s", o.GUID)
	}
	return nil
}

// ListOrganizations implements domain.OrganizationStore: one Query of the
// organizations' partition.
func (s *Store) ListOrganizations(ctx context.Context) ([]domain.Organization, error) {
	in, err := s.partitionQuery("", organizationsPK, sortKeyPrefix(skOrganization))
	if err != nil {
		return nil, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return nil, err
	}
	return decodeAll(items, decodeWith[organizationRecord, domain.Organization])
}
