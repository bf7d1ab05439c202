package dynamo

import (
	"fmt"
	"time"

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

// tokenIDRecord maps a token id to its hashed value, and makes ids unique.
type tokenIDRecord struct {
	itemKey
	Entity      string `dynamodbav:"entity"`
	HashedValue string `dynamodbav:"hashedValue"`
	TTL         int64  `dynamodbav:"ttl,omitempty"`
}

func tokenIDKey(tokenID int64) itemKey { return itemKey{PK: "TOKENID#" + id(tokenID), SK: skUnique} }

func tokenKey(hashedValue string) itemKey { return itemKey{PK: "TOKEN#" + hashedValue, SK: skToken} }

// pendingTokenRecord is a generated token value that its caller has seen
// but not yet persisted: only the hash, bound to the caller, with a TTL.
type pendingTokenRecord struct {
	itemKey
	indexKeys
	Entity      string `dynamodbav:"entity"`
	CallerKey   string `dynamodbav:"callerKey"`
	HashedValue string `dynamodbav:"hashedValue"`
	ExpiresAt   string `dynamodbav:"expiresAt"`
}

func pendingTokenKey(callerKey string) itemKey {
	return itemKey{PK: "TOKENPENDING#" + callerKey, SK: "PENDING"}
}

func tokenExpiresPK(t time.Time) string { return "TOKENEXPIRES#" + dayOf(t) }
