package domain

import "time"

// The dates the service accepts and stores. Every date on input (an
// invitation's expiry, a membership's end, a role's default expiry, a
// token's expiry) and every date the service computes from a day count
// lies between MinDate and MaxDate, so that its stored form (RFC 3339,
// four-digit year) always reads back.
var (
	MinDate = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxDate = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// MaxExpiryDays bounds a day count (a role's defaultExpiryDays): one
// hundred years.
const MaxExpiryDays = 36500

// DateInRange reports whether t can be stored.
func DateInRange(t time.Time) bool {
	return !t.Before(MinDate) && !t.After(MaxDate)
}

// CheckDate refuses a date that cannot be stored, naming the field.
func CheckDate(field string, t *time.Time) error {
	if t == nil || DateInRange(*t) {
		return nil
	}
	return Invalidf("%s must be between 1970-01-01 and 9999-12-31 (ISO 8601 or epoch seconds)", field)
}

// CheckFutureDate refuses a date that is not after now or cannot be stored.
func CheckFutureDate(field string, t *time.Time, now time.Time) error {
	if err := CheckDate(field, t); err != nil {
		return err
	}
	if t != nil && !t.After(now) {
		return Invalidf("%s must be in the future", field)
	}
	return nil
}

// CheckExpiryDays refuses a day count outside 0..MaxExpiryDays.
func CheckExpiryDays(field string, days int) error {
	if days < 0 || days > MaxExpiryDays {
		return Invalidf("%s must be between 0 and %d days", field, MaxExpiryDays)
	}
	return nil
}
