package lambdasqs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// Handler is a consumer's Lambda handler for SQS events with
// ReportBatchItemFailures.
type Handler func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error)

// Defaults of the Poller fields left zero.
const (
	DefaultBatchSize         = 10
	DefaultVisibilityTimeout = 30 * time.Second
	DefaultWaitTime          = time.Second
	DefaultConcurrency       = 10
)

// holdVisibility is how long held messages are made invisible at a time; they
// are extended well before it runs out and made visible when the poller stops.
const holdVisibility = 5 * time.Minute

// Poller receives from one queue and invokes Handler like Lambda's event
// source mapping. Set the fields, then call Run or Drain (never both at once).
type Poller struct {
	Client   *sqs.Client
	QueueURL string
	// QueueARN is the events' EventSourceARN; when empty it is looked up once.
	QueueARN string
	Handler  Handler
	// BatchSize is the most messages per invocation, 1 to 10 (default 10).
	BatchSize int
	// VisibilityTimeout is how long a received message stays invisible; a
	// failed message is received again after it (default 30s, whole seconds).
	VisibilityTimeout time.Duration
	// WaitTime is the long-poll wait of each receive (default 1s, whole seconds).
	WaitTime time.Duration
	// Logger gets ids and counts, never bodies (default slog.Default()).
	Logger *slog.Logger

	// Concurrency is the most batches in the handler at once (default 10),
	// as a function's reserved concurrency; two batches of one FIFO group
	// never run at once.
	Concurrency int

	idleSince   time.Time // when receiveLimit first found the queue empty; zero while busy
	visibleLeft int       // visible at receiveLimit's last look, less what was received since

	running     atomic.Bool
	slots       chan struct{} // one per batch in the handler
	invocations sync.WaitGroup
	delays      sync.Map // message id -> time.Time it was delayed to by the handler

	mu       sync.Mutex // guards order and invoking
	order    groupOrder
	invoking int // batches planned and not yet finished

	// visibility is taken while mu is held and released once the
	// visibility changes decided under mu have been made, so that they reach
	// the queue in the order they were decided. Otherwise a batch finishing
	// meanwhile could release a message just held, and the hold for
	// holdVisibility would arrive after its reset: the message would stay
	// hidden for minutes with nobody remembering it.
	visibility sync.Mutex
}

// Delayed tells the poller that the handler extended a message's visibility
// (backoff) until the given time. SQS keeps a FIFO group locked meanwhile;
// local-aws-sqs does not, so the poller must hold the group that long.
func (p *Poller) Delayed(messageID string, until time.Time) {
	p.delays.Store(messageID, until)
}

// Run polls until ctx is done and then returns nil; it returns early only on a
// setup error. Receive errors are logged and retried after a pause. The
// batches in the handler when ctx ends are waited for (their ctx is done too).
func (p *Poller) Run(ctx context.Context) error {
	if err := p.start(ctx); err != nil {
		return err
	}
	defer p.stop()
	for ctx.Err() == nil {
		if _, err := p.pollOnce(ctx); err != nil && ctx.Err() == nil {
			p.logger().Warn("sqs poll failed", "queue", p.QueueURL, "error", err)
			sleep(ctx, time.Second)
		}
	}
	return nil
}

// Drain polls until the queue is empty: no visible, delayed or in-flight
// message, no batch in the handler and none held by the poller. Failed
// messages are waited for until they succeed or reach the DLQ. For tests;
// bound it with ctx.
func (p *Poller) Drain(ctx context.Context) error {
	if err := p.start(ctx); err != nil {
		return err
	}
	defer p.stop()
	for {
		if _, err := p.pollOnce(ctx); err != nil {
			p.mu.Lock()
			state := p.order.String()
			p.mu.Unlock()
			return fmt.Errorf("lambdasqs: drain %s (%s): %w", p.QueueURL, state, err)
		}
		if p.busy() {
			continue
		}
		left, err := p.messagesLeft(ctx)
		if err != nil {
			return fmt.Errorf("lambdasqs: drain %s: %w", p.QueueURL, err)
		}
		if left == 0 && !p.busy() {
			return nil
		}
	}
}

