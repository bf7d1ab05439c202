package provisioner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/edu-invite/invite/shared/domain"
	"github.com/edu-invite/invite/shared/metrics"
	"github.com/edu-invite/invite/shared/scim"
	"github.com/edu-invite/invite/shared/sqs"
)

// HandleSQS is the Lambda handler of the provisioning queue. Messages of one
// FIFO message group (one resource at one SP, see domain.OrderKeyOf) are
// delivered in order; once one fails, the rest of its group in this batch is
// reported failed too, so nothing overtakes it. Groups run concurrently: a
// slow SP or resource does not hold up others. What the batch's deliveries
// are about is read in one request first, and their outcomes are written in
// one request last (see batch).
func (p *Provisioner) HandleSQS(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	ctx, b := p.startBatch(ctx, ev.Records)
	var order []string
	groups := map[string][]events.SQSMessage{}
	for _, m := range ev.Records {
		g := m.Attributes["MessageGroupId"]
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], m)
	}
	var (
		mu       sync.Mutex
		failures []events.SQSBatchItemFailure
		wg       sync.WaitGroup
	)
	for _, g := range order {
		wg.Add(1)
		go func(line string, msgs []events.SQSMessage) {
			defer wg.Done()
			failed := p.handleGroup(inLine(ctx, line), msgs)
			mu.Lock()
			failures = append(failures, failed...)
			mu.Unlock()
		}(g, groups[g])
	}
	wg.Wait()
	if unrecorded := p.flushOutcomes(ctx, b); len(unrecorded) > 0 {
		failures = failLines(failures, groups, unrecorded)
	}
	return events.SQSEventResponse{BatchItemFailures: failures}, nil
}

