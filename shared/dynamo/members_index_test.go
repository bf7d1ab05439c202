package dynamo_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/dynamo"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
)

func spsOf(r domain.Role) []string {
	var ids []string
	for _, u := range r.ApplicationUsages {
		ids = append(ids, u.Application.ProvisioningIDs...)
	}
	return ids
}

// rows are the members of a view or page as "name/email/authority/end".
func rows(members []domain.Member) []string {
	var out []string
	for _, m := range members {
		end := "-"
		if m.UserRole.EndDate != nil {
			end = m.UserRole.EndDate.Format(time.DateOnly)
		}
		out = append(out, m.User.DisplayName()+"/"+m.User.Email+"/"+string(m.UserRole.Authority)+"/"+end)
	}
	return out
}

func named(userID int64, name string) domain.User {
	u := user(userID, "sub-"+id(userID))
	u.Name = name
	return u
}

// acceptInto adds a new user to roles through an accepted invitation.
func acceptInto(t *testing.T, s *dynamo.Store, u domain.User, roleIDs ...int64) {
	t.Helper()
	inv := invitation(u.ID, "digest-"+id(u.ID), roleIDs...)
	inv.Email = u.Email
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
	inv.Version, inv.Status = 1, domain.InvitationAccepted
	accepted := testNow
	inv.AcceptedAt = &accepted
	var urs []domain.UserRole
	for _, r := range roleIDs {
		urs = append(urs, membership(u.ID*10+r, u.ID, r))
	}
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: u, NewUser: true, NewUserRoles: urs}))
}

// TestMembersIndexFollowsEveryWrite: a role's page (RoleView) reads the
// role, a page of members by name with their e-mail, authority and end
// date, their SP links, the member count and the invitations (with their
// state) in three requests, and stays right after a rename, an authority
// and end date change, a removal and an acceptance.
func TestMembersIndexFollowsEveryWrite(t *testing.T) {
	s, requests := countingStore(t)
	must(t, s.CreateRole(ctx(t), role(1, "One", "app"), nil))
	must(t, s.CreateRole(ctx(t), role(2, "Two"), nil))
	acceptInto(t, s, named(10, "Zed Zulu"), 1, 2)
	acceptInto(t, s, named(11, "anna Apple"), 1)
	acceptInto(t, s, named(12, "Bob Baker"), 1)
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: 11, SPID: "sp-app", RemoteID: "r11",
		Status: domain.StatusFailed, LastError: "401", UpdatedAt: testNow}))

	view := func(after string, size int) domain.RoleView {
		t.Helper()
		before := requests.Load()
		v, err := s.RoleView(ctx(t), 1, after, size, spsOf)
		must(t, err)
		if n := requests.Load() - before; n > 3 {
			t.Errorf("RoleView made %d requests, at most 3", n)
		}
		return v
	}
	end := testNow.AddDate(0, 6, 0).Format(time.DateOnly)
	first := view("", 2)
	if want := []string{"anna Apple/sub-11@example.org/GUEST/" + end, "Bob Baker/sub-12@example.org/GUEST/" + end}; !slices.Equal(rows(first.Members), want) {
		t.Errorf("first page = %v, want %v", rows(first.Members), want)
	}
	if first.Role.Name != "One" || first.MemberCount != 3 || first.Next == "" {
		t.Errorf("role %q, count %d, next %q", first.Role.Name, first.MemberCount, first.Next)
	}
	if len(first.Links) != 1 || first.Links[0].LocalID != 11 || first.Links[0].LastError != "401" {
		t.Errorf("links = %+v, want user 11's failed link", first.Links)
	}
	if len(first.Invitations) != 3 || first.Invitations[0].ID != 12 || first.Invitations[0].Status != domain.InvitationAccepted ||
		first.Invitations[0].Email != "sub-12@example.org" || first.Invitations[0].AcceptedAt == nil {
		t.Errorf("invitations = %+v, want 12, 11, 10 accepted", first.Invitations)
	}
	slices.SortFunc(first.InvitationRoles, func(a, b domain.Role) int { return int(a.ID - b.ID) })
	if names := roleNames(first.InvitationRoles); names != "1:One 2:Two " {
		t.Errorf("invitation roles = %s", names)
	}
	second := view(first.Next, 2)
	if want := []string{"Zed Zulu/sub-10@example.org/GUEST/" + end}; !slices.Equal(rows(second.Members), want) || second.Next != "" {
		t.Errorf("second page = %v next %q, want %v", rows(second.Members), second.Next, want)
	}
	if _, err := s.RoleView(ctx(t), 2, first.Next, 2, spsOf); domain.KindOf(err) != domain.KindInvalid {
		t.Errorf("role 1's token on role 2: %v, want invalid", err)
	}

	// A rename moves the member in every role's index.
	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	u.Name, u.Email = "Aaron Ant", "aaron@example.org"
	must(t, s.UpdateUser(ctx(t), u, nil))
	if got := rows(view("", 1).Members); len(got) != 1 || got[0] != "Aaron Ant/aaron@example.org/GUEST/"+end {
		t.Errorf("after the rename, first = %v", got)
	}
	_, members, _, err := s.MemberRowsOfRole(ctx(t), 2, 10)
	must(t, err)
	if got := rows(members); len(got) != 1 || got[0] != "Aaron Ant/aaron@example.org/GUEST/"+end {
		t.Errorf("role 2 after the rename = %v", got)
	}

	// Authority and end date changes keep the copy.
	ur, err := s.GetUserRole(ctx(t), 11, 1)
	must(t, err)
	ur.Authority, ur.EndDate = domain.Manager, nil
	must(t, s.UpdateUserRole(ctx(t), ur, nil, nil))
	// A reminder, written from the expiry index's copy of the membership, keeps it.
	ending, err := s.ListUserRolesEndingBetween(ctx(t), testNow, testNow.AddDate(1, 0, 0), 10)
	must(t, err)
	if len(ending) == 0 {
		t.Fatal("no membership in the expiry index")
	}
	for _, e := range ending {
		if e.UserID == 10 && e.RoleID == 1 {
			e.ExpiryNotifications = 1
			must(t, s.RecordReminder(ctx(t), e, 0, domain.MailDelivery{ID: "reminder-10", Email: domain.Email{To: e.Listing.Email, Subject: "Reminder"}}))
		}
	}
	// A removal takes the member out.
	gone, err := s.GetUserRole(ctx(t), 12, 1)
	must(t, err)
	must(t, s.DeleteUserRoles(ctx(t), []domain.UserRole{gone}, nil, nil))
	v := view("", 10)
	if want := []string{"Aaron Ant/aaron@example.org/GUEST/" + end, "anna Apple/sub-11@example.org/MANAGER/-"}; !slices.Equal(rows(v.Members), want) {
		t.Errorf("after the changes = %v, want %v", rows(v.Members), want)
	}
	if v.MemberCount != 2 {
		t.Errorf("count = %d, want 2", v.MemberCount)
	}

	// The stored role (read again in the BatchGetItem) names an SP that
	// the index's copy did not (an edit a moment ago): its links are read too.
	must(t, s.PutLink(ctx(t), domain.SPLink{Kind: domain.ResourceUser, LocalID: 11, SPID: "sp-new", RemoteID: "n11",
		Status: domain.StatusProvisioned, UpdatedAt: testNow}))
	calls := 0
	staleCopy := func(r domain.Role) []string {
		if calls++; calls == 1 {
			return spsOf(r)
		}
		return append(spsOf(r), "sp-new")
	}
	v, err = s.RoleView(ctx(t), 1, "", 10, staleCopy)
	must(t, err)
	var sps []string
	for _, l := range v.Links {
		sps = append(sps, l.SPID)
	}
	slices.Sort(sps)
	if !slices.Equal(sps, []string{"sp-app", "sp-new"}) {
		t.Errorf("links after the SPs changed: %v", sps)
	}
}

