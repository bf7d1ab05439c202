package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// apiTokenRecord is an API token, keyed by the hash of its value (the
// lookup on every API call); gsi1 lists the tokens of an organization,
// gsi2 all tokens by id (listing by super users, deletion by id), gsi3 the
// tokens with an expiry by the day they expire (cleanup).
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
	ExpiresAt        string `dynamodbav:"expiresAt,omitempty"`
}

// tokensPK is the gsi2 partition holding every API token by id. Tokens are
// few (a handful per organization), so one partition is no hot spot.
const tokensPK = "TOKENS"

func tokenIDSortKey(tokenID int64) string { return fmt.Sprintf("TOKEN#%019d", tokenID) }

func newAPITokenRecord(tok domain.APIToken) apiTokenRecord {
	rec := apiTokenRecord{
		itemKey:          tokenKey(tok.HashedValue),
		indexKeys:        indexKeys{GSI2PK: tokensPK, GSI2SK: tokenIDSortKey(tok.ID)},
		Entity:           entityAPIToken,
		ID:               tok.ID,
		OrganizationGUID: tok.OrganizationGUID,
		HashedValue:      tok.HashedValue,
		SuperUserToken:   tok.SuperUserToken,
		Description:      tok.Description,
		CreatedAt:        formatTime(tok.CreatedAt),
		Owner:            tok.Owner,
		ExpiresAt:        formatTimePtr(tok.ExpiresAt),
	}
	if tok.OrganizationGUID != "" {
		rec.GSI1PK = orgPK(tok.OrganizationGUID)
		rec.GSI1SK = "TOKEN#" + id(tok.ID)
	}
	if tok.ExpiresAt != nil {
		// An expired token may simply vanish: nothing at an SP depends on it.
		// Authentication refuses it at once; TTL and the cleanup job remove it.
		rec.TTL = tok.ExpiresAt.Unix()
		rec.GSI3PK = tokenExpiresPK(*tok.ExpiresAt)
		rec.GSI3SK = timeOrdered(*tok.ExpiresAt, id(tok.ID))
	}
	return rec
}

func (rec apiTokenRecord) domain() (domain.APIToken, error) {
	var p timeParser
	t := domain.APIToken{
		ID:               rec.ID,
		OrganizationGUID: rec.OrganizationGUID,
		HashedValue:      rec.HashedValue,
		SuperUserToken:   rec.SuperUserToken,
		Description:      rec.Description,
		CreatedAt:        p.time(rec.CreatedAt),
		Owner:            rec.Owner,
		ExpiresAt:        p.ptr(rec.ExpiresAt),
	}
	return t, p.err
}

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

// tokenIDRecord maps a token id to its hashed value, and makes ids unique.
type tokenIDRecord struct {
	itemKey
	Entity      string `dynamodbav:"entity"`
	HashedValue string `dynamodbav:"hashedValue"`
	TTL         int64  `dynamodbav:"ttl,omitempty"`
}

const entityTokenID = "APITokenID"

func tokenIDKey(tokenID int64) itemKey { return itemKey{PK: "TOKENID#" + id(tokenID), SK: skUnique} }

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

func tokenKey(hashedValue string) itemKey { return itemKey{PK: "TOKEN#" + hashedValue, SK: skToken} }
