package dynamo

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/domain"
)

// FuzzStoredTime: reading a stored time never panics, and every time the
// service can write (domain.MinDate..MaxDate, any nanosecond) reads back
// equal.
func FuzzStoredTime(f *testing.F) {
	for _, s := range []string{"2030-01-02T03:04:05.123456789Z", "56896-06-13T08:00:00Z", "-1-01-01T00:00:00Z", "99999", "", "garbage",
		"9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "12345-02-29T00:00:00Z"} {
		f.Add(s, int64(1796448000), int64(0))
	}
	f.Fuzz(func(t *testing.T, stored string, sec, nsec int64) {
		_, _ = parseTime(stored)
		_, _ = repairedDate(stored)
		span := domain.MaxDate.Unix() - domain.MinDate.Unix() + 1
		sec = ((sec % span) + span) % span
		nsec = ((nsec % 1e9) + 1e9) % 1e9
		tm := time.Unix(domain.MinDate.Unix()+sec, nsec).UTC()
		back, err := parseTime(formatTime(tm))
		if err != nil || !back.Equal(tm) {
			t.Fatalf("%v stored as %q reads back as %v %v", tm, formatTime(tm), back, err)
		}
		if fixed, bad := repairedDate(formatTime(tm)); bad || !fixed.IsZero() {
			t.Fatalf("%v in range would be repaired to %v", tm, fixed)
		}
	})
}
