package dynamo

import (
	"context"
	"fmt"

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
	av, err := marshal(sessionRecord{
		itemKey: sessionKey(sess.IDDigest), indexKeys: indexKeys{TTL: sess.ExpiresAt.Unix()},
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
