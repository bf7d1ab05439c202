package service

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/edu-invite/invite/shared/auth"
	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/mail"
)

// Lifecycle tunes the scheduled jobs.
type Lifecycle struct {
	// ReminderDays are the lead times of expiry reminders, in days. Nil is
	// the default (30, 7 and 1); an empty, non-nil slice switches reminders off.
	ReminderDays []int
	// Lookback is how far back the jobs look for what they missed while not
	// running (default 30 days).
	Lookback time.Duration
	// ExpiryWorkers is how many users' removals RemoveExpired plans, and
	// how many of its transactions it applies, at once (default 8).
	ExpiryWorkers int
	// ExpiryReserve is the time RemoveExpired keeps before its context's
	// deadline (the function's timeout): it starts no user's removal
	// after that, counts what is left and reports it (default 20 s).
	ExpiryReserve time.Duration
	// ExpiryLimit bounds the memberships one RemoveExpired run takes on
	// (0: no bound but the deadline); the run reports what is left, and
	// the next run goes on.
	ExpiryLimit int
}

// DefaultReminderDays are the reminder lead times when none are configured;
// the reference sends only one reminder, which guests easily overlook.
var DefaultReminderDays = []int{30, 7, 1}

func (s *Service) reminderDays() []int {
	days := s.Lifecycle.ReminderDays
	if days == nil {
		days = DefaultReminderDays
	}
	days = append([]int(nil), days...)
	sort.Sort(sort.Reverse(sort.IntSlice(days)))
	return days
}

func (s *Service) lookback() time.Duration {
	if s.Lifecycle.Lookback > 0 {
		return s.Lifecycle.Lookback
	}
	return 30 * 24 * time.Hour
}

// jobBatch bounds the records one job step reads; a job loops until done.
const jobBatch = 200

// system is the principal of scheduled jobs in audit trails.
var system = &auth.Principal{Kind: auth.KindAPIToken, SuperUser: true, Name: "system"}

// ExpiringUserRoles lists memberships that end within the next days (S4).
func (s *Service) ExpiringUserRoles(ctx context.Context, within time.Duration) ([]domain.UserRole, error) {
	now := s.now()
	var out []domain.UserRole
	from := now
	for {
		page, err := s.Store.ListUserRolesEndingBetween(ctx, from, now.Add(within), jobBatch)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < jobBatch {
			return out, nil
		}
		from = page[len(page)-1].EndDate.Add(time.Nanosecond)
	}
}

// ReminderResult maps each lead time ("30 days") to the memberships reminded
// (e-mail and role), the shape of S5.
type ReminderResult map[string][]string

// SendReminders e-mails each member whose membership reaches a lead time,
// once per lead time: the count in expiryNotifications is raised in the same
// transaction that queues the e-mail, conditional on the count read, so runs
// that overlap or repeat never remind twice. A member whose membership was
// created inside several lead times gets one reminder, for the nearest. A
// membership whose reminder fails is logged and skipped, so it cannot hold
// up the others; the job reports the failures and the next run retries.
func (s *Service) SendReminders(ctx context.Context) (ReminderResult, error) {
	res := ReminderResult{}
	days := s.reminderDays()
	if len(days) == 0 {
		return res, nil
	}
	now := s.now()
	upcoming, err := s.ExpiringUserRoles(ctx, time.Duration(days[0])*24*time.Hour)
	if err != nil {
		return nil, err
	}
	roles := map[int64]domain.Role{}
	var mails []domain.MailDelivery
	var failures []error
	for _, ur := range upcoming {
		level, lead := reminderLevel(days, ur.DaysLeft(now))
		if level <= ur.ExpiryNotifications || ur.Expired(now) {
			continue
		}
		reminder, reminded, err := s.remind(ctx, roles, ur, level, now)
		if err != nil {
			s.log().ErrorContext(ctx, "reminder failed; the next run tries again", "userRole", ur.ID, "error", err)
			failures = append(failures, fmt.Errorf("membership %d: %w", ur.ID, err))
			continue
		}
		if reminder == nil {
			continue
		}
		mails = append(mails, *reminder)
		key := fmt.Sprintf("%d days", lead)
		res[key] = append(res[key], reminded)
	}
	s.flushMails(ctx, mails)
	if len(failures) > 0 {
		return res, fmt.Errorf("reminders: %d failures, first: %w", len(failures), failures[0])
	}
	return res, nil
}

