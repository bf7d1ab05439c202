package app

import (
	"fmt"
	"strconv"
	"strings"
)

// parseReminderDays reads REMINDER_DAYS: unset means the default lead
// times, "off" none, else comma-separated positive days ("30,7,1").
func parseReminderDays(v string) ([]int, error) {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "":
		return nil, nil
	case "off", "none":
		return []int{}, nil
	}
	var days []int
	for _, part := range strings.Split(v, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("REMINDER_DAYS: %q is not a positive number of days", part)
		}
		days = append(days, d)
	}
	return days, nil
}
