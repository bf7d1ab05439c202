package provisioner

import (
	"fmt"
	"testing"

	"github.com/edu-invite/invite/shared/scim"
)

func TestIsPermanent(t *testing.T) {
	invalidMember := &scim.Error{Status: 400, SCIMType: "invalidValue", Detail: "member is not a user of this SP"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"a 400 is permanent", fmt.Errorf("member.add: %w", &scim.Error{Status: 400}), true},
		{"a 401 is permanent", &scim.Error{Status: 401}, true},
		{"a 503 is retried", &scim.Error{Status: 503}, false},
		// A whole-group PUT refused for a member value may have raced a
		// member's deletion at the SP: read again and retried.
		{"a stale whole-group PUT is retried", fmt.Errorf("member.add: %w", &stalePutError{err: invalidMember}), false},
		{"the same 400 elsewhere is permanent", invalidMember, true},
		{"a configuration error is permanent", permanent("no such SP"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsPermanent(tc.err); got != tc.want {
				t.Fatalf("IsPermanent(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