// remind queues the reminder of one membership at a level; a nil mail
// means there is nothing to send (the membership or its user is gone, or
// another run reminded). reminded names whom and for which role.
func (s *Service) remind(ctx context.Context, roles map[int64]domain.Role, ur domain.UserRole, level int, now time.Time) (*domain.MailDelivery, string, error) {
	role, user, err := s.roleAndUser(ctx, roles, ur)
	if domain.IsNotFound(err) {
		return nil, "", nil // removed meanwhile
	}
	if err != nil {
		return nil, "", err
	}
	email, err := s.Renderer.Reminder(mail.Reminder{Language: string(ur.Language), To: user.Email, UserName: user.DisplayName(),
		Role: roleInfo(role), EndDate: *ur.EndDate, DaysLeft: ur.DaysLeft(now)})
	if err != nil {
		return nil, "", err
	}
	previous := ur.ExpiryNotifications
	ur.ExpiryNotifications = level
	reminder := s.newMail(email)
	err = s.Store.RecordReminder(ctx, ur, previous, reminder)
	if domain.KindOf(err) == domain.KindConflict || domain.IsNotFound(err) || err == domain.ErrVersionConflict {
		return nil, "", nil // another run reminded, or the membership changed: its next run decides
	}
	if err != nil {
		return nil, "", err
	}
	return &reminder, user.Email + " " + role.Name, nil
}

// reminderLevel is how many lead times (sorted longest first) a membership
// with daysLeft has reached, and the nearest of them.
func reminderLevel(days []int, daysLeft int) (level, lead int) {
	for i, d := range days {
		if daysLeft <= d {
			level, lead = i+1, d
		}
	}
	return level, lead
}

// ExpiryResult says what the expiry job removed.
type ExpiryResult struct {
	UserRoles int `json:"userRoles"`
	Users     int `json:"users"`
	// Remaining counts the memberships still due when the run stopped
	// before its deadline (0: none left).
	Remaining int64 `json:"remaining,omitempty"`
	// Continuation is the on-demand job (domain.JobExpiry, in the jobs
	// function) that goes on with them at once ("": none was started).
	Continuation string `json:"continuation,omitempty"`
}

// RemoveExpired ends every membership whose end date has passed, whether
// or not a reminder went out: the membership goes (audited), its group
// membership is removed at each SP, the member is told; a user left without
// memberships is deleted in the service and at every SP (spec 3.1). A
// user's removal is safe to repeat and to run concurrently (version checks
// make a second run's attempt fail harmlessly). The users of a page are
// planned ExpiryWorkers at once and their removals applied several users
// to a transaction (see removePage). A user whose removal fails is logged
// and skipped, so one cannot hold up the others; the job then reports the
// failures, and the next run tries that user again.
//
// A day on which a whole cohort ends can hold more than one run can remove
// before its deadline: the run stops taking users on ExpiryReserve before
// the context's deadline (or past ExpiryLimit memberships), and reports in
// Remaining how many memberships are still due (a count of the day
// partitions); the next run (the hourly schedule, or `make job
// JOB=expiry`) goes on where it stopped: what is removed is gone from the
// day partitions it reads.
func (s *Service) RemoveExpired(ctx context.Context) (ExpiryResult, error) {
	stopAt, bounded := s.expiryStop(ctx)
	run := &expiryRun{s: s, now: s.now(), stopAt: stopAt, bounded: bounded, limit: s.Lifecycle.ExpiryLimit}
	from := run.now.Add(-s.lookback())
	for !run.full(ctx) {
		expired, err := s.Store.ListUserRolesEndingBetween(ctx, from, run.now, jobBatch)
		if err != nil {
			run.failures = append(run.failures, err)
			break
		}
		progress := run.removePage(ctx, expired)
		if len(expired) < jobBatch || !progress || ctx.Err() != nil {
			break
		}
	}
	s.flushMails(ctx, run.mails)
	res := run.res
	if run.stopped {
		// Counted with a context of its own: the run's may be nearly spent.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		left, err := s.Store.CountUserRolesEndingBetween(cctx, from, run.now)
		cancel()
		if err != nil {
			run.failures = append(run.failures, fmt.Errorf("counting the memberships left: %w", err))
		}
		res.Remaining = left
		if left > 0 {
			s.log().WarnContext(ctx, "expiry stopped before its deadline or budget; the next run goes on", "removed", res.UserRoles, "remaining", left)
			if res.UserRoles > 0 {
				// A run that made progress hands the rest on at once; one
				// that removed nothing (a user failing every time) leaves
				// it to the schedule rather than looping.
				res.Continuation = s.continueExpiry(ctx)
			}
		}
	}
	if len(run.failures) > 0 {
		// The job-run record of a failed run keeps only the error: it
		// says what is left too.
		left := ""
		if res.Remaining > 0 {
			left = fmt.Sprintf(", %d memberships left for the next run", res.Remaining)
		}
		return res, fmt.Errorf("expiry: %d failures%s, first: %w", len(run.failures), left, run.failures[0])
	}
	return res, nil
}

