package service_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
)

// TestListRolesPagesOfEachScope: R1's pages for a super user, an
// institution admin who also holds roles of another organization, and an
// inviter are the pages of a brute-force listing of what each may see, in
// each order; with force, a scope larger than RoleForcedPageSize comes in
// pages of that size whose union is the scope.
func TestListRolesPagesOfEachScope(t *testing.T) {
	s, _ := newService(t)
	var roles []domain.Role
	for i := range int64(40) {
		id := 1 + i
		org := []string{"org-a", "org-b"}[i%2]
		name := fmt.Sprintf("%s %s %d", []string{"Lab", "Library", "Physics", "Data"}[i%4], []string{"guests", "staff", "visitors"}[i%3], id)
		roles = append(roles, domain.Role{ID: id, Name: name, ShortName: domain.ShortNameOf(name), Description: "for " + name,
			OrganizationGUID: org, Auditable: domain.Auditable{CreatedAt: now.Add(-time1h(i % 4))}})
	}
	if err := s.Store.Seed(context.Background(), domain.Seed{Roles: roles}); err != nil {
		t.Fatal(err)
	}
	// Every page comes from the store's listings (and the caller's own
	// roles by id): the scope is never read whole.
	s.Store = noWholeScopeReads{Store: s.Store, t: t}
	admin := &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: "org-a", User: &domain.User{ID: 9, InstitutionAdmin: true},
		Memberships: map[int64]domain.Authority{2: domain.Inviter, 4: domain.Guest, 6: domain.Manager}}
	inviter := &auth.Principal{Kind: auth.KindPerson, User: &domain.User{ID: 8},
		Memberships: map[int64]domain.Authority{3: domain.Inviter, 11: domain.Manager, 12: domain.Guest}}
	visible := func(p *auth.Principal) []domain.Role {
		return slices.DeleteFunc(slices.Clone(roles), func(r domain.Role) bool { return !auth.CanSeeRole(p, r) })
	}
	brute := func(p *auth.Principal, req domain.PageRequest) ([]int64, int64) {
		var match []domain.Role
		for _, r := range visible(p) {
			words := strings.Fields(strings.ToLower(r.Name + " " + r.Description))
			ok := true
			for _, q := range strings.Fields(strings.ToLower(req.Query)) {
				ok = ok && slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, q) })
			}
			if ok {
				match = append(match, r)
			}
		}
		slices.SortFunc(match, func(a, b domain.Role) int {
			c := strings.Compare(domain.RoleSortKey(a, req.Sort), domain.RoleSortKey(b, req.Sort))
			if req.Descending {
				return -c
			}
			return c
		})
		var ids []int64
		for i := req.Offset(); i < min(req.Offset()+req.Size, len(match)); i++ {
			ids = append(ids, match[i].ID)
		}
		return ids, int64(len(match))
	}
	callers := map[string]*auth.Principal{"super": root, "admin": admin, "inviter": inviter}
	requests := []domain.PageRequest{
		{Size: 5},
		{Size: 5, Number: 1},
		{Size: 4, Number: 2, Sort: "description", Descending: true},
		{Size: 6, Sort: "createdAt"},
		{Size: 3, Number: 1, Sort: "id", Descending: true},
		{Size: 5, Query: "lib"},
		{Size: 5, Query: "physics staff", Sort: "name", Descending: true},
	}
	for name, p := range callers {
		for _, req := range requests {
			page, _, err := s.ListRoles(context.Background(), p, req, false)
			if err != nil {
				t.Fatalf("%s %+v: %v", name, req, err)
			}
			wantIDs, wantTotal := brute(p, req)
			var got []int64
			for _, r := range page.Items {
				got = append(got, r.ID)
			}
			if !slices.Equal(got, wantIDs) || page.Total != wantTotal {
				t.Errorf("%s %+v: %v of %d, want %v of %d", name, req, got, page.Total, wantIDs, wantTotal)
			}
		}
	}

	// force: pages of RoleForcedPageSize by name, the whole scope in all.
	defer func(size int) { service.RoleForcedPageSize = size }(service.RoleForcedPageSize)
	service.RoleForcedPageSize = 7
	for name, p := range callers {
		want, total := brute(p, domain.PageRequest{Size: len(roles)})
		var got []int64
		for number := 0; number < 10; number++ {
			page, req, err := s.ListRoles(context.Background(), p, domain.PageRequest{Number: number, Query: "ignored"}, true)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) > 7 || req.Size != 7 || page.Total != total {
				t.Fatalf("%s forced page %d: %d roles of %d, page size %d", name, number, len(page.Items), page.Total, req.Size)
			}
			for _, r := range page.Items {
				got = append(got, r.ID)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: forced pages %v, want %v", name, got, want)
		}
	}
}

