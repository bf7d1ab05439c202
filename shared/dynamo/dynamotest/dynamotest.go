// Package dynamotest runs the store's table on minidyn, an in-process
// DynamoDB substitute, behind the real SDK client, for tests of any package.
//
// Known gaps of the substitute: top-level REMOVE in UpdateItem is ignored,
// TTL is never applied (and UpdateTimeToLive is not supported), tables have
// no TableStatus (so SDK waiters never return), and indexes are updated
// synchronously (real GSIs are eventually consistent).
package dynamotest

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/truora/minidyn/server"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// Table is the name of the table NewClient creates; every test gets a
// server of its own, so the name never collides.
const Table = "invite-test"

// NewClient starts a fresh minidyn server for the test, creates the store's
// table on it and returns a client for it and the table name. The server
// stops when the test ends.
func NewClient(t testing.TB) (*dynamodb.Client, string) {
	t.Helper()
	srv := httptest.NewServer(server.NewServer())
	t.Cleanup(srv.Close)

	client := dynamodb.New(dynamodb.Options{
		BaseEndpoint: aws.String(srv.URL),
		Region:       "eu-west-1",
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	if err := dynamo.CreateTable(context.Background(), client, Table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	return client, Table
}

// NewStore returns a Store on a fresh table; a nil clock is time.Now.
func NewStore(t testing.TB, clock domain.Clock) *dynamo.Store {
	t.Helper()
	client, table := NewClient(t)
	return dynamo.New(client, table, clock)
}
