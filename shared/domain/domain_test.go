package domain

import (
	"sort"
	"testing"
	"time"
)

func TestAuthorityLadder(t *testing.T) {
	ladder := []Authority{Guest, Inviter, Manager, ApplicationManager, InstitutionAdmin, SuperUser}
	for i, a := range ladder {
		for j, b := range ladder {
			if got := a.AtLeast(b); got != (i >= j) {
				t.Errorf("%s.AtLeast(%s) = %v", a, b, got)
			}
			if got := a.Higher(b); got != (i > j) {
				t.Errorf("%s.Higher(%s) = %v", a, b, got)
			}
		}
	}
	if Authority("").AtLeast(Guest) || Authority("OWNER").Valid() {
		t.Error("an unknown authority counts")
	}
	if _, err := ParseAuthority("guest"); KindOf(err) != KindInvalid {
		t.Errorf("lower-case authority accepted: %v", err)
	}
}

func TestShortNameOf(t *testing.T) {
	tests := map[string]string{
		"Wiki editors":          "wiki-editors",
		"  Researchers (2027) ": "researchers-2027",
		"a--b__c":               "a-b-c",
		"Ünïcode näme":          "n-code-n-me",
		"!!!":                   "",
	}
	for in, want := range tests {
		if got := ShortNameOf(in); got != want {
			t.Errorf("ShortNameOf(%q) = %q, want %q", in, got, want)
		}
	}
	if NormalizedRoleName(" Wiki ") != NormalizedRoleName("wiki") {
		t.Error("role names differing in case and spaces are not the same")
	}
}

func TestUserIdentifier(t *testing.T) {
	full := User{Sub: "sub-1", EduPersonPrincipalName: "a@uni.example", Email: "a@mail.example", FedID: "fed-1"}
	guest := User{Sub: "sub-2", Email: "g@mail.example", FedID: "fed-2"}
	bare := User{Sub: "sub-3"}
	tests := []struct {
		u    User
		kind UserIdentifier
		want string
	}{
		{full, IdentifierEPPN, "a@uni.example"},
		{full, IdentifierEmail, "a@mail.example"},
		{full, IdentifierSubject, "sub-1"},
		{full, IdentifierFedID, "fed-1"},
		{guest, IdentifierEPPN, "fed-2"}, // guests without eppn: the federated id (spec 1.8)
		{bare, IdentifierEPPN, "sub-3"},
		{bare, IdentifierEmail, "sub-3"},
	}
	for _, tc := range tests {
		if got := tc.u.Identifier(tc.kind); got != tc.want {
			t.Errorf("%+v.Identifier(%s) = %q, want %q", tc.u, tc.kind, got, tc.want)
		}
	}
	if (User{GivenName: "Ada", FamilyName: "Lovelace"}).DisplayName() != "Ada Lovelace" || (User{Name: "A. L."}).DisplayName() != "A. L." {
		t.Error("DisplayName")
	}
}

func TestDeliveryIDsSortInCreationOrderAndAreUnique(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var ids []string
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		// Ten ids per millisecond, and a clock that steps back once.
		at := base.Add(time.Duration(i/10) * time.Millisecond)
		if i == 500 {
			at = base
		}
		id := NewDeliveryID(at)
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if !sort.StringsAreSorted(ids) {
		t.Fatal("ids do not sort in creation order")
	}
}

func TestInvitationExpired(t *testing.T) {
	exp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	inv := Invitation{ExpiryDate: exp}
	if inv.Expired(exp.Add(-time.Second)) || !inv.Expired(exp) || !inv.Expired(exp.Add(time.Second)) {
		t.Error("an invitation expires exactly at its expiry date")
	}
}

func TestOrderKeyOf(t *testing.T) {
	patch := ServiceProvider{ID: "wiki", MembershipMode: MembershipPatch}
	put := ServiceProvider{ID: "lms", MembershipMode: MembershipPut}
	tests := []struct {
		sp   ServiceProvider
		kind DeliveryKind
		want string
	}{
		{patch, DeliverUserCreate, "wiki/user/7"},
		{patch, DeliverUserUpdate, "wiki/user/7"},
		{patch, DeliverUserDelete, "wiki/user/7"},
		{patch, DeliverMemberAdd, "wiki/user/7"},    // after the user's creation, before its deletion
		{patch, DeliverMemberRemove, "wiki/user/7"}, // before the user's deletion
		{patch, DeliverGroupCreate, "wiki/group/3"},
		{patch, DeliverGroupDelete, "wiki/group/3"},
		{put, DeliverMemberAdd, "lms/group/3"}, // whole-group PUTs must not race
		{put, DeliverMemberRemove, "lms/group/3"},
		{put, DeliverUserCreate, "lms/user/7"},
	}
	for _, tc := range tests {
		if got := OrderKeyOf(tc.sp, tc.kind, 7, 3); got != tc.want {
			t.Errorf("OrderKeyOf(%s, %s) = %q, want %q", tc.sp.ID, tc.kind, got, tc.want)
		}
	}
}