// State describes the groups the poller holds or runs, for diagnostics.
func (p *Poller) State() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return fmt.Sprintf("%d batches in the handler; %s", p.invoking, p.order.String())
}

// Idle says whether the poller has nothing in hand: no batch in the
// handler, no message held and no group waiting for a failed message.
func (p *Poller) Idle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.invoking == 0 && p.order.heldCount() == 0 && p.order.runningCount() == 0 && len(p.order.blocked) == 0
}

// Invocations is the number of batches in the handler or about to be.
func (p *Poller) Invocations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.invoking
}

// busy says whether a batch is in the handler or a message is held.
func (p *Poller) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.order.heldCount() > 0 || p.order.runningCount() > 0 || p.invoking > 0
}

func (p *Poller) start(ctx context.Context) error {
	if p.Client == nil || p.QueueURL == "" || p.Handler == nil {
		return errors.New("lambdasqs: Poller needs Client, QueueURL and Handler")
	}
	if p.BatchSize < 0 || p.BatchSize > 10 {
		return fmt.Errorf("lambdasqs: BatchSize %d not in 1..10", p.BatchSize)
	}
	if p.Concurrency < 0 {
		return fmt.Errorf("lambdasqs: Concurrency %d < 0", p.Concurrency)
	}
	if !p.running.CompareAndSwap(false, true) {
		return errors.New("lambdasqs: Poller already running")
	}
	p.slots = make(chan struct{}, p.concurrency())
	if p.QueueARN == "" {
		out, err := p.Client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
			QueueUrl:       &p.QueueURL,
			AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
		})
		if err != nil {
			p.running.Store(false)
			return fmt.Errorf("lambdasqs: ARN of %s: %w", p.QueueURL, err)
		}
		p.QueueARN = out.Attributes[string(types.QueueAttributeNameQueueArn)]
	}
	return nil
}

// stop waits for the batches in the handler, then gives held messages back,
// so nothing stays hidden for holdVisibility after the poller is gone: each
// group's held messages become visible just after the failed message they
// wait for, so that the next poller (which knows nothing of this one) still
// receives that one first.
func (p *Poller) stop() {
	defer p.running.Store(false)
	p.invocations.Wait()
	p.mu.Lock()
	groups := p.order.releaseAll()
	p.mu.Unlock()
	if len(groups) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	count := 0
	for _, g := range groups {
		p.changeVisibility(ctx, g.held, max(time.Until(g.headVisibleAt), 0)+time.Second)
		count += len(g.held)
	}
	p.logger().Info("sqs poller stopped; held messages given back", "queue", p.QueueURL, "count", count)
}