func time1h(n int64) time.Duration { return time.Duration(n) * time.Hour }

// noWholeScopeReads is a store on which a read of every role of a scope
// fails the test: R1 pages must cost what a page costs, on older data
// too (the index repair lists it, nothing reads around it).
type noWholeScopeReads struct {
	domain.Store
	t *testing.T
}

func (s noWholeScopeReads) ListAllRoles(ctx context.Context) ([]domain.Role, error) {
	s.t.Error("ListRoles read every role (ListAllRoles)")
	return s.Store.ListAllRoles(ctx)
}

func (s noWholeScopeReads) ListRolesByOrganization(ctx context.Context, guid string) ([]domain.Role, error) {
	s.t.Error("ListRoles read every role of an organization (ListRolesByOrganization)")
	return s.Store.ListRolesByOrganization(ctx, guid)
}

// TestListRolesOfOlderDataAfterTheRepair: on a table whose roles have no
// listing items (as older versions wrote them), R1 reads no scope whole:
// it lists nothing of them until the index repair has written their items,
// then every caller's page is right.
func TestListRolesOfOlderDataAfterTheRepair(t *testing.T) {
	s, _ := newService(t)
	client, table := dynamotest.NewClient(t)
	store := dynamo.New(client, table, func() time.Time { return now })
	s.Store = noWholeScopeReads{Store: store, t: t}
	var roles []domain.Role
	for i := range int64(12) {
		name := fmt.Sprintf("Lab %d", 1+i)
		roles = append(roles, domain.Role{ID: 1 + i, Name: name, ShortName: domain.ShortNameOf(name), OrganizationGUID: []string{"org-a", "org-b"}[i%2],
			Auditable: domain.Auditable{CreatedAt: now}})
	}
	if err := store.Seed(context.Background(), domain.Seed{Roles: roles}); err != nil {
		t.Fatal(err)
	}
	// Age the table: no listing items, role counts or ready item.
	aged := [][2]string{{"ROLELISTING", "READY"}, {"COUNT#roles#ALL", "COUNT"}, {"COUNT#roles#ORG#org-a", "COUNT"}, {"COUNT#roles#ORG#org-b", "COUNT"}}
	for _, k := range aged {
		if _, err := client.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
			Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k[0]}, "sk": &types.AttributeValueMemberS{Value: k[1]}},
			ConditionExpression: aws.String("attribute_exists(pk)")}); err != nil {
			t.Fatalf("age %v: %v", k, err)
		}
	}
	for _, r := range roles {
		keys := [][2]string{{fmt.Sprint("ROLE#", r.ID), "LIST#ALL"}, {fmt.Sprint("ROLE#", r.ID), "LIST#ORG#" + r.OrganizationGUID}}
		for _, w := range strings.Fields(strings.ToLower(r.Name)) {
			keys = append(keys, [2]string{"RWORD#" + r.OrganizationGUID + "#" + w[:1], fmt.Sprintf("%s#%019d", w, r.ID)})
		}
		for _, k := range keys {
			if _, err := client.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(table),
				Key:                 map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k[0]}, "sk": &types.AttributeValueMemberS{Value: k[1]}},
				ConditionExpression: aws.String("attribute_exists(pk)")}); err != nil {
				t.Fatalf("age %v: %v", k, err)
			}
		}
	}
	admin := &auth.Principal{Kind: auth.KindPerson, OrganizationGUID: "org-a", User: &domain.User{ID: 9, InstitutionAdmin: true}}
	list := func(p *auth.Principal, query string) []int64 {
		t.Helper()
		page, _, err := s.ListRoles(context.Background(), p, domain.PageRequest{Size: 20, Query: query}, false)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range page.Items {
			ids = append(ids, r.ID)
		}
		slices.Sort(ids)
		return ids
	}
	for _, p := range []*auth.Principal{root, admin} {
		if got := list(p, ""); len(got) != 0 {
			t.Errorf("%s before the repair: %v; want none (no read of the scope whole)", p.Kind, got)
		}
	}
	for cursor := ""; ; {
		res, err := store.RepairIndexes(context.Background(), cursor, 5)
		if err != nil {
			t.Fatal(err)
		}
		if res.Done {
			break
		}
		cursor = res.Next
	}
	want := map[*auth.Principal][]int64{root: {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, admin: {1, 3, 5, 7, 9, 11}}
	for p, ids := range want {
		if got := list(p, ""); !slices.Equal(got, ids) {
			t.Errorf("%s after the repair: %v, want %v", p.Kind, got, ids)
		}
		if got := list(p, "lab"); !slices.Equal(got, ids) {
			t.Errorf("%s search after the repair: %v, want %v", p.Kind, got, ids)
		}
	}
}
