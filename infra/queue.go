package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssqs"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Queue names are part of the contract with operators' runbooks.
const (
	scimQueueName           = "invite-scim.fifo"
	scimDeadLetterQueueName = "invite-scim-dlq.fifo"
)

// visibilityTimeoutFactor follows the Lambda guidance for SQS event sources:
// at least six times the function timeout, so that a batch still being
// retried by the poller is not delivered a second time.
const visibilityTimeoutFactor = 6

// scimQueues is the FIFO work queue of SCIM deliveries and its dead letters.
type scimQueues struct {
	Work        awssqs.Queue
	DeadLetters awssqs.Queue
}

// newSCIMQueues creates the queues. The service sets MessageGroupId (SP id)
// and MessageDeduplicationId (delivery id) itself, so content-based
// deduplication is off, and high-throughput FIFO keeps ordering per SP only.
func newSCIMQueues(scope constructs.Construct, cfg StackConfig, consumerTimeoutSeconds int) scimQueues {
	dlq := awssqs.NewQueue(scope, jsii.String("ScimDeadLetterQueue"), &awssqs.QueueProps{
		QueueName:                 jsii.String(scimDeadLetterQueueName),
		Fifo:                      jsii.Bool(true),
		ContentBasedDeduplication: jsii.Bool(false),
		DeduplicationScope:        awssqs.DeduplicationScope_MESSAGE_GROUP,
		FifoThroughputLimit:       awssqs.FifoThroughputLimit_PER_MESSAGE_GROUP_ID,
		RetentionPeriod:           awscdk.Duration_Days(jsii.Number(14)),
		Encryption:                awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:                jsii.Bool(true),
	})
	work := awssqs.NewQueue(scope, jsii.String("ScimQueue"), &awssqs.QueueProps{
		QueueName:                 jsii.String(scimQueueName),
		Fifo:                      jsii.Bool(true),
		ContentBasedDeduplication: jsii.Bool(false),
		DeduplicationScope:        awssqs.DeduplicationScope_MESSAGE_GROUP,
		FifoThroughputLimit:       awssqs.FifoThroughputLimit_PER_MESSAGE_GROUP_ID,
		VisibilityTimeout:         awscdk.Duration_Seconds(jsii.Number(float64(visibilityTimeoutFactor * consumerTimeoutSeconds))),
		RetentionPeriod:           awscdk.Duration_Days(jsii.Number(4)),
		Encryption:                awssqs.QueueEncryption_SQS_MANAGED,
		EnforceSSL:                jsii.Bool(true),
		DeadLetterQueue: &awssqs.DeadLetterQueue{
			Queue:           dlq,
			MaxReceiveCount: jsii.Number(float64(cfg.MaxReceiveCount)),
		},
	})
	return scimQueues{Work: work, DeadLetters: dlq}
}