// continueExpiry queues an expiry run in the jobs function (s.Jobs: an
// asynchronous invocation, as the API's on-demand jobs) and returns its
// job id; "" without a job starter (then the schedule goes on) or when it
// could not be queued (logged: the schedule goes on).
func (s *Service) continueExpiry(ctx context.Context) string {
	if s.Jobs == nil {
		return ""
	}
	// A context of its own: the run's may be nearly spent.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	req := domain.JobRequest{ID: newIdentifier(), Kind: domain.JobExpiry, StartedBy: "expiry"}
	if err := s.queueJobRun(ctx, domain.OnDemandJobName(req.ID)); err != nil {
		s.log().ErrorContext(ctx, "expiry continuation not queued", "error", err)
		return ""
	}
	if err := s.Jobs.StartJob(ctx, req); err != nil {
		s.log().ErrorContext(ctx, "expiry continuation not started", "job", req.ID, "error", err)
		s.RecordJobRun(ctx, domain.OnDemandJobName(req.ID), s.now(), nil, err)
		return ""
	}
	s.log().InfoContext(ctx, "expiry continues in a job", "job", req.ID)
	return req.ID
}

// expiryStop is when RemoveExpired starts no more removals: ExpiryReserve
// before the context's deadline; bounded is false without a deadline.
func (s *Service) expiryStop(ctx context.Context) (time.Time, bool) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return time.Time{}, false
	}
	reserve := s.Lifecycle.ExpiryReserve
	if reserve <= 0 {
		reserve = 20 * time.Second
	}
	return deadline.Add(-reserve), true
}

func (s *Service) expiryWorkers() int {
	if s.Lifecycle.ExpiryWorkers > 0 {
		return s.Lifecycle.ExpiryWorkers
	}
	return 8
}

// planExpiryOfUser plans the removal of a user's expired memberships
// (nil: none is expired any more). user is read before its memberships.
func (s *Service) planExpiryOfUser(ctx context.Context, user domain.User, now time.Time, rolesOf func(context.Context, []domain.UserRole) (map[int64]domain.Role, error)) ([]plannedRemoval, error) {
	memberships, err := s.Store.ListUserRolesOfUser(ctx, user.ID)
	if err != nil {
		return nil, err
	}
	var expired []domain.UserRole
	for _, ur := range memberships {
		if ur.Expired(now) {
			expired = append(expired, ur)
		}
	}
	if len(expired) == 0 {
		return nil, nil
	}
	roles, err := rolesOf(ctx, expired)
	if err != nil {
		return nil, err
	}
	// The last membership ended: the user leaves every SP where it was
	// created, after its group removals, and the service unless its record
	// carries rights of its own.
	last := len(expired) == len(memberships)
	return s.planRemoval(ctx, membershipRemoval{by: system, user: user, memberships: expired, roles: roles,
		notify: true, leaveSPs: last, deleteUser: last && keepsNoRecord(user), keptForOthers: !last})
}

// CleanupResult says what the cleanup job removed (S6).
type CleanupResult struct {
	Invitations int          `json:"invitations"`
	Expired     ExpiryResult `json:"expired"`
	// APITokens counts the API tokens deleted because their expiresAt passed.
	APITokens int `json:"apiTokens"`
}

// Cleanup is S6: expired invitations and expired memberships, on demand.
func (s *Service) Cleanup(ctx context.Context) (CleanupResult, error) {
	var res CleanupResult
	var err error
	if res.Invitations, err = s.CleanupInvitations(ctx); err != nil {
		return res, err
	}
	if res.APITokens, err = s.CleanupAPITokens(ctx); err != nil {
		return res, err
	}
	res.Expired, err = s.RemoveExpired(ctx)
	return res, err
}

// CleanupInvitations deletes open invitations that expired more than
// domain.ExpiredRetention ago (the daily cleanup job): until then their link
// answers "expired" and they can be resent, as in the reference. Accepted
// invitations stay, as the record of who invited whom, until their TTL.
func (s *Service) CleanupInvitations(ctx context.Context) (int, error) {
	removed := 0
	now := s.now().Add(-domain.ExpiredRetention)
	for {
		invs, err := s.Store.ListInvitationsExpiringBetween(ctx, now.Add(-s.lookback()), now, jobBatch)
		if err != nil {
			return removed, err
		}
		if err := s.Store.DeleteInvitations(ctx, invs); err != nil && err != domain.ErrVersionConflict && !domain.IsNotFound(err) {
			return removed, err
		}
		removed += len(invs)
		if len(invs) < jobBatch {
			return removed, nil
		}
	}
}

func (s *Service) roleAndUser(ctx context.Context, cache map[int64]domain.Role, ur domain.UserRole) (domain.Role, domain.User, error) {
	role, ok := cache[ur.RoleID]
	if !ok {
		var err error
		if role, err = s.Store.GetRole(ctx, ur.RoleID); err != nil {
			return role, domain.User{}, err
		}
		cache[ur.RoleID] = role
	}
	user, err := s.Store.GetUser(ctx, ur.UserID)
	return role, user, err
}

func roleInfo(r domain.Role) mail.RoleInfo {
	info := mail.RoleInfo{Name: r.Name}
	for _, u := range r.ApplicationUsages {
		info.Applications = append(info.Applications, mail.AppInfo{Name: firstNonEmpty(u.Application.Name, u.Application.ManageID), LandingPage: u.LandingPage})
	}
	return info
}
