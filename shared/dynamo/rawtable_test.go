package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// The raw item operations of tests that write or count items the way an
// older version left them, past the store.

// rawKey is the primary key of the item pk/sk.
func rawKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}
}

func deleteItem(t *testing.T, client rawTable, pk, sk string) {
	t.Helper()
	_, err := client.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(client.table), Key: rawKey(pk, sk)})
	must(t, err)
}

// setRawStrings sets the named attributes of the item pk/sk to the string
// value.
func setRawStrings(t *testing.T, client rawTable, pk, sk, value string, names ...string) {
	t.Helper()
	var sets []string
	attrs := map[string]string{}
	for i, name := range names {
		ref := fmt.Sprint("#a", i)
		attrs[ref] = name
		sets = append(sets, ref+" = :v")
	}
	_, err := client.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(client.table), Key: rawKey(pk, sk),
		UpdateExpression: aws.String("SET " + strings.Join(sets, ", ")), ExpressionAttributeNames: attrs,
		ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberS{Value: value}}})
	must(t, err)
}

// countRawItems counts the items of the partition pk whose sort key begins
// with skPrefix.
func countRawItems(t *testing.T, client rawTable, pk, skPrefix string) int {
	t.Helper()
	out, err := client.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String(client.table),
		KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :prefix)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: pk}, ":prefix": &types.AttributeValueMemberS{Value: skPrefix}}})
	must(t, err)
	return len(out.Items)
}

// removeRawAttributes removes the named attributes of the item pk/sk.
func removeRawAttributes(t *testing.T, client rawTable, pk, sk string, names ...string) {
	t.Helper()
	var refs []string
	attrs := map[string]string{}
	for i, name := range names {
		ref := fmt.Sprint("#a", i)
		attrs[ref] = name
		refs = append(refs, ref)
	}
	_, err := client.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{TableName: aws.String(client.table), Key: rawKey(pk, sk),
		UpdateExpression: aws.String("REMOVE " + strings.Join(refs, ", ")), ExpressionAttributeNames: attrs})
	must(t, err)
}
