package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// TestLoggerTakesAddressesOut: whatever a line quotes (an outside
// system's error, a list, a group, the message itself), the logger writes
// no e-mail address or eppn; ids stay.
func TestLoggerTakesAddressesOut(t *testing.T) {
	var buf bytes.Buffer
	log := NewLoggerTo(&buf)
	log.With("actor", "ann@example.org").WarnContext(context.Background(), "mail to bob@example.org refused",
		"error", errors.New("550 <carol.d@mail.example.net>: no such user"),
		"recipients", []string{"dave@example.org", "id-7"},
		slog.Group("user", "eppn", "erin@uni.example.edu", "id", 42))
	out := buf.String()
	for _, leak := range []string{"ann@", "bob@", "carol.d@", "dave@", "erin@"} {
		if strings.Contains(out, leak) {
			t.Errorf("the line holds %q: %s", leak, out)
		}
	}
	for _, kept := range []string{`"id":42`, "id-7", "no such user", "<e-mail>"} {
		if !strings.Contains(out, kept) {
			t.Errorf("the line lost %q: %s", kept, out)
		}
	}
}