// TestIndexRepairCompletesRolesOfOlderData: reads trust the members index
// and the invitation links' copies, so data of older versions (memberships
// without the user's copy, invitation links without the invitation's copy,
// a role item without its index keys, and a link without a copy on a role
// whose index is otherwise complete) is completed once by the index repair,
// after which the role's page, its member rows and its open invitations are
// whole; a second repair builds nothing.
func TestIndexRepairCompletesRolesOfOlderData(t *testing.T) {
	client, table := dynamotest.NewClient(t)
	s := dynamo.New(client, table, func() time.Time { return testNow })
	must(t, s.Seed(ctx(t), domain.Seed{Roles: []domain.Role{role(5, "Five", "app"), role(6, "Six")}, Users: []domain.User{named(50, "Yara"), named(51, "Xavi")},
		UserRoles: []domain.UserRole{membership(501, 50, 5), membership(502, 51, 5)}}))
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{invitation(9, "digest-9", 5), invitation(10, "digest-10", 6)}))
	// Make them what older versions wrote: no copies, no gsi4 keys.
	strip := func(pk, sk, remove string) {
		t.Helper()
		in := &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key:              map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}},
			UpdateExpression: aws.String("REMOVE gsi4pk, gsi4sk, " + remove)}
		if strings.Contains(remove, "#st") {
			in.ExpressionAttributeNames = map[string]string{"#st": "status"}
		}
		_, err := client.UpdateItem(ctx(t), in)
		must(t, err)
	}
	strip("ROLE#5", "ROLE", "membersListed")
	strip("USER#50", "UR#5", "listed, memberName, memberEmail, memberGivenName")
	strip("USER#51", "UR#5", "listed, memberName, memberEmail, memberGivenName")
	strip("INV#9", "ROLE#5", "listed, email, intendedAuthority, #st")
	strip("INV#10", "ROLE#6", "listed, email, intendedAuthority, #st")

	// Before the repair the index is trusted as it is: the role (not in its
	// own index) is read by key, its members and its uncopied link are not
	// shown, which is why the upgrade requires the repair.
	v, err := s.RoleView(ctx(t), 5, "", 10, spsOf)
	must(t, err)
	if v.Role.Name != "Five" || len(v.Members) != 0 || len(v.Invitations) != 0 {
		t.Errorf("before the repair: role %q, %d members, %d invitations; want the role alone", v.Role.Name, len(v.Members), len(v.Invitations))
	}
	if res := repairAll(t, s, 100); res.MembersIndexesBuilt != 1 {
		t.Errorf("first repair built %d members indexes, want 1 (role 5)", res.MembersIndexesBuilt)
	}
	v, err = s.RoleView(ctx(t), 5, "", 10, spsOf)
	must(t, err)
	end := testNow.AddDate(0, 6, 0).Format(time.DateOnly)
	if want := []string{"Xavi/sub-51@example.org/GUEST/" + end, "Yara/sub-50@example.org/GUEST/" + end}; !slices.Equal(rows(v.Members), want) {
		t.Errorf("after the repair: members %v, want %v", rows(v.Members), want)
	}
	if len(v.Invitations) != 1 || v.Invitations[0].Email != "guest@example.org" || v.MemberCount != 2 {
		t.Errorf("after the repair: invitations %+v, count %d", v.Invitations, v.MemberCount)
	}
	if _, members, _, err := s.MemberRowsOfRole(ctx(t), 5, 10); err != nil || len(members) != 2 {
		t.Errorf("member rows after the repair: %d, %v", len(members), err)
	}
	for _, roleID := range []int64{5, 6} {
		open, err := s.ListOpenInvitationsOfRole(ctx(t), roleID)
		must(t, err)
		if len(open) != 1 {
			t.Errorf("role %d: %d open invitations after the repair, want 1", roleID, len(open))
		}
	}
	v, err = s.RoleView(ctx(t), 6, "", 10, spsOf)
	must(t, err)
	if len(v.Invitations) != 1 || v.Invitations[0].ID != 10 || v.Invitations[0].Email != "guest@example.org" {
		t.Errorf("role 6 after the repair: invitations %+v", v.Invitations)
	}
	if res := repairAll(t, s, 100); res.MembersIndexesBuilt != 0 {
		t.Errorf("second repair built %d members indexes, want 0", res.MembersIndexesBuilt)
	}
	must(t, s.RebuildMembersIndexOfRole(ctx(t), 5)) // idempotent
	mustNotFound(t, s.RebuildMembersIndexOfRole(ctx(t), 404))
}

