package domain

import (
	"strings"
	"testing"
	"time"
)

func TestDateChecks(t *testing.T) {
	now := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	at := func(t time.Time) *time.Time { return &t }
	tests := []struct {
		name string
		t    *time.Time
		ok   bool
	}{
		{"none", nil, true},
		{"tomorrow", at(now.AddDate(0, 0, 1)), true},
		{"last storable second", at(MaxDate), true},
		{"now", at(now), false},
		{"past", at(now.AddDate(0, 0, -1)), false},
		{"epoch 0", at(time.Unix(0, 0)), false},
		{"before epoch", at(time.Unix(-1, 0)), false},
		{"year 1", at(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)), false},
		{"after 9999", at(MaxDate.Add(time.Second)), false},
	}
	for _, tc := range tests {
		err := CheckFutureDate("endDate", tc.t, now)
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, err)
		}
		if err != nil && (KindOf(err) != KindInvalid || !strings.Contains(err.Error(), "endDate")) {
			t.Errorf("%s: %v should be invalid input naming endDate", tc.name, err)
		}
	}
	for days, ok := range map[int]bool{0: true, 1: true, MaxExpiryDays: true, -1: false, MaxExpiryDays + 1: false, 1 << 31: false} {
		if err := CheckExpiryDays("defaultExpiryDays", days); (err == nil) != ok {
			t.Errorf("%d days: %v", days, err)
		}
	}
}
