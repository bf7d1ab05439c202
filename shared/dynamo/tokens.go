package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// apiTokenRecord is an API token, keyed by the hash of its value (the
// lookup on every API call); gsi1 lists the tokens of an organization.
type apiTokenRecord struct {
	itemKey
	indexKeys
	Entity           string `dynamodbav:"entity"`
	ID               int64  `dynamodbav:"id"`
	OrganizationGUID string `dynamodbav:"organizationGUID,omitempty"`
	HashedValue      string `dynamodbav:"hashedValue"`
	SuperUserToken   bool   `dynamodbav:"superUserToken,omitempty"`
	Description      string `dynamodbav:"description,omitempty"`
	CreatedAt        string `dynamodbav:"createdAt,omitempty"`
	Owner            string `dynamodbav:"owner,omitempty"`
}

// CreateAPIToken stores a token; a token with the same hash is a conflict.
func (s *Store) CreateAPIToken(ctx context.Context, tok domain.APIToken) error {
	if tok.HashedValue == "" {
		return domain.Invalidf("API token without hashed value")
	}
	rec := apiTokenRecord{
		itemKey:          tokenKey(tok.HashedValue),
		Entity:           entityAPIToken,
		ID:               tok.ID,
		OrganizationGUID: tok.OrganizationGUID,
		HashedValue:      tok.HashedValue,
		SuperUserToken:   tok.SuperUserToken,
		Description:      tok.Description,
		CreatedAt:        formatTime(tok.CreatedAt),
		Owner:            tok.Owner,
	}
	if tok.OrganizationGUID != "" {
		rec.GSI1PK = orgPK(tok.OrganizationGUID)
		rec.GSI1SK = "TOKEN#" + id(tok.ID)
	}
	held, err := s.putIf(ctx, rec, expression.AttributeNotExists(expression.Name(attrPK)))
	if err != nil {
		return fmt.Errorf("create API token %d: %w", tok.ID, err)
	}
	if !held {
		return domain.Conflictf("an API token with this value already exists")
	}
	return nil
}

// GetAPITokenByHash reads the token with the given hashed value.
func (s *Store) GetAPITokenByHash(ctx context.Context, hashedValue string) (domain.APIToken, error) {
	var rec apiTokenRecord
	found, err := s.getItem(ctx, tokenKey(hashedValue), &rec)
	if err != nil {
		return domain.APIToken{}, err
	}
	if !found {
		return domain.APIToken{}, domain.NotFoundf("unknown API token")
	}
	createdAt, err := parseTime(rec.CreatedAt)
	if err != nil {
		return domain.APIToken{}, err
	}
	return domain.APIToken{
		ID:               rec.ID,
		OrganizationGUID: rec.OrganizationGUID,
		HashedValue:      rec.HashedValue,
		SuperUserToken:   rec.SuperUserToken,
		Description:      rec.Description,
		CreatedAt:        createdAt,
		Owner:            rec.Owner,
	}, nil
}

func isConditionFailed(err error) bool {
	var failed *types.ConditionalCheckFailedException
	return errors.As(err, &failed)
}
