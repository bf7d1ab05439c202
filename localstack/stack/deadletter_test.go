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
	t.Setenv("SP_B_TOKEN", "a-revoked-token")
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
	t.Setenv("SP_B_TOKEN", "token-b")
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
