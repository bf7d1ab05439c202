package substitutes_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	sestypes "github.com/aws/aws-sdk-go-v2/service/sesv2/types"
	"github.com/aws/smithy-go/logging"

	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/localstack/substitutes/substitutestest"
)

func TestDynamoDBThroughTheSDK(t *testing.T) {
	var logs bytes.Buffer
	d := substitutestest.DynamoDB(t)
	cfg := substitutestest.Config(t, substitutes.Endpoints{DynamoDB: d.URL})
	cfg.Logger = logging.NewStandardLogger(&logs) // checksum warnings would land here
	client := dynamodb.NewFromConfig(cfg)
	ctx := context.Background()
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String("through-sdk"),
		BillingMode: ddbtypes.BillingModePayPerRequest,
		AttributeDefinitions: []ddbtypes.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: ddbtypes.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: ddbtypes.ScalarAttributeTypeS},
			{AttributeName: aws.String("email"), AttributeType: ddbtypes.ScalarAttributeTypeS},
		},
		KeySchema: []ddbtypes.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: ddbtypes.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: ddbtypes.KeyTypeRange},
		},
		GlobalSecondaryIndexes: []ddbtypes.GlobalSecondaryIndex{{
			IndexName:  aws.String("byEmail"),
			KeySchema:  []ddbtypes.KeySchemaElement{{AttributeName: aws.String("email"), KeyType: ddbtypes.KeyTypeHash}},
			Projection: &ddbtypes.Projection{ProjectionType: ddbtypes.ProjectionTypeAll},
		}},
	}); err != nil {
		t.Fatal(err)
	}
	key := map[string]ddbtypes.AttributeValue{"pk": &ddbtypes.AttributeValueMemberS{Value: "a"}, "sk": &ddbtypes.AttributeValueMemberS{Value: "1"}}
	item := map[string]ddbtypes.AttributeValue{"pk": key["pk"], "sk": key["sk"], "email": &ddbtypes.AttributeValueMemberS{Value: "a@example.org"}}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("through-sdk"), Item: item}); err != nil {
		t.Fatal(err)
	}
	if got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("through-sdk"), Key: key}); err != nil || len(got.Item) != 3 {
		t.Fatalf("GetItem = %v, %v; want the item put", got, err)
	}
	byEmail, err := client.Query(ctx, &dynamodb.QueryInput{
		TableName: aws.String("through-sdk"), IndexName: aws.String("byEmail"),
		KeyConditionExpression:    aws.String("email = :e"),
		ExpressionAttributeValues: map[string]ddbtypes.AttributeValue{":e": item["email"]},
	})
	if err != nil || len(byEmail.Items) != 1 {
		t.Fatalf("Query on the GSI = %v, %v; want the one item", byEmail, err)
	}
	if pk := byEmail.Items[0]["pk"].(*ddbtypes.AttributeValueMemberS).Value; pk != "a" {
		t.Fatalf("Query on the GSI found pk %q, want a", pk)
	}
	// Successful answers carry the checksum the SDK checks (DynamoDB Local
	// leaves it off error answers, which the SDK only logs about).
	if strings.Contains(logs.String(), "checksum") {
		t.Fatalf("the SDK warned about checksums: %s", logs.String())
	}
	// A transaction whose condition fails writes nothing.
	other := map[string]ddbtypes.AttributeValue{"pk": &ddbtypes.AttributeValueMemberS{Value: "b"}, "sk": &ddbtypes.AttributeValueMemberS{Value: "1"}}
	_, err = client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []ddbtypes.TransactWriteItem{
		{Put: &ddbtypes.Put{TableName: aws.String("through-sdk"), Item: other}},
		{Put: &ddbtypes.Put{TableName: aws.String("through-sdk"), Item: item, ConditionExpression: aws.String("attribute_not_exists(pk)")}},
	}})
	var canceled *ddbtypes.TransactionCanceledException
	if !errors.As(err, &canceled) {
		t.Fatalf("err = %v, want a canceled transaction", err)
	}
	got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("through-sdk"), Key: other})
	if err != nil || len(got.Item) != 0 {
		t.Fatalf("a canceled transaction wrote its other item: %v %v", got.Item, err)
	}
}

func TestSESCapturesMail(t *testing.T) {
	s := substitutestest.SES(t)
	client := sesv2.NewFromConfig(substitutestest.Config(t, substitutes.Endpoints{SESv2: s.URL}))
	_, err := client.SendEmail(context.Background(), &sesv2.SendEmailInput{
		FromEmailAddress: aws.String("invite@localhost"),
		Destination:      &sestypes.Destination{ToAddresses: []string{"guest@example.org"}},
		Content: &sestypes.EmailContent{Simple: &sestypes.Message{
			Subject: &sestypes.Content{Data: aws.String("Hello")},
			Body:    &sestypes.Body{Html: &sestypes.Content{Data: aws.String("<p>Hi</p>")}, Text: &sestypes.Content{Data: aws.String("Hi")}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	mails, err := s.Mails(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(mails) != 1 || mails[0].Subject != "Hello" || len(mails[0].To) != 1 || mails[0].To[0] != "guest@example.org" ||
		!strings.Contains(mails[0].HTML, "<p>Hi</p>") || !strings.Contains(mails[0].Text, "Hi") {
		t.Fatalf("captured = %+v", mails)
	}
	if err := s.Clear(context.Background()); err != nil {
		t.Fatal(err)
	}
	if mails, err := s.Mails(context.Background()); err != nil || len(mails) != 0 {
		t.Fatalf("after Clear: %d mails, %v; want none", len(mails), err)
	}
}

// A DynamoDB Local with a data directory keeps its tables across a restart;
// a stopped JVM no longer answers.
func TestDynamoDBDataDirSurvivesRestart(t *testing.T) {
	substitutestest.DynamoDB(t) // skips locally, fails in CI, when java or the jar is missing
	dir := t.TempDir()
	ctx := context.Background()
	start := func() (*substitutes.DynamoDB, *dynamodb.Client) {
		d, err := substitutes.StartDynamoDB(ctx, substitutes.DynamoDBOptions{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = d.Close() })
		return d, dynamodb.NewFromConfig(substitutestest.Config(t, substitutes.Endpoints{DynamoDB: d.URL}))
	}
	first, client := start()
	if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("kept"),
		BillingMode:          ddbtypes.BillingModePayPerRequest,
		AttributeDefinitions: []ddbtypes.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: ddbtypes.ScalarAttributeTypeS}},
		KeySchema:            []ddbtypes.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: ddbtypes.KeyTypeHash}},
	}); err != nil {
		t.Fatal(err)
	}
	key := map[string]ddbtypes.AttributeValue{"pk": &ddbtypes.AttributeValueMemberS{Value: "a"}}
	if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: key}); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"), Key: key}); err == nil {
		t.Fatal("the stopped DynamoDB Local still answers")
	}
	_, client = start()
	got, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"), Key: key})
	if err != nil || len(got.Item) != 1 {
		t.Fatalf("after a restart GetItem = %v, %v; want the item written before", got, err)
	}
}
