package service_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/edu-invite/invite/localstack/substitutes"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

// The truth seed: its plan, where it is written, and how far it got.
//
// The plan is a pure function of the user's number (its names, its role, its
// organization), so the first n users of any plan with the same roles and
// large role are a seed of their own: the brute force is computed from the
// users seeded, whatever scale was reached. With TRUTH_DB_DIR the table is
// kept in DynamoDB Local's files there and named after the roles and the
// large role; a progress item in it records how many users are in, and a run
// continues from there (or, when the target is reached, only asks the
// queries). The chunk being written when a run stopped is written again
// whole, the same users (its counters are guarded by the store, so they
// count once).

// truthPlanVersion names a kept table after the plan it holds: raise it
// when truthPlan.user or rolesOf change, so that no run continues a seed of
// another plan.
const truthPlanVersion = 2

// truthPlan is what a truth seed holds: users users, in roles roles, the
// first bigRole users in role 1.
type truthPlan struct {
	users, roles, bigRole int
}

func (p truthPlan) organizations() int { return max(1, p.roles/100) }

func (p truthPlan) rolesOf(now time.Time) []domain.Role {
	var roles []domain.Role
	for r := range p.roles {
		roles = append(roles, domain.Role{ID: int64(r + 1), Name: fmt.Sprintf("Course %06d", r+1), ShortName: fmt.Sprintf("course-%06d", r+1),
			OrganizationGUID: fmt.Sprint("org-", r%p.organizations()), DefaultExpiryDays: 365, Auditable: domain.Auditable{CreatedAt: now}})
	}
	return roles
}

// user is the plan's i-th user (from 0) and its one membership.
func (p truthPlan) user(i int, now time.Time) (domain.User, domain.UserRole, string) {
	uid := int64(i + 1)
	given, family := truthFirst[i%len(truthFirst)], truthFamily[(i/len(truthFirst))%len(truthFamily)]
	roleID := int64(1)
	if i >= p.bigRole && p.roles > 1 {
		roleID = 2 + int64(i%(p.roles-1))
	}
	org := fmt.Sprint("org-", (roleID-1)%int64(p.organizations()))
	domainName := strings.Replace(org, "org-", "inst", 1) + ".example.org"
	local := fmt.Sprintf("%s.%s.%d", strings.ToLower(given), strings.ToLower(strings.ReplaceAll(family, " ", "")), uid)
	u := domain.User{ID: uid, Sub: "urn:collab:person:" + domainName + ":" + local, GivenName: given, FamilyName: family,
		Name: given + " " + family, Email: local + "@" + domainName, EduPersonPrincipalName: local + "@" + domainName,
		SchacHomeOrganization: domainName, CreatedAt: now}
	end := now.AddDate(1, 0, 0)
	ur := domain.UserRole{ID: uid, UserID: uid, RoleID: roleID, Authority: domain.Guest, CreatedAt: now, EndDate: &end}
	truthSides(&ur)
	return u, ur, org
}

// truthProgress is the progress item: the first rolesSeeded roles and
// seeded users are in; rolesNext > rolesSeeded or next > seeded is the chunk
// a run was writing. Users follow once every role is in.
type truthProgress struct {
	PK          string `dynamodbav:"pk"`
	SK          string `dynamodbav:"sk"`
	RolesSeeded int    `dynamodbav:"rolesSeeded"`
	RolesNext   int    `dynamodbav:"rolesNext"`
	Seeded      int    `dynamodbav:"seeded"`
	Next        int    `dynamodbav:"next"`
	Updated     string `dynamodbav:"updated"`
}

const truthProgressPK, truthProgressSK = "BENCH#truth", "PROGRESS"

