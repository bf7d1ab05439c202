package stack

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"
)

// One SP refuses the service's credentials: its deliveries dead-letter at
// once with the reason, the other SP is unaffected, and once the credentials
// are fixed a replay brings it in line.
func TestRefusedCredentialsDeadLetterAndReplay(t *testing.T) {
	f := newLifecycleFixture(t)
	t.Setenv("SAMPLE_SP_TOKEN_B", "a-revoked-token")
	roleA := f.createRole("Wiki editors", "app-a", 30)
	roleB := f.createRole("Lab members", "app-b", 30)
	const alice = "alice@example.org"
	f.inviteAndAccept(alice, "en", "", roleA, roleB)

	eventually(t, "alice in the group at SP A", func() bool { return members(f.spA) == 1 })
	type deadLetter struct {
		ID     string `json:"id"`
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
		Status string `json:"status"`
	}
	var failed []deadLetter
	eventually(t, "three dead letters for SP B", func() bool {
		failed = nil
		f.c.do("GET", "/api/v1/system/deliveries/failed?sp=sp-b", f.admin, nil, &failed)
		return len(failed) == 3
	})
	kinds := []string{}
	for _, d := range failed {
		kinds = append(kinds, d.Kind)
		if !strings.Contains(d.Reason, "401") || strings.Contains(d.Reason, "a-revoked-token") || d.Status != "failed" {
			t.Fatalf("dead letter %+v: want the 401 as reason, without the token", d)
		}
	}
	if strings.Join(kinds, ",") != "group.create,user.create,member.add" {
		t.Fatalf("dead letters in order %v", kinds)
	}
	if len(f.spB.Users()) != 0 || len(f.spB.Groups()) != 0 {
		t.Fatal("SP B got something although it refused every call")
	}
	// The dead-letter queue itself holds them too, with the reason.
	out, err := f.s.App.SQS.ReceiveMessage(context.Background(), &awssqs.ReceiveMessageInput{
		QueueUrl: aws.String(f.s.App.Settings.DeadLetterURL), MaxNumberOfMessages: 10, MessageAttributeNames: []string{"All"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Messages) != 3 || !strings.Contains(aws.ToString(out.Messages[0].MessageAttributes["reason"].StringValue), "401") {
		t.Fatalf("DLQ has %d messages", len(out.Messages))
	}
	user, err := f.s.App.Store.GetUserBySub(context.Background(), "sub-alice")
	if err != nil {
		t.Fatal(err)
	}
	wantStatus := func(who map[string]string, path string, want map[string]string) {
		t.Helper()
		var got []struct {
			SP       string `json:"sp"`
			Status   string `json:"status"`
			RemoteID string `json:"remoteId"`
			Reason   string `json:"reason"`
		}
		if code := f.c.do("GET", path, who, nil, &got); code != 200 || len(got) != len(want) {
			t.Fatalf("%s = %d %+v, want %v", path, code, got, want)
		}
		for _, g := range got {
			if g.Status != want[g.SP] || (g.Status == "provisioned") != (g.RemoteID != "") || (g.Status == "failed") != strings.Contains(g.Reason, "401") {
				t.Fatalf("%s: %+v, want %v", path, got, want)
			}
		}
	}
	checkReadableAudit(t, f, alice, roleA, roleB)
	guest := map[string]string{"Authorization": "Bearer " + f.tokens[alice]}
	userPath := fmt.Sprintf("/api/v1/users/%d/provisioning", user.ID)
	wantStatus(f.admin, userPath, map[string]string{"sp-a": "provisioned", "sp-b": "failed"})
	wantStatus(guest, userPath, map[string]string{"sp-a": "provisioned", "sp-b": "failed"}) // one's own status
	wantStatus(f.admin, fmt.Sprintf("/api/v1/roles/%d/provisioning", roleB), map[string]string{"sp-b": "failed"})
	var e errorBody
	// An unknown user is 404 for every caller (issue 21 item 7).
	if got := f.c.do("GET", "/api/v1/users/999999/provisioning", guest, nil, &e); got != http.StatusNotFound {
		t.Fatalf("an unknown user's status as a guest = %d, want 404", got)
	}
	if got := f.c.do("POST", "/api/v1/system/deliveries/replay", guest, map[string]any{"sp": "sp-b"}, &e); got != http.StatusForbidden {
		t.Fatalf("replay by a guest = %d, want 403", got)
	}

	// Credentials fixed, replay everything of SP B.
	t.Setenv("SAMPLE_SP_TOKEN_B", "token-b")
	var replayed map[string]int
	if got := f.c.do("POST", "/api/v1/system/deliveries/replay", f.admin, map[string]any{"sp": "sp-b"}, &replayed); got != 200 || replayed["replayed"] != 3 {
		t.Fatalf("replay = %d %v", got, replayed)
	}
	eventually(t, "alice in the group at SP B", func() bool {
		gs := f.spB.Groups()
		return len(f.spB.Users()) == 1 && len(gs) == 1 && len(gs[0].Members) == 1
	})
	failed = nil
	f.c.do("GET", "/api/v1/system/deliveries/failed?sp=sp-b", f.admin, nil, &failed)
	if len(failed) != 0 {
		t.Fatalf("still failed after the replay: %+v", failed)
	}
	wantStatus(f.admin, userPath, map[string]string{"sp-a": "provisioned", "sp-b": "provisioned"})

	// The audit trail of role B shows the membership's failure and its
	// success at SP B, tied to the acceptance request by its correlation id.
	audit, err := f.s.App.Store.ListAuditEntriesOfRole(context.Background(), roleB)
	if err != nil {
		t.Fatal(err)
	}
	var trail []string
	for _, e := range audit {
		if e.SP == "sp-b" && e.DeliveryKind == "member.add" {
			if e.CorrelationID != "accept-alice" {
				t.Fatalf("audit entry %+v lacks the acceptance's correlation id", e)
			}
			trail = append(trail, string(e.Action))
		}
	}
	if strings.Join(trail, ",") != "PROVISIONING_FAILED,PROVISIONED" {
		t.Fatalf("audit trail of the membership at SP B = %v", trail)
	}
	wantStatus(f.admin, fmt.Sprintf("/api/v1/roles/%d/provisioning", roleB), map[string]string{"sp-b": "provisioned"})
	if got := f.c.do("POST", "/api/v1/system/deliveries/replay", f.admin, map[string]any{"sp": "sp-b", "ids": []string{"x"}}, &e); got != http.StatusBadRequest {
		t.Fatalf("replay with ids and sp = %d, want 400", got)
	}
}

// checkReadableAudit: the audit rows of Alice's acceptance and of the
// failed deliveries to SP B read on their own: each has its id, the
// person's e-mail, the role's name where there is a role, the action, the
// application's SCIM target and, for a failure, the reason; newest first.
func checkReadableAudit(t *testing.T, f *lifecycleFixture, email string, roleA, roleB int64) {
	t.Helper()
	type row struct {
		ID           int64  `json:"id"`
		UserEmail    string `json:"userEmail"`
		RoleID       int64  `json:"roleId"`
		RoleName     string `json:"roleName"`
		Action       string `json:"action"`
		CreatedAt    string `json:"createdAt"`
		CreatedBy    string `json:"createdBy"`
		SP           string `json:"sp"`
		DeliveryKind string `json:"deliveryKind"`
		Reason       string `json:"reason"`
	}
	var page struct {
		Content []row `json:"content"`
	}
	var rows []row
	eventually(t, "the provisioning outcomes of alice in the audit", func() bool {
		page.Content = nil
		f.c.do("GET", "/api/v1/user_roles_audit/search?pageSize=100&email="+email, f.admin, nil, &page)
		rows = page.Content
		n := 0
		for _, r := range rows {
			if r.Action == "PROVISIONED" || r.Action == "PROVISIONING_FAILED" {
				n++
			}
		}
		return n == 4 // user.create and member.add at each SP
	})
	seen := map[int64]bool{}
	find := func(action, sp, kind string, roleID int64) row {
		t.Helper()
		for _, r := range rows {
			if r.Action == action && r.SP == sp && r.DeliveryKind == kind && r.RoleID == roleID {
				return r
			}
		}
		t.Fatalf("no %s row for %s at %q for role %d in %+v", action, kind, sp, roleID, rows)
		return row{}
	}
	for i, r := range rows {
		if r.ID <= 0 || seen[r.ID] || r.UserEmail != email || r.CreatedAt == "" || r.CreatedBy == "" {
			t.Errorf("audit row %+v: want its own id, the e-mail, a time and who did it", r)
		}
		seen[r.ID] = true
		if i > 0 && r.CreatedAt > rows[i-1].CreatedAt {
			t.Errorf("audit rows not newest first: %s after %s", r.CreatedAt, rows[i-1].CreatedAt)
		}
	}
	for _, want := range []struct {
		action, sp, kind, roleName string
		roleID                     int64
	}{
		{"ADD", "", "", "Wiki editors", roleA},
		{"ADD", "", "", "Lab members", roleB},
		{"PROVISIONED", "sp-a", "user.create", "", 0},
		{"PROVISIONED", "sp-a", "member.add", "Wiki editors", roleA},
		{"PROVISIONING_FAILED", "sp-b", "user.create", "", 0},
		{"PROVISIONING_FAILED", "sp-b", "member.add", "Lab members", roleB},
	} {
		r := find(want.action, want.sp, want.kind, want.roleID)
		if r.RoleName != want.roleName {
			t.Errorf("%s %s row names role %q, want %q", want.action, want.kind, r.RoleName, want.roleName)
		}
		failed := want.action == "PROVISIONING_FAILED"
		if failed != strings.Contains(r.Reason, "401") || (want.sp != "" && r.CreatedBy != "provisioner") {
			t.Errorf("%s %s row %+v: want the 401 as reason on failures only, by the provisioner", want.action, want.kind, r)
		}
	}
	// The group's failed creation at SP B is in the role's audit, by name.
	var group struct {
		Content []row `json:"content"`
	}
	f.c.do("GET", fmt.Sprintf("/api/v1/user_roles_audit/search?roleId=%d&action=PROVISIONING_FAILED", roleB), f.admin, nil, &group)
	kinds := map[string]row{}
	for _, r := range group.Content {
		kinds[r.DeliveryKind] = r
	}
	if g := kinds["group.create"]; g.ID <= 0 || g.RoleName != "Lab members" || g.SP != "sp-b" || !strings.Contains(g.Reason, "401") {
		t.Errorf("failed group creation row %+v", g)
	}
}

// Regression: after dead letters are discarded, GET /api/v1/tokens answers
// (on minidyn, the discarded deliveries' stale index entries made it a 500)
// and the dead-letter view is empty.
func TestTokensListedAfterADiscardedDeadLetter(t *testing.T) {
	f := newLifecycleFixture(t)
	t.Setenv("SAMPLE_SP_TOKEN_B", "a-revoked-token")
	roleB := f.createRole("Lab members", "app-b", 30)
	f.inviteAndAccept("alice@example.org", "en", "", roleB)
	var failed []struct {
		ID string `json:"id"`
	}
	eventually(t, "three dead letters for SP B", func() bool {
		failed = nil
		f.c.do("GET", "/api/v1/system/deliveries/failed?sp=sp-b", f.admin, nil, &failed)
		return len(failed) == 3
	})
	var discarded map[string]int
	if got := f.c.do("POST", "/api/v1/system/deliveries/discard", f.admin, map[string]any{"ids": []string{failed[0].ID}}, &discarded); got != http.StatusOK || discarded["discarded"] != 1 {
		t.Fatalf("discard = %d %v", got, discarded)
	}
	var tokens []map[string]any
	if got := f.c.do("GET", "/api/v1/tokens", f.admin, nil, &tokens); got != http.StatusOK {
		t.Fatalf("GET /api/v1/tokens after a discarded dead letter = %d, want 200", got)
	}
	failed = nil
	if got := f.c.do("GET", "/api/v1/system/deliveries/failed?sp=sp-b", f.admin, nil, &failed); got != http.StatusOK || len(failed) != 2 {
		t.Fatalf("dead letters after discarding one = %d %+v, want the two others", got, failed)
	}
}