// pollOnce waits for a free invocation slot, does one receive and starts
// the invocations of what it yields (each in a slot of its own). It reports
// how many messages were received.
func (p *Poller) pollOnce(ctx context.Context) (int, error) {
	// Receive only with a slot free, as Lambda's pollers do at the
	// function's concurrency limit: received messages would otherwise wait
	// for a slot while their visibility timeout runs.
	if !p.acquire(ctx) {
		return 0, ctx.Err()
	}
	p.releaseSlot()
	p.extendHeld(ctx)
	limit, err := p.receiveLimit(ctx)
	if err != nil || limit == 0 {
		return 0, err
	}
	started := time.Now()
	out, err := p.Client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl:            &p.QueueURL,
		MaxNumberOfMessages: int32(limit),
		VisibilityTimeout:   seconds(p.visibilityTimeout()),
		WaitTimeSeconds:     seconds(p.waitTime()),
		// local-aws-sqs returns system attributes only for the legacy
		// AttributeNames; SQS accepts both.
		AttributeNames:              []types.QueueAttributeName{"All"},
		MessageSystemAttributeNames: []types.MessageSystemAttributeName{types.MessageSystemAttributeNameAll},
		MessageAttributeNames:       []string{"All"},
	})
	if err != nil {
		return 0, fmt.Errorf("receive: %w", err)
	}
	if len(out.Messages) > 0 {
		p.idleSince = time.Time{}
	}
	if len(out.Messages) < limit {
		p.visibleLeft = 0 // fewer than counted: look again
	} else {
		p.visibleLeft = max(p.visibleLeft-len(out.Messages), 0)
	}
	out.Messages = latestReceipts(out.Messages)
	p.mu.Lock()
	adm := p.order.admit(out.Messages, started, len(out.Messages) == limit, holdVisibility)
	batches, overflow := p.plan(adm.ready)
	p.visibility.Lock()
	p.mu.Unlock()
	if len(adm.held) > 0 {
		p.logger().Info("sqs messages held behind a failed or running message of their group",
			"queue", p.QueueURL, "count", len(adm.held), "message_ids", ids(adm.held))
	}
	p.hide(ctx, append(adm.held, overflow...), adm.released)
	p.visibility.Unlock()
	p.launch(ctx, batches)
	return len(out.Messages), nil
}

// idleProbe is the pause between two looks at an empty queue; after
// idleReceive of them a plain receive runs (see receiveLimit).
const (
	idleProbe   = 5 * time.Millisecond
	idleReceive = time.Second
)

// receiveLimit is how many messages the next receive asks for: as many as
// are visible, up to the batch size, or 0 after a short idle pause when
// none is. local-aws-sqs answers a receive only when it has as many
// messages as asked for or its wait is over (at least 40 ms), where SQS
// answers a long poll as soon as it has any: asking for what is there
// makes the substitute answer at once, as SQS would, instead of adding its
// wait to every delivery. Its ApproximateNumberOfMessages counts the
// in-flight messages too, so the visible ones are the difference. While
// what the last look counted, less what was received since, still fills a
// batch, the receive asks for a full batch without looking again: a busy
// queue costs one request per batch, not two. Once the
// queue has looked empty for idleReceive, plain receives of the batch size
// run until one brings messages: an idle queue costs a receive per wait of
// the substitute, not a look every 5 ms, and a queue that counts otherwise
// (SQS counts only the visible ones) is still read.
func (p *Poller) receiveLimit(ctx context.Context) (int, error) {
	limit := p.batchSize()
	if p.visibleLeft >= limit {
		return limit, nil
	}
	out, err := p.Client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: &p.QueueURL,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameApproximateNumberOfMessages,
			types.QueueAttributeNameApproximateNumberOfMessagesNotVisible},
	})
	if err != nil {
		return 0, fmt.Errorf("queue attributes: %w", err)
	}
	all, _ := strconv.Atoi(out.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessages)])
	hidden, _ := strconv.Atoi(out.Attributes[string(types.QueueAttributeNameApproximateNumberOfMessagesNotVisible)])
	if visible := all - hidden; visible > 0 {
		p.visibleLeft = visible
		return min(visible, limit), nil
	}
	p.visibleLeft = 0
	now := time.Now()
	if p.idleSince.IsZero() {
		p.idleSince = now
	}
	if now.Sub(p.idleSince) >= idleReceive {
		// Idle: plain receives (each waits in the substitute) until one
		// brings messages, instead of 200 looks a second at an idle queue.
		return limit, nil
	}
	sleep(ctx, idleProbe)
	return 0, ctx.Err()
}

// plan packs ready messages into batches and marks their groups running;
// p.mu must be held.
func (p *Poller) plan(ready []types.Message) (batches [][]types.Message, overflow []types.Message) {
	batches, overflow = pack(ready, p.batchSize())
	p.order.start(batches, overflow, time.Now().Add(holdVisibility))
	p.invoking += len(batches)
	return batches, overflow
}