// truthTable returns a client of DynamoDB Local (in TRUTH_DB_DIR's files,
// or the process's in-memory one) counting what it reads and writes, and
// the seed's table, created when it is not there.
func truthTable(b *testing.B, plan truthPlan, items, requests, written *atomic.Int64) (*dynamodb.Client, string) {
	b.Helper()
	endpoint, table := "", fmt.Sprintf("truth-%d", time.Now().UnixNano())
	if dir := os.Getenv("TRUTH_DB_DIR"); dir != "" {
		dir, err := filepath.Abs(dir)
		if err != nil {
			b.Fatal(err)
		}
		// A JVM opening a large table on a busy machine takes minutes.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		ddb, err := substitutes.StartDynamoDB(ctx, substitutes.DynamoDBOptions{DataDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		endpoint, table = ddb.URL, fmt.Sprintf("truth-v%d-r%d-b%d", truthPlanVersion, plan.roles, plan.bigRole)
		b.Logf("DynamoDB Local on %s, table %s", dir, table)
	} else {
		endpoint = dynamotest.Endpoint(b)
	}
	client := dynamodb.New(dynamodb.Options{BaseEndpoint: aws.String(endpoint), Region: "eu-west-1",
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")}, countItemsRead(items, requests), countItemsWritten(written))
	_, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		if err := dynamo.CreateTable(context.Background(), client, table); err != nil {
			b.Fatal(err)
		}
	case err != nil:
		b.Fatal(err)
	}
	return client, table
}

func readTruthProgress(ctx context.Context, client *dynamodb.Client, table string) (truthProgress, error) {
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: truthProgressPK}, "sk": &types.AttributeValueMemberS{Value: truthProgressSK}}})
	var p truthProgress
	if err != nil || out.Item == nil {
		return p, err
	}
	return p, attributevalue.UnmarshalMap(out.Item, &p)
}

func writeTruthProgress(ctx context.Context, client *dynamodb.Client, table string, p truthProgress) error {
	p.PK, p.SK, p.Updated = truthProgressPK, truthProgressSK, time.Now().UTC().Format(time.RFC3339)
	av, err := attributevalue.MarshalMap(p)
	if err != nil {
		return err
	}
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: av})
	return err
}

