package provisioner

import "testing"

func TestReplaysOfReadsTheDeduplicationID(t *testing.T) {
	for dedup, want := range map[string]int{"abc": 0, "abc-r1": 1, "abc-r12": 12, "abc-rx": 0, "other-r3": 0, "": 0} {
		if got := replaysOf(dedup, "abc"); got != want {
			t.Errorf("replaysOf(%q) = %d, want %d", dedup, got, want)
		}
	}
}
