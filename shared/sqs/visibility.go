package sqs

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	awssqs "github.com/aws/aws-sdk-go-v2/service/sqs"
)

// VisibilityAPI is the part of the SQS client that delays messages.
type VisibilityAPI interface {
	ChangeMessageVisibility(ctx context.Context, in *awssqs.ChangeMessageVisibilityInput, opts ...func(*awssqs.Options)) (*awssqs.ChangeMessageVisibilityOutput, error)
}

// Visibility backs off failed messages by extending their visibility
// timeout, which SQS caps at 12 hours.
type Visibility struct {
	client VisibilityAPI
	url    string
}

// NewVisibility returns the backoff of the queue at url.
func NewVisibility(client VisibilityAPI, url string) *Visibility {
	return &Visibility{client: client, url: url}
}

const maxVisibility = 12 * time.Hour

// Delay makes the received message invisible for d from now.
func (v *Visibility) Delay(ctx context.Context, m events.SQSMessage, d time.Duration) error {
	secs := int32(math.Ceil(min(d, maxVisibility).Seconds()))
	_, err := v.client.ChangeMessageVisibility(ctx, &awssqs.ChangeMessageVisibilityInput{
		QueueUrl: aws.String(v.url), ReceiptHandle: aws.String(m.ReceiptHandle), VisibilityTimeout: secs,
	})
	if err != nil {
		return fmt.Errorf("delay message %s: %w", m.MessageId, err)
	}
	return nil
}
