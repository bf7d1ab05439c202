package app

import (
	"os"
	"testing"
)

func TestMaxReceiveCountSetting(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	for _, tc := range []struct {
		value   string
		want    int
		wantErr bool
	}{{"", 0, false}, {"100", 100, false}, {"0", 0, true}, {"many", 0, true}} {
		t.Setenv("SCIM_MAX_RECEIVE_COUNT", tc.value)
		s, err := SettingsFromEnv()
		if (err != nil) != tc.wantErr || (err == nil && s.MaxReceiveCount != tc.want) {
			t.Errorf("%q: %d, %v; want %d (error %v)", tc.value, s.MaxReceiveCount, err, tc.want, tc.wantErr)
		}
	}
}

// TestExpiryLimitSetting: EXPIRY_LIMIT bounds the memberships one expiry
// run ends (unset: none); anything but a positive number stops the function.
func TestExpiryLimitSetting(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	for _, tc := range []struct {
		value   string
		want    int
		wantErr bool
	}{{"", 0, false}, {"3", 3, false}, {"0", 0, true}, {"-2", 0, true}, {"all", 0, true}} {
		t.Setenv("EXPIRY_LIMIT", tc.value)
		s, err := SettingsFromEnv()
		if (err != nil) != tc.wantErr || (err == nil && s.ExpiryLimit != tc.want) {
			t.Errorf("%q: %d, %v; want %d (error %v)", tc.value, s.ExpiryLimit, err, tc.want, tc.wantErr)
		}
	}
}

// TestRoleBudgetSettings: ROLE_DELETION_BUDGET and ROLE_MOVE_BUDGET bound
// the members a role's deletion or move handles in its request (unset:
// the service's default); anything but a positive number stops the
// function.
func TestRoleBudgetSettings(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	for _, name := range []string{"ROLE_DELETION_BUDGET", "ROLE_MOVE_BUDGET"} {
		for _, tc := range []struct {
			value   string
			want    int
			wantErr bool
		}{{"", 0, false}, {"5", 5, false}, {"0", 0, true}, {"-1", 0, true}, {"half", 0, true}} {
			t.Setenv("ROLE_DELETION_BUDGET", "")
			t.Setenv("ROLE_MOVE_BUDGET", "")
			t.Setenv(name, tc.value)
			s, err := SettingsFromEnv()
			got := map[string]int{"ROLE_DELETION_BUDGET": s.RoleDeletionBudget, "ROLE_MOVE_BUDGET": s.RoleMoveBudget}
			if (err != nil) != tc.wantErr || (err == nil && (got[name] != tc.want || got["ROLE_DELETION_BUDGET"]+got["ROLE_MOVE_BUDGET"] != tc.want)) {
				t.Errorf("%s=%q: %v, %v; want %d for it alone (error %v)", name, tc.value, got, err, tc.want, tc.wantErr)
			}
		}
	}
}

func TestSuperUsersSetting(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	t.Setenv("SUPER_USERS", " urn:collab:person:example.org:admin, boss@example.org\tthird ")
	s, err := SettingsFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"urn:collab:person:example.org:admin", "boss@example.org", "third"}
	if len(s.SuperUsers) != len(want) {
		t.Fatalf("SuperUsers = %q, want %q", s.SuperUsers, want)
	}
	for i := range want {
		if s.SuperUsers[i] != want[i] {
			t.Fatalf("SuperUsers = %q, want %q", s.SuperUsers, want)
		}
	}
}

// TestOutboundSettings: the address allow-list, the development switch for
// http and the connections' reference prefixes come from the environment;
// a malformed value stops the function instead of opening more.
func TestOutboundSettings(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	tests := []struct {
		name, allowed, http string
		refs                *string
		wantErr             bool
		check               func(Settings) bool
	}{
		{name: "defaults: closed, the stack's SP secrets", check: func(s Settings) bool {
			return len(s.Outbound.Allowed.Prefixes) == 0 && !s.Outbound.AllowHTTP && s.Outbound.Resolver != nil &&
				len(s.ConnectionReferences) == 1 && s.ConnectionReferences[0] == "secretsmanager:invite/sp/"
		}},
		{name: "allow-list and http", allowed: "10.20.0.0/16, scim.campus.example", http: "true", check: func(s Settings) bool {
			return len(s.Outbound.Allowed.Prefixes) == 1 && len(s.Outbound.Allowed.Hosts) == 1 && s.Outbound.AllowHTTP
		}},
		{name: "references set empty: own secrets only", refs: ptr(""), check: func(s Settings) bool { return len(s.ConnectionReferences) == 0 }},
		{name: "references", refs: ptr("env:SCIM_SP_ secretsmanager:ext/"), check: func(s Settings) bool { return len(s.ConnectionReferences) == 2 }},
		{name: "a whole environment", refs: ptr("env:"), wantErr: true},
		{name: "a malformed address", allowed: "10.0.0.0/40", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SCIM_ALLOWED_ADDRESSES", tc.allowed)
			t.Setenv("SCIM_ALLOW_HTTP", tc.http)
			if tc.refs != nil {
				t.Setenv("CONNECTION_SECRET_REFERENCES", *tc.refs)
			} else {
				unsetEnv(t, "CONNECTION_SECRET_REFERENCES")
			}
			s, err := SettingsFromEnv()
			if tc.wantErr {
				if err == nil {
					t.Fatal("accepted")
				}
				return
			}
			if err != nil || !tc.check(s) {
				t.Fatalf("%+v, %v", s, err)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// unsetEnv unsets a variable for the test and restores it after.
func unsetEnv(t *testing.T, key string) {
	t.Setenv(key, "")
	if err := os.Unsetenv(key); err != nil {
		t.Fatal(err)
	}
}
