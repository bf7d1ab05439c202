package sqs

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/edu-invite/invite/shared/domain"
)

// API is the part of the SQS client the adapter uses.
type API interface {
	SendMessageBatch(ctx context.Context, in *awssqs.SendMessageBatchInput, opts ...func(*awssqs.Options)) (*awssqs.SendMessageBatchOutput, error)
	SendMessage(ctx context.Context, in *awssqs.SendMessageInput, opts ...func(*awssqs.Options)) (*awssqs.SendMessageOutput, error)
}

// Queue is the provisioning queue; it implements domain.Queue.
type Queue struct {
	client API
	url    string
}

var _ domain.Queue = (*Queue)(nil)

// NewQueue returns the adapter for the FIFO queue at url.
func NewQueue(client API, url string) *Queue { return &Queue{client: client, url: url} }

// maxBatch is SQS's limit of entries per SendMessageBatch.
const maxBatch = 10

// Enqueue sends deliveries in their order. The message group is the
// delivery's order key (one resource at one SP) and the deduplication id the
// delivery id, so a re-send by the outbox sweep
// within SQS's five-minute window is dropped by SQS itself.
func (q *Queue) Enqueue(ctx context.Context, deliveries []domain.Delivery) error {
	for start := 0; start < len(deliveries); start += maxBatch {
		end := min(start+maxBatch, len(deliveries))
		entries := make([]types.SendMessageBatchRequestEntry, 0, end-start)
		for i, d := range deliveries[start:end] {
			body, err := EncodeDelivery(d)
			if err != nil {
				return err
			}
			entries = append(entries, types.SendMessageBatchRequestEntry{
				Id:                     aws.String(strconv.Itoa(i)),
				MessageBody:            aws.String(body),
				MessageGroupId:         aws.String(d.MessageGroup()),
				MessageDeduplicationId: aws.String(d.DeduplicationID()),
			})
		}
		out, err := q.client.SendMessageBatch(ctx, &awssqs.SendMessageBatchInput{QueueUrl: aws.String(q.url), Entries: entries})
		if err != nil {
			return fmt.Errorf("send provisioning messages: %w", err)
		}
		if len(out.Failed) > 0 {
			f := out.Failed[0]
			// Stop at the first failure: sending later messages of the same SP
			// would overtake the failed one. The sweep sends the rest.
			return fmt.Errorf("send provisioning messages: %d failed, first %s: %s", len(out.Failed), aws.ToString(f.Code), aws.ToString(f.Message))
		}
	}
	return nil
}

// DeadLetters is the dead-letter queue, written to directly for deliveries
// that fail permanently (a 400 or 401 will not heal by retrying).
type DeadLetters struct {
	client API
	url    string
}

// NewDeadLetters returns the adapter for the FIFO dead-letter queue at url.
func NewDeadLetters(client API, url string) *DeadLetters {
	return &DeadLetters{client: client, url: url}
}

// Send puts a delivery on the dead-letter queue with the reason as a message
// attribute; the reason carries statuses and SCIM error details, no secrets.
func (q *DeadLetters) Send(ctx context.Context, d domain.Delivery, reason string) error {
	body, err := EncodeDelivery(d)
	if err != nil {
		return err
	}
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	_, err = q.client.SendMessage(ctx, &awssqs.SendMessageInput{
		QueueUrl:               aws.String(q.url),
		MessageBody:            aws.String(body),
		MessageGroupId:         aws.String(d.MessageGroup()),
		MessageDeduplicationId: aws.String(d.ID + "-dead-" + strconv.Itoa(d.Attempts)),
		MessageAttributes: map[string]types.MessageAttributeValue{
			"reason": {DataType: aws.String("String"), StringValue: aws.String(reason)},
		},
	})
	if err != nil {
		return fmt.Errorf("dead-letter delivery %s: %w", d.ID, err)
	}
	return nil
}

// SendRaw puts a message that is no delivery on the dead-letter queue as
// it came, with the reason, in its message group (or "malformed").
func (q *DeadLetters) SendRaw(ctx context.Context, body, group, id, reason string) error {
	if group == "" {
		group = "malformed"
	}
	if len(reason) > 1000 {
		reason = reason[:1000]
	}
	_, err := q.client.SendMessage(ctx, &awssqs.SendMessageInput{
		QueueUrl: aws.String(q.url), MessageBody: aws.String(body), MessageGroupId: aws.String(group),
		MessageDeduplicationId: aws.String(id + "-malformed"),
		MessageAttributes: map[string]types.MessageAttributeValue{
			"reason": {DataType: aws.String("String"), StringValue: aws.String(reason)},
		},
	})
	if err != nil {
		return fmt.Errorf("dead-letter message %s: %w", id, err)
	}
	return nil
}
