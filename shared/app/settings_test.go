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
