package dynamo

import (
	"github.com/edu-invite/invite/shared/domain"
)

// sessionRecord is a browser session of the pages, alone in its partition
// and read by key only. TTL removes it some time after it expired; readers
// check ExpiresAt themselves (domain.Session.Expired).
type sessionRecord struct {
	itemKey
	indexKeys
	Entity    string                 `dynamodbav:"entity"`
	Person    *domain.SignedInPerson `dynamodbav:"person,omitempty"`
	IDToken   string                 `dynamodbav:"idToken,omitempty"`
	CreatedAt string                 `dynamodbav:"createdAt"`
	LastSeen  string                 `dynamodbav:"lastSeen"`
	ExpiresAt string                 `dynamodbav:"expiresAt"`
}

func sessionKey(digest string) itemKey { return itemKey{PK: "SESSION#" + digest, SK: "SESSION"} }

func personSessionsGSI1PK(sub string) string { return "PERSONSESSIONS#" + sub }
