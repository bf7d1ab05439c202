package chromium

import (
	"errors"
	"testing"
)

// TestMissingChromiumSkipsOnlyOutsideCI: on a machine without Chromium,
// Start answers ErrMissing (the suites skip) unless CI is set, where the
// error is another one (the suites fail); $CHROMIUM names the browser
// without a search of PATH.
func TestMissingChromiumSkipsOnlyOutsideCI(t *testing.T) {
	for _, tc := range []struct {
		name, ci, chromium string
		missing, found     bool
	}{
		{"outside CI", "", "", true, false},
		{"in CI", "true", "", false, false},
		{"named by CHROMIUM", "true", "/opt/browser/chrome", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			t.Setenv("CI", tc.ci)
			t.Setenv("CHROMIUM", tc.chromium)
			path, err := find()
			if errors.Is(err, ErrMissing) != tc.missing {
				t.Errorf("error %v, want ErrMissing: %v", err, tc.missing)
			}
			if (err == nil) != tc.found || (tc.found && path != tc.chromium) {
				t.Errorf("found %q, %v; want found %v", path, err, tc.found)
			}
		})
	}
}
