package scim

import (
	"errors"
	"testing"
)

func TestIsFilterRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&Error{Status: 400, SCIMType: "invalidFilter"}, true},
		{&Error{Status: 400}, true},
		{&Error{Status: 501}, true},
		{&Error{Status: 403}, true},
		{&Error{Status: 400, SCIMType: "invalidValue"}, false},
		{&Error{Status: 500}, false},
		{&Error{Status: 429}, false},
		{&Error{Status: 0, Err: errors.New("timeout")}, false},
		{errors.New("plain"), false},
		{nil, false},
	} {
		if got := IsFilterRefused(tc.err); got != tc.want {
			t.Errorf("IsFilterRefused(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