// hide makes newly held messages invisible for holdVisibility, and released
// ones (hidden that long until now) receivable again after the normal
// visibility timeout should their batch fail.
func (p *Poller) hide(ctx context.Context, held, released []types.Message) {
	if len(held) > 0 {
		p.changeVisibility(ctx, held, holdVisibility)
	}
	isHeld := map[string]bool{}
	for _, m := range held {
		isHeld[aws.ToString(m.MessageId)] = true
	}
	var reset []types.Message
	for _, m := range released {
		if !isHeld[aws.ToString(m.MessageId)] {
			reset = append(reset, m)
		}
	}
	if len(reset) > 0 {
		p.changeVisibility(ctx, reset, p.visibilityTimeout())
	}
}

// launch starts each batch in a slot of its own; when ctx ends before a
// slot is free, the batch counts as failed (nothing was handled).
func (p *Poller) launch(ctx context.Context, batches [][]types.Message) {
	for _, batch := range batches {
		if !p.acquire(ctx) {
			p.finish(ctx, batch, allOf(batch))
			continue
		}
		p.invocations.Add(1)
		go func() {
			defer p.invocations.Done()
			p.invokeBatch(ctx, batch)
		}()
	}
}

// invokeBatch hands one batch to the handler, deletes the successes and
// records the failures.
func (p *Poller) invokeBatch(ctx context.Context, batch []types.Message) {
	log := p.logger().With("queue", p.QueueURL)
	ev := toEvent(batch, p.QueueARN, p.Client.Options().Region)
	failed, err := invoke(ctx, p.Handler, ev)
	p.releaseSlot()
	if err != nil {
		log.Warn("sqs handler failed the whole batch", "count", len(batch), "message_ids", ids(batch), "error", err)
	} else if len(failed) > 0 {
		log.Info("sqs handler reported item failures", "count", len(batch), "failed", len(failed), "failed_ids", sortedKeys(failed))
	} else {
		log.Debug("sqs batch handled", "count", len(batch))
	}
	if ctx.Err() != nil {
		// The poller is being killed: like a crashed Lambda it deletes
		// nothing, and the whole batch comes back.
		failed = allOf(batch)
	}
	var done []types.Message
	for _, m := range batch {
		if !failed[aws.ToString(m.MessageId)] {
			done = append(done, m)
		}
	}
	p.delete(ctx, done)
	p.finish(ctx, batch, failed)
}

// finish ends a batch's groups and launches what was held behind them.
func (p *Poller) finish(ctx context.Context, batch []types.Message, failed map[string]bool) {
	// The failed messages became invisible at the receive; measuring from now
	// gives a time at or after the real one, which admit needs.
	visibleAt := time.Now().Add(p.visibilityTimeout())
	if ctx.Err() != nil {
		// Killed: no new batch; what was held stays held behind the batch.
		failed = allOf(batch)
	}
	p.mu.Lock()
	p.invoking--
	released, copies := p.order.finished(batch, failed, func(messageID string) time.Time {
		if until, ok := p.delays.LoadAndDelete(messageID); ok && until.(time.Time).After(visibleAt) {
			return until.(time.Time)
		}
		return visibleAt
	})
	batches, overflow := p.plan(released)
	p.visibility.Lock()
	p.mu.Unlock()
	p.delete(ctx, copies)
	p.hide(ctx, overflow, released)
	p.visibility.Unlock()
	p.launch(ctx, batches)
}

func allOf(batch []types.Message) map[string]bool {
	all := make(map[string]bool, len(batch))
	for _, m := range batch {
		all[aws.ToString(m.MessageId)] = true
	}
	return all
}

