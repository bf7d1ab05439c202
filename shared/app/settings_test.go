package app

import "testing"

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