// TestRenameRelistsEveryMembership: a user's new name reaches every
// membership's copy, also beyond what one transaction holds (120
// memberships), and an acceptance by a renamed user renames the
// memberships it does not write itself.
func TestRenameRelistsEveryMembership(t *testing.T) {
	s := newStore(t)
	var roles []domain.Role
	var urs []domain.UserRole
	for r := int64(1); r <= 120; r++ {
		roles = append(roles, role(r, "Role "+id(r)))
		urs = append(urs, membership(1000+r, 10, r))
	}
	must(t, s.Seed(ctx(t), domain.Seed{Roles: roles, Users: []domain.User{named(10, "Old Name")}, UserRoles: urs}))
	nameIn := func(roleID int64) string {
		t.Helper()
		_, members, _, err := s.MemberRowsOfRole(ctx(t), roleID, 10)
		must(t, err)
		if len(members) != 1 {
			t.Fatalf("role %d: %d members", roleID, len(members))
		}
		return members[0].User.DisplayName()
	}
	u, err := s.GetUser(ctx(t), 10)
	must(t, err)
	u.Name = "New Name"
	must(t, s.UpdateUser(ctx(t), u, nil))
	for _, r := range []int64{1, 60, 120} {
		if got := nameIn(r); got != "New Name" {
			t.Errorf("role %d lists %q after the rename", r, got)
		}
	}

	must(t, s.CreateRole(ctx(t), role(200, "Accepted"), nil))
	u, err = s.GetUser(ctx(t), 10)
	must(t, err)
	u.Name = "Accepted Name"
	inv := invitation(77, "digest-77", 200)
	must(t, s.CreateInvitations(ctx(t), []domain.Invitation{inv}))
	inv.Version, inv.Status = 1, domain.InvitationAccepted
	must(t, s.SaveAcceptance(ctx(t), domain.Acceptance{Invitation: inv, User: u, NewUserRoles: []domain.UserRole{membership(2000, 10, 200)}}))
	for _, r := range []int64{1, 120, 200} {
		if got := nameIn(r); got != "Accepted Name" {
			t.Errorf("role %d lists %q after the acceptance", r, got)
		}
	}
}
