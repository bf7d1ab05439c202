package app

import (
	"reflect"
	"testing"
)

func TestParseReminderDays(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"", nil, false},
		{"off", []int{}, false},
		{"30, 7,1", []int{30, 7, 1}, false},
		{"14", []int{14}, false},
		{"7,-1", nil, true},
		{"soon", nil, true},
	}
	for _, tc := range tests {
		got, err := parseReminderDays(tc.in)
		if (err != nil) != tc.wantErr || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseReminderDays(%q) = %v, %v", tc.in, got, err)
		}
	}
}
