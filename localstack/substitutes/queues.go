package substitutes

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// MaxReceiveCount is the local queues' redrive count, as the CDK app's
// default (see maxReceiveCount in infra/config.go for why it is 100 and not
// 10): transient failures only; permanent ones are dead-lettered at once.
const MaxReceiveCount = 100

// CreateQueues creates the FIFO queue "<name>.fifo" and its dead-letter queue
// "<name>-dlq.fifo", with a RedrivePolicy moving a message to the DLQ once it
// has been received maxReceiveCount times. Like SQS CreateQueue it is
// idempotent when the attributes are unchanged.
func CreateQueues(ctx context.Context, client *sqs.Client, name string, maxReceiveCount int) (queueURL, dlqURL string, err error) {
	if maxReceiveCount < 1 {
		return "", "", fmt.Errorf("substitutes: CreateQueues %s: maxReceiveCount %d < 1", name, maxReceiveCount)
	}
	fifo := map[string]string{
		string(types.QueueAttributeNameFifoQueue): "true",
		// Producers set a MessageDeduplicationId when they need one; content
		// dedup would silently drop a legitimately repeated message.
		string(types.QueueAttributeNameContentBasedDeduplication): "false",
	}
	dlq, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name + "-dlq.fifo"), Attributes: fifo})
	if err != nil {
		return "", "", fmt.Errorf("substitutes: create DLQ of %s: %w", name, err)
	}
	dlqAttrs, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl:       dlq.QueueUrl,
		AttributeNames: []types.QueueAttributeName{types.QueueAttributeNameQueueArn},
	})
	if err != nil {
		return "", "", fmt.Errorf("substitutes: DLQ ARN of %s: %w", name, err)
	}
	redrive, err := json.Marshal(map[string]string{
		"deadLetterTargetArn": dlqAttrs.Attributes[string(types.QueueAttributeNameQueueArn)],
		"maxReceiveCount":     strconv.Itoa(maxReceiveCount),
	})
	if err != nil {
		return "", "", err
	}
	main := map[string]string{string(types.QueueAttributeNameRedrivePolicy): string(redrive)}
	for k, v := range fifo {
		main[k] = v
	}
	q, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name + ".fifo"), Attributes: main})
	if err != nil {
		return "", "", fmt.Errorf("substitutes: create queue %s: %w", name, err)
	}
	return aws.ToString(q.QueueUrl), aws.ToString(dlq.QueueUrl), nil
}
