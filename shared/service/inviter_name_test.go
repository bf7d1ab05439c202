package service

import "testing"

// TestProgramNameIsTheTokensDescription: an invitation a program made names
// the token by its description (never its id), a machine caller by its
// name, and nobody for the bootstrap token or anything like an address.
func TestProgramNameIsTheTokensDescription(t *testing.T) {
	for _, c := range []struct{ recorded, want string }{
		{"Research office (API token 12)", "Research office"},
		{"HR system", "HR system"},
		{"bootstrap-token", ""},
		{"ops@example.org (API token 3)", ""},
		{"", ""},
	} {
		if got := programName(c.recorded); got != c.want {
			t.Errorf("programName(%q) = %q, want %q", c.recorded, got, c.want)
		}
	}
}
