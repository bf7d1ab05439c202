package dynamo

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/edu-invite/invite/shared/domain"
)

// No record is written with an empty list attribute, whatever the slice:
// absent and empty read back alike.
func TestMarshalLeavesOutEmptyLists(t *testing.T) {
	for name, rec := range map[string]any{
		"invitation": newInvitationRecord(domain.Invitation{ID: 1, RoleIDs: []int64{}}, 1),
		"user org":   userOrgRecord{RoleIDs: []int64{}},
	} {
		av, err := marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := av["roleIds"]; ok {
			t.Errorf("%s: roleIds written as %#v", name, v)
		}
	}
	av, err := marshal(newInvitationRecord(domain.Invitation{ID: 1, RoleIDs: []int64{4, 5}}, 1))
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := av["roleIds"].(*types.AttributeValueMemberL); !ok || len(l.Value) != 2 {
		t.Errorf("roleIds %#v, want a list of two", av["roleIds"])
	}
}