// acquire takes an invocation slot, or reports false when ctx ends first.
func (p *Poller) acquire(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case p.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (p *Poller) releaseSlot() { <-p.slots }

func (p *Poller) delete(ctx context.Context, msgs []types.Message) {
	for chunk := range chunks(msgs) {
		entries := make([]types.DeleteMessageBatchRequestEntry, len(chunk))
		for i, m := range chunk {
			entries[i] = types.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle}
		}
		out, err := p.Client.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &p.QueueURL, Entries: entries})
		if err != nil {
			p.logger().Warn("sqs delete failed; the messages will be delivered again", "queue", p.QueueURL, "message_ids", ids(chunk), "error", err)
			continue
		}
		for _, f := range out.Failed {
			p.logger().Warn("sqs delete failed; the message will be delivered again", "queue", p.QueueURL, "entry", aws.ToString(f.Id), "code", aws.ToString(f.Code))
		}
	}
}

func (p *Poller) changeVisibility(ctx context.Context, msgs []types.Message, timeout time.Duration) {
	for chunk := range chunks(msgs) {
		entries := make([]types.ChangeMessageVisibilityBatchRequestEntry, len(chunk))
		for i, m := range chunk {
			entries[i] = types.ChangeMessageVisibilityBatchRequestEntry{
				Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: seconds(timeout),
			}
		}
		out, err := p.Client.ChangeMessageVisibilityBatch(ctx, &sqs.ChangeMessageVisibilityBatchInput{QueueUrl: &p.QueueURL, Entries: entries})
		if err != nil {
			p.logger().Warn("sqs change visibility failed", "queue", p.QueueURL, "message_ids", ids(chunk), "error", err)
			continue
		}
		for _, f := range out.Failed {
			p.logger().Warn("sqs change visibility failed", "queue", p.QueueURL, "entry", aws.ToString(f.Id), "code", aws.ToString(f.Code))
		}
	}
}

// extendHeld keeps held messages invisible: those with less than half of
// holdVisibility left get a fresh holdVisibility.
func (p *Poller) extendHeld(ctx context.Context) {
	now := time.Now()
	p.mu.Lock()
	msgs := p.order.expiring(now.Add(holdVisibility/2), now.Add(holdVisibility))
	p.visibility.Lock()
	p.mu.Unlock()
	defer p.visibility.Unlock()
	if len(msgs) > 0 {
		p.changeVisibility(ctx, msgs, holdVisibility)
	}
}

// messagesLeft is the queue's visible + in-flight + delayed message count.
func (p *Poller) messagesLeft(ctx context.Context) (int, error) {
	out, err := p.Client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: &p.QueueURL,
		AttributeNames: []types.QueueAttributeName{
			types.QueueAttributeNameApproximateNumberOfMessages,
			types.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
			types.QueueAttributeNameApproximateNumberOfMessagesDelayed,
		},
	})
	if err != nil {
		return 0, err
	}
	total := 0
	for _, v := range out.Attributes {
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("queue attribute %q: %w", v, err)
		}
		total += n
	}
	return total, nil
}

func (p *Poller) concurrency() int {
	if p.Concurrency == 0 {
		return DefaultConcurrency
	}
	return p.Concurrency
}

func (p *Poller) batchSize() int {
	if p.BatchSize == 0 {
		return DefaultBatchSize
	}
	return p.BatchSize
}

func (p *Poller) visibilityTimeout() time.Duration {
	if p.VisibilityTimeout <= 0 {
		return DefaultVisibilityTimeout
	}
	return p.VisibilityTimeout
}

// waitTime is the long-poll wait, kept a second below the visibility
// timeout: local-aws-sqs keeps a receive open for the whole wait to fill the
// batch, and a message whose visibility ran out meanwhile would come back in
// the same receive (and count as received twice).
func (p *Poller) waitTime() time.Duration {
	w := p.WaitTime
	if w <= 0 {
		w = DefaultWaitTime
	}
	if limit := p.visibilityTimeout() - time.Second; w > limit {
		w = max(limit, 0)
	}
	return w
}

func (p *Poller) logger() *slog.Logger {
	if p.Logger == nil {
		return slog.Default()
	}
	return p.Logger
}

// seconds rounds d up to whole seconds, as the SQS API counts them.
func seconds(d time.Duration) int32 {
	return int32(math.Ceil(d.Seconds()))
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
