package lambdasqs

import (
	"maps"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// toEvent builds the event Lambda would pass for these messages.
func toEvent(msgs []types.Message, queueARN, region string) events.SQSEvent {
	ev := events.SQSEvent{Records: make([]events.SQSMessage, len(msgs))}
	for i, m := range msgs {
		ev.Records[i] = events.SQSMessage{
			MessageId:              aws.ToString(m.MessageId),
			ReceiptHandle:          aws.ToString(m.ReceiptHandle),
			Body:                   aws.ToString(m.Body),
			Md5OfBody:              aws.ToString(m.MD5OfBody),
			Md5OfMessageAttributes: aws.ToString(m.MD5OfMessageAttributes),
			// All system attributes as received: ApproximateReceiveCount,
			// SentTimestamp, SenderId, ApproximateFirstReceiveTimestamp and, on
			// FIFO queues, MessageGroupId, MessageDeduplicationId, SequenceNumber.
			Attributes:        maps.Clone(m.Attributes),
			MessageAttributes: toEventAttributes(m.MessageAttributes),
			EventSourceARN:    queueARN,
			EventSource:       "aws:sqs",
			AWSRegion:         region,
		}
		if ev.Records[i].Attributes == nil {
			ev.Records[i].Attributes = map[string]string{}
		}
	}
	return ev
}

func toEventAttributes(in map[string]types.MessageAttributeValue) map[string]events.SQSMessageAttribute {
	out := make(map[string]events.SQSMessageAttribute, len(in))
	for name, v := range in {
		out[name] = events.SQSMessageAttribute{
			DataType:         aws.ToString(v.DataType),
			StringValue:      v.StringValue,
			BinaryValue:      v.BinaryValue,
			StringListValues: v.StringListValues,
			BinaryListValues: v.BinaryListValues,
		}
	}
	return out
}
