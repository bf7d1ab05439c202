package testkit

import (
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/config"
	"github.com/edu-invite/invite/shared/dynamo/dynamotest"
	"github.com/edu-invite/invite/shared/service"
)

// PublicBaseURL is where the services of NewService say they are served;
// invitation links start with it.
const PublicBaseURL = "https://invite.example.org"

// NewService is a service on a fresh table of its own whose clock is
// clock, with the applications of Registry and a RecordingQueue, which it
// also returns. Tests set the other ports (mailer, renderer …) they need.
func NewService(t testing.TB, clock func() time.Time) (*service.Service, *RecordingQueue) {
	t.Helper()
	reg, err := config.Parse([]byte(Registry))
	if err != nil {
		t.Fatal(err)
	}
	q := &RecordingQueue{}
	return &service.Service{Store: dynamotest.NewStore(t, clock), Queue: q, Registry: reg, Clock: clock, PublicBaseURL: PublicBaseURL}, q
}
