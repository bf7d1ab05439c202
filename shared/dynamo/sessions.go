package dynamo

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/shared/domain"
)

const entitySession = "Session"

// PutSession writes a session, replacing one with the same id.
func (s *Store) PutSession(ctx context.Context, sess domain.Session) error {
	if sess.IDDigest == "" {
		return domain.Invalidf("session without id")
	}
	keys := indexKeys{TTL: sess.ExpiresAt.Unix()}
	if sess.Person != nil && sess.Person.Sub != "" {
		// A signed-in session is listed under its person, so that the
		// provider's back-channel logout can end all of them.
		keys.GSI1PK, keys.GSI1SK = personSessionsGSI1PK(sess.Person.Sub), "SESSION#"+sess.IDDigest
	}
	av, err := marshal(sessionRecord{
		itemKey: sessionKey(sess.IDDigest), indexKeys: keys,
		Entity: entitySession, Person: sess.Person, IDToken: sess.IDToken,
		CreatedAt: formatTime(sess.CreatedAt), LastSeen: formatTime(sess.LastSeen), ExpiresAt: formatTime(sess.ExpiresAt),
	})
	if err != nil {
		return err
	}
	if _, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table), Item: av}); err != nil {
		return fmt.Errorf("put session: %w", err)
	}
	return nil
}

// GetSession returns the session with this id digest, expired or not (the
// caller decides); a not-found error when there is none.
func (s *Store) GetSession(ctx context.Context, digest string) (domain.Session, error) {
	var rec sessionRecord
	found, err := s.getItem(ctx, sessionKey(digest), &rec)
	if err != nil {
		return domain.Session{}, err
	}
	if !found {
		return domain.Session{}, domain.NotFoundf("no such session")
	}
	var p timeParser
	sess := domain.Session{IDDigest: digest, Person: rec.Person, IDToken: rec.IDToken,
		CreatedAt: p.time(rec.CreatedAt), LastSeen: p.time(rec.LastSeen), ExpiresAt: p.time(rec.ExpiresAt)}
	return sess, p.err
}

// DeleteSession removes a session; removing an absent one is no error.
func (s *Store) DeleteSession(ctx context.Context, digest string) error {
	_, err := s.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(s.table), Key: sessionKey(digest).attributes()})
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}

// EndSessionsOfPerson deletes every signed-in session of the person with
// this subject (Query gsi1 PERSONSESSIONS#<sub>, then DeleteItem each) and
// says how many there were.
func (s *Store) EndSessionsOfPerson(ctx context.Context, sub string) (int, error) {
	in, err := s.partitionQuery(indexGSI1, personSessionsGSI1PK(sub), nil)
	if err != nil {
		return 0, err
	}
	items, err := s.queryAll(ctx, in)
	if err != nil {
		return 0, err
	}
	for _, it := range items {
		var rec sessionRecord
		if err := unmarshal(it, &rec); err != nil {
			return 0, err
		}
		digest := strings.TrimPrefix(rec.GSI1SK, "SESSION#")
		if err := s.DeleteSession(ctx, digest); err != nil {
			return 0, err
		}
	}
	return len(items), nil
}
