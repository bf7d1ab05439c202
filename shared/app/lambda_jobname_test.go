package app

import "testing"

func TestJobName(t *testing.T) {
	for fn, want := range map[string]string{
		"invite-prod-expiry-AbC123":   "expiry",
		"invite-prod-cleanup":         "cleanup",
		"invite-prod-outbox-sweep-9f": "outbox-sweep",
		"invite-prod-provisioner-1":   "",
		"":                            "",
	} {
		if got := jobName(fn); got != want {
			t.Errorf("jobName(%q) = %q, want %q", fn, got, want)
		}
	}
}
