package dynamo

import (
	"slices"
	"strings"
	"testing"
	"time"

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

// Issue 21 item 1: a date written before dates were bounded (a year after
// 9999) reads back, and an item that cannot be read at all is left out of
// a listing instead of failing it.
func TestListingsSurvivePoisonedDates(t *testing.T) {
	end := time.Date(2030, 1, 2, 0, 0, 0, 0, time.UTC)
	good := func(roleID int64) item {
		av, err := marshal(newUserRoleRecord(domain.UserRole{ID: roleID, UserID: 7, RoleID: roleID, Authority: domain.Guest, EndDate: &end, CreatedAt: end}, 1))
		if err != nil {
			t.Fatal(err)
		}
		return av
	}
	longYear, garbage := good(2), good(3)
	longYear["endDate"] = &types.AttributeValueMemberS{Value: "56896-06-13T08:00:00Z"}
	garbage["endDate"] = &types.AttributeValueMemberS{Value: "not a date"}
	urs, err := decodeUserRoles([]item{good(1), longYear, garbage, good(4)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, ur := range urs {
		ids = append(ids, ur.RoleID)
	}
	if !slices.Equal(ids, []int64{1, 2, 4}) {
		t.Fatalf("roles read %v, want 1, 2 and 4 (3 left out)", ids)
	}
	if y := urs[1].EndDate.Year(); y != 56896 || domain.DateInRange(*urs[1].EndDate) {
		t.Errorf("long year read as %v", urs[1].EndDate)
	}
}

func TestParseTimeRoundTripsEveryStorableDate(t *testing.T) {
	for _, d := range []time.Time{domain.MinDate, domain.MaxDate, time.Date(2000, 2, 29, 23, 59, 59, 999999999, time.UTC)} {
		got, err := parseTime(formatTime(d))
		if err != nil || !got.Equal(d) {
			t.Errorf("%v read back as %v %v", d, got, err)
		}
	}
	for _, s := range []string{"12345-02-29T00:00:00Z", "-1-01-01T00:00:00Z", "x", "99999"} {
		if s == "12345-02-29T00:00:00Z" {
			// 12345 is not a leap year: time.Date normalizes to 1 March.
			if got, err := parseTime(s); err != nil || got.Year() != 12345 {
				t.Errorf("%s: %v %v", s, got, err)
			}
			continue
		}
		if _, err := parseTime(s); err == nil {
			t.Errorf("%q read as a time", s)
		}
	}
}

func TestLoggableKeyHidesNonNumericParts(t *testing.T) {
	av := item{attrPK: &types.AttributeValueMemberS{Value: "SUB#urn:collab:person:example.org:jdoe"},
		attrSK: &types.AttributeValueMemberS{Value: "USERROLE#42"}}
	if got := loggableKey(av); got != "SUB#… USERROLE#42" {
		t.Errorf("loggableKey = %q", got)
	}
}

func TestMarshalRefusesItemsBeyond400KB(t *testing.T) {
	inv := domain.Invitation{ID: 1, Message: strings.Repeat("x", maxItemSize)}
	if _, err := marshal(newInvitationRecord(inv, 1)); domain.KindOf(err) != domain.KindInvalid {
		t.Fatalf("err = %v, want invalid input", err)
	}
	inv.Message = strings.Repeat("x", 4000)
	if _, err := marshal(newInvitationRecord(inv, 1)); err != nil {
		t.Fatal(err)
	}
}
