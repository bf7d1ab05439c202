package httpapi

import (
	"net/http/httptest"
	"testing"

	"github.com/edu-invite/invite/shared/domain"
)

func TestBoolParam(t *testing.T) {
	tests := []struct {
		query   string
		def     bool
		want    bool
		invalid bool
	}{
		{"", true, true, false},
		{"?flag=", false, false, false},
		{"?flag=true", false, true, false},
		{"?flag=%20false%20", true, false, false},
		{"?flag=1", false, true, false},
		{"?flag=maybe", true, true, true},
	}
	for _, tc := range tests {
		got, err := boolParam(httptest.NewRequest("GET", "/x"+tc.query, nil), "flag", tc.def)
		if tc.invalid {
			if domain.KindOf(err) != domain.KindInvalid || err.Error() != "flag must be true or false" {
				t.Errorf("%q: err %v, want invalid naming flag", tc.query, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %v, %v; want %v", tc.query, got, err, tc.want)
		}
	}
}