// failLines adds the messages of the given lines to the failures, each
// once: the whole line is received again, in order.
func failLines(failures []events.SQSBatchItemFailure, groups map[string][]events.SQSMessage, lines map[string]bool) []events.SQSBatchItemFailure {
	failed := map[string]bool{}
	for _, f := range failures {
		failed[f.ItemIdentifier] = true
	}
	for line := range lines {
		for _, m := range groups[line] {
			if !failed[m.MessageId] {
				failures = append(failures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
			}
		}
	}
	return failures
}

func (p *Provisioner) handleGroup(ctx context.Context, msgs []events.SQSMessage) []events.SQSBatchItemFailure {
	var failed []events.SQSBatchItemFailure
	for i, m := range msgs {
		if err := p.handleMessage(ctx, m); err != nil {
			var later *retryLater
			if errors.As(err, &later) {
				p.delayFollowers(ctx, msgs[i+1:], later.delay)
			}
			for _, rest := range msgs[i:] {
				failed = append(failed, events.SQSBatchItemFailure{ItemIdentifier: rest.MessageId})
			}
			return failed
		}
	}
	return nil
}

// handleMessage returns an error only when the message must be retried.
func (p *Provisioner) handleMessage(ctx context.Context, m events.SQSMessage) error {
	d, err := sqs.DecodeDelivery(m.Body)
	if err != nil {
		// A malformed message cannot succeed. Left to the queue's redrive
		// it would hold its FIFO group for every receive until then
		// (hours), so it goes to the dead-letter queue untouched now.
		p.log().ErrorContext(ctx, "malformed provisioning message", "message", m.MessageId, "error", err)
		raw, ok := p.DeadLetters.(RawDeadLetters)
		if !ok {
			return err
		}
		if derr := raw.SendRaw(ctx, m.Body, m.Attributes["MessageGroupId"], m.MessageId, "malformed message: "+err.Error()); derr != nil {
			p.log().ErrorContext(ctx, "dead-lettering the malformed message failed; will retry", "message", m.MessageId, "error", derr)
			return err
		}
		return nil
	}
	// The correlation id of the request that caused the delivery goes into
	// every log record through the context.
	d.OrderKey = m.Attributes["MessageGroupId"]
	ctx = domain.WithCorrelationID(ctx, d.CorrelationID)
	d.Attempts, _ = strconv.Atoi(m.Attributes["ApproximateReceiveCount"])
	d.Replays = replaysOf(m.Attributes["MessageDeduplicationId"], d.ID)
	log := p.log().With("delivery", d.ID, "sp", d.SPID, "kind", d.Kind, "attempt", d.Attempts)

	started := time.Now()
	err = p.Deliver(ctx, d)
	p.record(d.SPID, err, time.Since(started))
	now := p.now()
	d.UpdatedAt = now
	switch {
	case err == nil:
		d.Status, d.LastError = domain.DeliveryDelivered, ""
		// Read before the outbox item is rewritten from the queue message
		// (which never carries them): the labels the item recorded.
		d.UserEmail, d.RoleName = p.auditLabels(ctx, d)
		p.recordDelivered(ctx, d)
		p.audit(ctx, d, domain.AuditProvisioned)
		log.InfoContext(ctx, "delivered")
		return nil
	case IsPermanent(err):
		return p.deadLetter(ctx, d, err, log)
	case p.MaxReceives > 0 && d.Attempts >= p.MaxReceives:
		return p.deadLetter(ctx, d, fmt.Errorf("gave up after %d attempts: %w", d.Attempts, err), log)
	default:
		log.WarnContext(ctx, "delivery failed; will retry", "error", err)
		if uerr := p.markPending(ctx, d, err); uerr != nil {
			log.WarnContext(ctx, "provisioning status not recorded", "error", uerr)
		}
		return &retryLater{err: err, delay: p.delayRetry(ctx, m, d.Attempts, err)}
	}
}

// deadLetter sends a delivery that cannot succeed to the dead-letter queue
// with its reason, and records it as failed (delivery, SP link, audit), so
// that operators see it and can replay it. It returns an error only when
// the dead-letter queue did not take it: then the message is retried.
func (p *Provisioner) deadLetter(ctx context.Context, d domain.Delivery, cause error, log *slog.Logger) error {
	d.Status, d.LastError = domain.DeliveryFailed, cause.Error()
	d.UserEmail, d.RoleName = p.auditLabels(ctx, d) // before the outbox item is rewritten
	if derr := p.DeadLetters.Send(ctx, d, cause.Error()); derr != nil {
		log.ErrorContext(ctx, "dead-lettering failed; will retry", "error", derr)
		return derr
	}
	if uerr := p.Store.UpdateDeliveryStatus(ctx, d); uerr != nil {
		log.WarnContext(ctx, "dead-lettered but status not recorded", "error", uerr)
	}
	if uerr := p.markFailed(ctx, d, cause); uerr != nil {
		log.WarnContext(ctx, "dead-lettered but provisioning status not recorded", "error", uerr)
	}
	p.audit(ctx, d, domain.AuditProvisioningFailed)
	log.ErrorContext(ctx, "dead-lettered", "reason", cause.Error())
	return nil
}

// record counts the attempt for the SP's metrics.
func (p *Provisioner) record(sp string, err error, latency time.Duration) {
	if p.Metrics == nil {
		return
	}
	outcome := metrics.Delivered
	switch {
	case err == nil:
	case IsPermanent(err):
		outcome = metrics.DeadLettered
	default:
		outcome = metrics.Retried
		var se *scim.Error
		if errors.As(err, &se) && se.Status == 429 {
			outcome = metrics.Throttled
		}
	}
	p.Metrics.Delivery(sp, outcome, latency)
}

// linkOf is the SP link a delivery's outcome is recorded on: that of the
// resource whose line (message group) the delivery is in, the one link the
// line writes, so that no concurrent line's write is overwritten. That is
// the group's for group changes and memberships at a PUT SP, else the
// user's.
func (p *Provisioner) linkOf(ctx context.Context, d domain.Delivery) (domain.SPLink, error) {
	kind, localID := domain.ResourceUser, d.UserID
	if d.Kind == domain.DeliverGroupCreate || d.Kind == domain.DeliverGroupDelete || d.Kind == domain.DeliverGroupUpdate ||
		(isMembership(d) && d.OrderKey == domain.ResourceLine(domain.ResourceGroup, d.SPID, d.RoleID)) {
		kind, localID = domain.ResourceGroup, d.RoleID
	}
	l, err := p.getLink(ctx, kind, localID, d.SPID)
	if domain.IsNotFound(err) {
		return domain.SPLink{Kind: kind, LocalID: localID, SPID: d.SPID}, nil
	}
	return l, err
}

// isMembership reports whether the delivery changes a membership only: its
// failure says nothing about the user or group themselves.
func isMembership(d domain.Delivery) bool {
	return d.Kind == domain.DeliverMemberAdd || d.Kind == domain.DeliverMemberRemove
}

// markFailed records on the user's (or, for group changes, the group's) SP
// link that provisioning failed, with the reason, so that the status per
// user and SP shows it until a replay succeeds. A failed membership leaves
// a user that is at the SP provisioned: only the membership failed (the
// dead letter and the delivery's status say so).
func (p *Provisioner) markFailed(ctx context.Context, d domain.Delivery, cause error) error {
	l, err := p.linkOf(ctx, d)
	if err != nil {
		return err
	}
	if isMembership(d) && l.Status == domain.StatusProvisioned {
		return nil
	}
	l.Status, l.LastError, l.Attempts, l.UpdatedAt = domain.StatusFailed, cause.Error(), d.Attempts, p.now()
	return p.putLink(ctx, l)
}

// markPending records a retried failure on a resource that is not at the
// SP yet: pending, with the attempts so far and the last reason. It also
// tells a later attempt that an earlier one may have reached the SP.
func (p *Provisioner) markPending(ctx context.Context, d domain.Delivery, cause error) error {
	l, err := p.linkOf(ctx, d)
	if err != nil {
		return err
	}
	if l.Status == domain.StatusProvisioned || (isMembership(d) && l.Status != "") {
		return nil
	}
	l.Status, l.LastError, l.Attempts, l.UpdatedAt = domain.StatusPending, cause.Error(), max(d.Attempts, 1), p.now()
	return p.putLink(ctx, l)
}

// audit records the outcome in the audit trail with the correlation id of
// the request that caused the delivery, the person's e-mail and the role's
// name (see auditLabels), and for a failure its reason; a success is
// PROVISIONED, DEPROVISIONED or GROUP_DELETED by the delivery's kind. In a
// batch it is written with the batch's other entries when the batch ends. A
// failure to write it is logged, it must not undo a delivery that happened.
func (p *Provisioner) audit(ctx context.Context, d domain.Delivery, action domain.AuditAction) {
	failed := action == domain.AuditProvisioningFailed
	e := domain.AuditEntry{UserID: d.UserID, RoleID: d.RoleID, CreatedAt: p.now(), CreatedBy: "provisioner",
		Action: domain.ProvisioningOutcome(d.Kind, failed), CorrelationID: d.CorrelationID, SP: d.SPID,
		DeliveryID: d.ID, DeliveryKind: d.Kind}
	if failed {
		e.Reason = d.LastError
	}
	e.UserEmail, e.RoleName = d.UserEmail, d.RoleName
	if e.UserEmail == "" && e.RoleName == "" {
		e.UserEmail, e.RoleName = p.auditLabels(ctx, d)
	}
	if b := batchOf(ctx); b != nil {
		b.mu.Lock()
		b.audits = append(b.audits, e)
		b.mu.Unlock()
		return
	}
	if err := p.Store.RecordOutcomes(ctx, domain.Outcomes{Audit: []domain.AuditEntry{e}}); err != nil {
		p.log().WarnContext(ctx, "provisioning outcome not audited", "delivery", d.ID, "error", err)
	}
}

// auditLabels finds the e-mail of the delivery's user and the name of its
// role: as they are now, or, when the user or role was deleted (deletions
// run after that), as the outbox item recorded them when it was written.
func (p *Provisioner) auditLabels(ctx context.Context, d domain.Delivery) (email, roleName string) {
	if d.UserID != 0 {
		if u, err := p.getUser(ctx, d.UserID); err == nil {
			email = u.Email
		}
	}
	if d.RoleID != 0 {
		if r, err := p.getRole(ctx, d.RoleID); err == nil {
			roleName = r.Name
		}
	}
	if (d.UserID != 0 && email == "") || (d.RoleID != 0 && roleName == "") {
		if stored, err := p.Store.GetDelivery(ctx, d.ID); err == nil {
			email = cmp.Or(email, stored.UserEmail)
			roleName = cmp.Or(roleName, stored.RoleName)
		}
	}
	return email, roleName
}

// replaysOf reads the replay count from a message's deduplication id
// (domain.Delivery.DeduplicationID: the id, then "-r<n>" once replayed).
func replaysOf(dedup, id string) int {
	rest, ok := strings.CutPrefix(dedup, id+"-r")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
