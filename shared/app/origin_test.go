package app

import (
	"testing"

	"github.com/edu-invite/invite/shared/secrets"
)

// TestOriginSecretSetting: the check is on exactly when its configuration
// is present (an explicit reference wins over the stack's ARN), never by
// the name of an environment.
func TestOriginSecretSetting(t *testing.T) {
	t.Setenv("TABLE_NAME", "invite")
	const arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:invite/origin-verify-AbCdEf"
	for _, tc := range []struct {
		ref, arn, want string
	}{
		{"", "", ""},
		{"", arn, "secretsmanager:" + arn},
		{"env:MY_ORIGIN_SECRET", arn, "env:MY_ORIGIN_SECRET"},
	} {
		t.Setenv("ORIGIN_VERIFY_SECRET", tc.ref)
		t.Setenv("ORIGIN_VERIFY_SECRET_ARN", tc.arn)
		s, err := SettingsFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if s.OriginSecret != tc.want {
			t.Errorf("ref %q arn %q: OriginSecret %q, want %q", tc.ref, tc.arn, s.OriginSecret, tc.want)
		}
		check := originCheck(s.OriginSecret, secrets.NewResolver(nil, 0), nil)
		if (check != nil) != (tc.want != "") || (check != nil && check.Ref != tc.want) {
			t.Errorf("ref %q arn %q: check %+v", tc.ref, tc.arn, check)
		}
		// The stack's secret: its previous version passes too (rotation).
		wantPrevious := map[bool]string{true: "secretsmanager:" + arn + "?versionStage=AWSPREVIOUS"}[tc.ref == "" && tc.arn != ""]
		if check != nil && check.PreviousRef != wantPrevious {
			t.Errorf("ref %q arn %q: PreviousRef %q, want %q", tc.ref, tc.arn, check.PreviousRef, wantPrevious)
		}
	}
}