// seedTruth seeds the plan from where the table's progress item says it
// got, in chunks of TRUTH_SEED_CHUNK roles or users per Seed (default
// 5,000), until the plan's roles and users are in or TRUTH_SEED_UNTIL (RFC
// 3339) has passed, and returns how many users the table holds. Progress
// goes to stderr as each chunk ends.
func seedTruth(b *testing.B, client *dynamodb.Client, table string, store *dynamo.Store, plan truthPlan, now time.Time, written *atomic.Int64) int {
	b.Helper()
	ctx := context.Background()
	progress, err := readTruthProgress(ctx, client, table)
	if err != nil {
		b.Fatal(err)
	}
	if progress.RolesSeeded >= plan.roles && progress.Seeded >= plan.users {
		b.Logf("the table holds %d users already (target %d): no seeding", progress.Seeded, plan.users)
		return progress.Seeded
	}
	var until time.Time
	if s := os.Getenv("TRUTH_SEED_UNTIL"); s != "" {
		if until, err = time.Parse(time.RFC3339, s); err != nil {
			b.Fatalf("TRUTH_SEED_UNTIL: %v", err)
		}
	}
	chunk := envInt("TRUTH_SEED_CHUNK", 5_000)
	roles := plan.rolesOf(now)
	start, from, written0 := time.Now(), progress.Seeded, written.Load()
	var usersStart time.Time // the users' rate, for their ETA, leaves the roles out
	for progress.RolesSeeded < plan.roles || progress.Seeded < plan.users {
		if !until.IsZero() && time.Now().After(until) {
			fmt.Fprintf(os.Stderr, "truth seed: stopped at %d of %d roles, %d of %d users (TRUTH_SEED_UNTIL %s); a run continues from here\n",
				progress.RolesSeeded, plan.roles, progress.Seeded, plan.users, until.Format(time.RFC3339))
			break
		}
		// The chunk a run stopped in is written again as it was: its
		// counters are guarded by the seed's ids.
		var seed domain.Seed
		what, done, target := "roles", &progress.RolesSeeded, plan.roles
		if progress.RolesSeeded < plan.roles {
			progress.RolesNext = max(progress.RolesNext, min(progress.RolesSeeded+chunk, plan.roles))
			seed.Roles = roles[progress.RolesSeeded:progress.RolesNext]
		} else {
			what, done, target = "users", &progress.Seeded, plan.users
			if usersStart.IsZero() {
				usersStart = time.Now()
			}
			progress.Next = max(progress.Next, min(progress.Seeded+chunk, plan.users))
			for i := progress.Seeded; i < progress.Next; i++ {
				u, ur, _ := plan.user(i, now)
				seed.Users, seed.UserRoles = append(seed.Users, u), append(seed.UserRoles, ur)
			}
		}
		if err := writeTruthProgress(ctx, client, table, progress); err != nil {
			b.Fatal(err)
		}
		chunkStart, chunkWritten := time.Now(), written.Load()
		if err := store.Seed(ctx, seed); err != nil {
			b.Fatal(err)
		}
		progress.RolesSeeded, progress.Seeded = progress.RolesNext, max(progress.Seeded, progress.Next)
		if err := writeTruthProgress(ctx, client, table, progress); err != nil {
			b.Fatal(err)
		}
		took := time.Since(chunkStart).Seconds()
		itemRate := float64(written.Load()-written0) / time.Since(start).Seconds()
		eta := "-"
		if what == "users" {
			rate := float64(progress.Seeded-from) / time.Since(usersStart).Seconds()
			eta = time.Duration(float64(plan.users-progress.Seeded) / rate * float64(time.Second)).Round(time.Second).String()
		}
		fmt.Fprintf(os.Stderr, "truth seed: %s %s %d/%d; chunk %.0f %s/s, %.0f items/s; run %.0f items/s; users ETA %s\n",
			time.Now().UTC().Format("15:04:05"), what, *done, target, float64(len(seed.Roles)+len(seed.Users))/took, what,
			float64(written.Load()-chunkWritten)/took, itemRate, eta)
	}
	if written.Load() > written0 {
		b.Logf("seeded up to %d roles and %d users (users %d to %d this run) in %s (%d writers, chunks of %d; %d items, %.0f items/s)",
			progress.RolesSeeded, progress.Seeded, from+1, progress.Seeded, time.Since(start).Round(time.Second),
			envInt("TRUTH_SEED_WRITERS", dynamo.DefaultSeedWriters), chunk, written.Load()-written0,
			float64(written.Load()-written0)/time.Since(start).Seconds())
	}
	if progress.RolesSeeded < plan.roles {
		b.Fatalf("only %d of %d roles are seeded yet: no query is asked before every role is in", progress.RolesSeeded, plan.roles)
	}
	return progress.Seeded
}

// countItemsWritten counts the items written: a BatchWriteItem's processed
// puts, a TransactWriteItems' writes, a PutItem or UpdateItem.
func countItemsWritten(n *atomic.Int64) func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("countItemsWritten",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					out, md, err := next.HandleInitialize(ctx, in)
					if err != nil {
						return out, md, err
					}
					switch r := in.Parameters.(type) {
					case *dynamodb.BatchWriteItemInput:
						for table, reqs := range r.RequestItems {
							left := 0
							if got, ok := out.Result.(*dynamodb.BatchWriteItemOutput); ok {
								left = len(got.UnprocessedItems[table])
							}
							n.Add(int64(len(reqs) - left))
						}
					case *dynamodb.TransactWriteItemsInput:
						n.Add(int64(len(r.TransactItems)))
					case *dynamodb.PutItemInput, *dynamodb.UpdateItemInput:
						n.Add(1)
					}
					return out, md, err
				}), middleware.Before)
		})
	}
}
