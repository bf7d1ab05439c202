package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// tokensPK is the gsi2 partition holding every API token by id. Tokens are
// few (a handful per organization), so one partition is no hot spot.
const tokensPK = "TOKENS"

// CreateAPIToken stores a token with its id-uniqueness item; a token with
// the same hash or id is a conflict.
func (s *Store) CreateAPIToken(ctx context.Context, tok domain.APIToken) error {
	if tok.HashedValue == "" {
		return domain.Invalidf("API token without hashed value")
	}
	t := s.newTxn()
	s.putNewAPIToken(t, tok)
	return t.commit(ctx)
}

// putNewAPIToken adds the writes of a new token to a transaction: the token
// (unique by hash) and the item that makes its id unique and maps it to the
// hash (GET and DELETE by id).
func (s *Store) putNewAPIToken(t *txn, tok domain.APIToken) {
	t.putNew(newAPITokenRecord(tok), always(domain.Conflictf("an API token with this value already exists")))
	idRec := tokenIDRecord{itemKey: tokenIDKey(tok.ID), Entity: entityTokenID, HashedValue: tok.HashedValue}
	if tok.ExpiresAt != nil {
		idRec.TTL = tok.ExpiresAt.Unix() // goes with the token
	}
	t.putNew(idRec,
		always(fmt.Errorf("API token %d: %w", tok.ID, domain.ErrAPITokenIDTaken)))
}

const entityTokenID = "APITokenID"

// GetAPITokenByHash reads the token with the given hashed value. An
// expired token is not found: TTL deletes items late (up to days), so
// authentication must not rely on it.
func (s *Store) GetAPITokenByHash(ctx context.Context, hashedValue string) (domain.APIToken, error) {
	var rec apiTokenRecord
	found, err := s.getItem(ctx, tokenKey(hashedValue), &rec)
	if err != nil {
		return domain.APIToken{}, err
	}
	if !found {
		return domain.APIToken{}, domain.NotFoundf("unknown API token")
	}
	tok, err := rec.domain()
	if err != nil {
		return domain.APIToken{}, err
	}
	if tok.ExpiredAt(s.now()) {
		return domain.APIToken{}, domain.NotFoundf("unknown API token")
	}
	return tok, nil
}

func isConditionFailed(err error) bool {
	var failed *types.ConditionalCheckFailedException
	return errors.As(err, &failed)
}
