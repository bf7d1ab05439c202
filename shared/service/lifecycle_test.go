package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
	"github.com/edu-invite/invite/shared/service"
)

// A guest whose many memberships all end at once loses them in several
// transactions (one would exceed DynamoDB's 100 writes), with an audit
// entry, a group removal per SP and an e-mail each, and the user goes with
// the last of them.
func TestExpiryRemovesManyMembershipsEndingAtOnce(t *testing.T) {
	s, q := newService(t)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	s.Renderer = renderer
	ctx := context.Background()
	var roles []int64
	for i := range 24 {
		in := wikiRole(fmt.Sprint("Course ", i))
		in.DefaultExpiryDays = 10
		r, err := s.CreateRole(ctx, root, in)
		if err != nil {
			t.Fatal(err)
		}
		roles = append(roles, r.ID)
	}
	p := auth.Person{Sub: "sub-course", Email: "course@example.org", GivenName: "Cora", FamilyName: "Course"}
	var user domain.User
	for start := 0; start < len(roles); start += 6 {
		user = acceptInto(t, s, p, roles[start:start+6])
	}

	later := now.Add(15 * 24 * time.Hour) // the memberships end after 10 days
	s.Clock = func() time.Time { return later }
	before := len(q.Deliveries())
	res, err := s.RemoveExpired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.UserRoles != 24 || res.Users != 1 {
		t.Errorf("removed %+v, want 24 memberships and 1 user", res)
	}
	if _, err := s.Store.GetUser(ctx, user.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there: %v", err)
	}
	checkUserRemoval(t, q.Deliveries()[before:], 48, 2)
	mails, err := s.Store.ListPendingMails(ctx, later.Add(time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	ended := 0
	for _, m := range mails {
		if m.Email.To == p.Email {
			ended++
		}
	}
	if ended != 24 {
		t.Errorf("%d access-ended mails queued, want 24", ended)
	}

	// A second run finds nothing left.
	if res, err := s.RemoveExpired(ctx); err != nil || res.UserRoles != 0 || res.Users != 0 {
		t.Errorf("second run: %+v, %v", res, err)
	}
}

// brokenFor renders every e-mail except the reminder and the access-ended
// e-mail of one address, which fail as a broken template would.
type brokenFor struct {
	*mail.Renderer
	to string
}

func (f brokenFor) AccessEnded(m mail.AccessEnded) (domain.Email, error) {
	if m.To == f.to {
		return domain.Email{}, errors.New("template broken")
	}
	return f.Renderer.AccessEnded(m)
}

func (f brokenFor) Reminder(m mail.Reminder) (domain.Email, error) {
	if m.To == f.to {
		return domain.Email{}, errors.New("template broken")
	}
	return f.Renderer.Reminder(m)
}

// twoGuestsOfAShortCourse is a service whose e-mails to stuck@example.org
// fail, with two guests, stuck and other, in a role of 10 days.
func twoGuestsOfAShortCourse(t *testing.T) (s *service.Service, renderer *mail.Renderer, stuck, other domain.User) {
	t.Helper()
	s, _ = newService(t)
	renderer, err := mail.NewRenderer("Invite")
	if err != nil {
		t.Fatal(err)
	}
	in := wikiRole("Short course")
	in.DefaultExpiryDays = 10
	role, err := s.CreateRole(context.Background(), root, in)
	if err != nil {
		t.Fatal(err)
	}
	stuck = acceptInto(t, s, auth.Person{Sub: "sub-stuck", Email: "stuck@example.org", GivenName: "Stu"}, []int64{role.ID})
	other = acceptInto(t, s, auth.Person{Sub: "sub-other", Email: "other@example.org", GivenName: "Otto"}, []int64{role.ID})
	s.Renderer = brokenFor{Renderer: renderer, to: stuck.Email}
	return s, renderer, stuck, other
}

// A user whose removal fails does not hold up the others: the job removes
// them, reports the failure, and the next run removes that user too.
func TestExpiryGoesOnPastAUserThatFails(t *testing.T) {
	s, renderer, stuck, other := twoGuestsOfAShortCourse(t)
	ctx := context.Background()
	later := now.Add(11 * 24 * time.Hour)
	s.Clock = func() time.Time { return later }
	res, err := s.RemoveExpired(ctx)
	if err == nil || !strings.Contains(err.Error(), "template broken") {
		t.Errorf("want the failure reported, got %v", err)
	}
	if res.UserRoles != 1 || res.Users != 1 {
		t.Errorf("first run removed %+v, want the other user's membership and user", res)
	}
	if _, err := s.Store.GetUser(ctx, other.ID); !domain.IsNotFound(err) {
		t.Errorf("other user still there: %v", err)
	}
	if urs, _ := s.Store.ListUserRolesOfUser(ctx, stuck.ID); len(urs) != 1 {
		t.Errorf("the failed user's membership: %d left, want it kept whole", len(urs))
	}

	s.Renderer = renderer
	if res, err := s.RemoveExpired(ctx); err != nil || res.UserRoles != 1 || res.Users != 1 {
		t.Errorf("second run: %+v, %v", res, err)
	}
	if _, err := s.Store.GetUser(ctx, stuck.ID); !domain.IsNotFound(err) {
		t.Errorf("user still there after the second run: %v", err)
	}
}

// A membership whose reminder fails does not hold up the others' reminders;
// the next run sends it, and nobody is reminded twice.
func TestRemindersGoOnPastAMembershipThatFails(t *testing.T) {
	s, renderer, _, _ := twoGuestsOfAShortCourse(t)
	ctx := context.Background()
	s.Clock = func() time.Time { return now.Add(4 * 24 * time.Hour) } // 6 days left: the 7-day reminder
	sent, err := s.SendReminders(ctx)
	if err == nil || !strings.Contains(err.Error(), "template broken") {
		t.Errorf("want the failure reported, got %v", err)
	}
	if got := sent["7 days"]; len(got) != 1 || !strings.HasPrefix(got[0], "other@example.org ") {
		t.Errorf("first run reminded %v, want only other@example.org", sent)
	}

	s.Renderer = renderer
	sent, err = s.SendReminders(ctx)
	if got := sent["7 days"]; err != nil || len(got) != 1 || !strings.HasPrefix(got[0], "stuck@example.org ") {
		t.Errorf("second run reminded %v (%v), want only stuck@example.org", sent, err)
	}
}

// TestExpiryOfACohortStopsBeforeItsDeadlineAndGoesOn: when a run's
// deadline leaves no time (the function's timeout is near), it removes
// nothing more and reports how many memberships are still due; the next
// run removes every one of them, several users at once, and reports none
// left.
func TestExpiryOfACohortStopsBeforeItsDeadlineAndGoesOn(t *testing.T) {
	s, _ := newService(t)
	ctx := context.Background()
	role, err := s.CreateRole(ctx, root, wikiRole("Cohort 2026"))
	if err != nil {
		t.Fatal(err)
	}
	const cohort = 60
	end := now.Add(10 * 24 * time.Hour)
	seed := domain.Seed{}
	for i := range int64(cohort) {
		uid := 10_001 + i
		seed.Users = append(seed.Users, domain.User{ID: uid, Sub: fmt.Sprint("sub-cohort-", uid), Name: fmt.Sprint("Student ", uid),
			Email: fmt.Sprint("student", uid, "@example.org"), CreatedAt: now})
		seed.UserRoles = append(seed.UserRoles, domain.UserRole{ID: 50_001 + i, UserID: uid, RoleID: role.ID, Authority: domain.Guest,
			CreatedAt: now, EndDate: &end})
	}
	if err := s.Store.Seed(ctx, seed); err != nil {
		t.Fatal(err)
	}
	s.Clock = func() time.Time { return now.Add(15 * 24 * time.Hour) }
	s.Lifecycle.ExpiryReserve = time.Hour

	nearDeadline, cancel := context.WithTimeout(ctx, 30*time.Minute) // within the reserve
	res, err := s.RemoveExpired(nearDeadline)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if res.UserRoles != 0 || res.Remaining != cohort {
		t.Fatalf("near the deadline: %+v, want nothing removed and %d remaining", res, cohort)
	}

	res, err = s.RemoveExpired(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.UserRoles != cohort || res.Users != cohort || res.Remaining != 0 {
		t.Errorf("next run: %+v, want %d memberships and users removed, none remaining", res, cohort)
	}
	for _, uid := range []int64{10_001, 10_000 + cohort} {
		if _, err := s.Store.GetUser(ctx, uid); !domain.IsNotFound(err) {
			t.Errorf("user %d still there: %v", uid, err)
		}
	}
	if left, err := s.Store.CountUserRolesEndingBetween(ctx, now, now.Add(30*24*time.Hour)); err != nil || left != 0 {
		t.Errorf("memberships left: %d, %v", left, err)
	}
}
