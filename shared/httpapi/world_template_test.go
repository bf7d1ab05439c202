package httpapi_test

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// Building a world through the service takes some 150 requests to DynamoDB
// Local (six invitations accepted, three roles, the registry), seconds on a
// loaded machine, and the authorization matrix alone needs a fresh world for
// every change and caller: hundreds. So the test binary builds one world,
// keeps its items, and every newWorld writes them into a table of its own in
// a few batch writes. What is not in the table (the queue's deliveries, the
// ids and secrets the world remembers) is copied too; the service, registry
// and vault are made anew for each world, as building did.
type worldTemplate struct {
	items      []map[string]types.AttributeValue
	deliveries []domain.Delivery
	w          *world
}

var (
	worldTemplateOnce sync.Once
	worldTemplateMade *worldTemplate
)

// builtWorld returns the template, building it on first use with t.
func builtWorld(t testing.TB) *worldTemplate {
	t.Helper()
	worldTemplateOnce.Do(func() {
		client, table := dynamotest.NewClient(t)
		w := buildWorld(t, client, table)
		tpl := &worldTemplate{deliveries: w.Queue.Deliveries(), w: w}
		p := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true)})
		for p.HasMorePages() {
			page, err := p.NextPage(context.Background())
			if err != nil {
				t.Fatalf("read the world's items: %v", err)
			}
			tpl.items = append(tpl.items, page.Items...)
		}
		worldTemplateMade = tpl
	})
	if worldTemplateMade == nil {
		t.Fatal("the world template could not be built (see the first test that asked for a world)")
	}
	return worldTemplateMade
}

// cloneWorld writes the template's items into a fresh table and returns a
// world on it that remembers what the template's world remembers.
func cloneWorld(t testing.TB, tpl *worldTemplate) *world {
	t.Helper()
	client, table := dynamotest.NewClient(t)
	ctx := context.Background()
	for start := 0; start < len(tpl.items); start += 25 {
		var writes []types.WriteRequest
		for _, item := range tpl.items[start:min(start+25, len(tpl.items))] {
			writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
		}
		pending := map[string][]types.WriteRequest{table: writes}
		for len(pending) > 0 {
			out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			if err != nil {
				t.Fatalf("copy the world's items: %v", err)
			}
			pending = out.UnprocessedItems
		}
	}
	src := tpl.w
	w := &world{t: t, Now: src.Now, RoleA: src.RoleA, RoleB: src.RoleB, RoleC: src.RoleC,
		Users: maps.Clone(src.Users), UserRoles: maps.Clone(src.UserRoles),
		OpenInvitationA: src.OpenInvitationA, OpenSecretA: src.OpenSecretA}
	w.wire(client, table)
	w.Svc.Registry, w.Svc.RegistryAdmin, w.Vault = worldRegistry(t, w.Store)
	if len(tpl.deliveries) > 0 {
		_ = w.Queue.Enqueue(ctx, tpl.deliveries)
	}
	return w
}
