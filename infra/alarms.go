package main

import (
	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsapigatewayv2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatch"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudwatchactions"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssnssubscriptions"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// deadLetterAgeAlarmSeconds: a dead letter still there after 7 days is
// lost 7 days later, when the dead-letter queue's 14-day retention ends.
const deadLetterAgeAlarmSeconds = 7 * 24 * 60 * 60

// newAlarmTopic is the SNS topic every alarm of a stack notifies, with the
// operators' e-mail address subscribed when configured.
func newAlarmTopic(scope constructs.Construct, cfg StackConfig) awssns.Topic {
	topic := awssns.NewTopic(scope, jsii.String("AlarmTopic"), &awssns.TopicProps{
		DisplayName: jsii.String("invite alarms"),
		EnforceSSL:  jsii.Bool(true),
	})
	if cfg.AlarmEmail != "" {
		topic.AddSubscription(awssnssubscriptions.NewEmailSubscription(jsii.String(cfg.AlarmEmail), nil))
	}
	return topic
}

// newQueueAlarms watches SCIM delivery: any dead letter needs an operator,
// one left unhandled for a week is about to expire, and an old message at
// the head of the work queue means an SP is stuck or the provisioner is
// failing. All notify the alarm topic.
func newQueueAlarms(scope constructs.Construct, cfg StackConfig, queues scimQueues) awssns.Topic {
	topic := newAlarmTopic(scope, cfg)
	action := awscloudwatchactions.NewSnsAction(topic)
	period := awscdk.Duration_Minutes(jsii.Number(1))

	deadLetters := awscloudwatch.NewAlarm(scope, jsii.String("ScimDeadLettersAlarm"), &awscloudwatch.AlarmProps{
		AlarmDescription: jsii.String("SCIM deliveries reached the dead-letter queue " + scimDeadLetterQueueName + "; inspect and redrive them."),
		Metric: queues.DeadLetters.MetricApproximateNumberOfMessagesVisible(&awscloudwatch.MetricOptions{
			Period: period, Statistic: jsii.String("Maximum"),
		}),
		Threshold:          jsii.Number(1),
		EvaluationPeriods:  jsii.Number(1),
		ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
		TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
	})
	oldest := awscloudwatch.NewAlarm(scope, jsii.String("ScimQueueAgeAlarm"), &awscloudwatch.AlarmProps{
		AlarmDescription: jsii.String("The oldest SCIM delivery in " + scimQueueName + " waits too long; an SP or the provisioner is failing."),
		Metric: queues.Work.MetricApproximateAgeOfOldestMessage(&awscloudwatch.MetricOptions{
			Period: period, Statistic: jsii.String("Maximum"),
		}),
		Threshold:          jsii.Number(float64(cfg.QueueAgeAlarmSeconds)),
		EvaluationPeriods:  jsii.Number(1),
		ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
		TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
	})
	deadLetterAge := awscloudwatch.NewAlarm(scope, jsii.String("ScimDeadLetterAgeAlarm"), &awscloudwatch.AlarmProps{
		AlarmDescription: jsii.String("A SCIM dead letter in " + scimDeadLetterQueueName + " is a week old; it expires a week later unless redriven or discarded."),
		Metric: queues.DeadLetters.MetricApproximateAgeOfOldestMessage(&awscloudwatch.MetricOptions{
			Period: awscdk.Duration_Minutes(jsii.Number(5)), Statistic: jsii.String("Maximum"),
		}),
		Threshold:          jsii.Number(deadLetterAgeAlarmSeconds),
		EvaluationPeriods:  jsii.Number(1),
		ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
		TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
	})
	for _, alarm := range []awscloudwatch.Alarm{deadLetters, oldest, deadLetterAge} {
		alarm.AddAlarmAction(action)
		alarm.AddOkAction(action)
	}
	return topic
}

// addErrorAlarm watches a background function that nobody waits on: a
// scheduled job or the mail-event consumer. Their failures (a user whose
// expiry failed, a mail event not recorded) are retried by the next run or
// by EventBridge, but one that keeps failing must reach an operator.
//
// The queue consumer is watched too: an invocation error (not a failed
// delivery, which is a batch item failure) means a whole batch came back,
// and throttles mean deliveries wait for a free instance.
func addErrorAlarm(scope constructs.Construct, fn serviceFunction, topic awssns.Topic) {
	if fn.Spec.Kind != scheduledJob && fn.Spec.Kind != mailEventConsumer && fn.Spec.Kind != queueConsumer && fn.Spec.Kind != onDemandJobRunner {
		return
	}
	every5 := &awscloudwatch.MetricOptions{Period: awscdk.Duration_Minutes(jsii.Number(5)), Statistic: jsii.String("Sum")}
	notify(scope, topic, pascalCase(fn.Spec.Name)+"ErrorsAlarm", "The "+fn.Spec.Name+" function failed; its log group says why.",
		fn.Function.MetricErrors(every5), 1)
	if fn.Spec.Kind == queueConsumer {
		notify(scope, topic, pascalCase(fn.Spec.Name)+"ThrottlesAlarm", "The "+fn.Spec.Name+" function was throttled; SCIM deliveries wait.",
			fn.Function.MetricThrottles(every5), 1)
	}
}

// addAPIServerErrorAlarm watches the HTTP API's 5xx answers: the service
// failed a caller.
func addAPIServerErrorAlarm(scope constructs.Construct, api awsapigatewayv2.HttpApi, topic awssns.Topic) {
	notify(scope, topic, "ApiServerErrorsAlarm", "The HTTP API answered 5xx; the functions' log groups say why.",
		api.MetricServerError(&awscloudwatch.MetricOptions{Period: awscdk.Duration_Minutes(jsii.Number(5)), Statistic: jsii.String("Sum")}), 1)
}

// notify alarms on a metric reaching threshold in its period, to the topic.
func notify(scope constructs.Construct, topic awssns.Topic, id, description string, metric awscloudwatch.IMetric, threshold float64) {
	alarm := awscloudwatch.NewAlarm(scope, jsii.String(id), &awscloudwatch.AlarmProps{
		AlarmDescription:   jsii.String(description),
		Metric:             metric,
		Threshold:          jsii.Number(threshold),
		EvaluationPeriods:  jsii.Number(1),
		ComparisonOperator: awscloudwatch.ComparisonOperator_GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
		TreatMissingData:   awscloudwatch.TreatMissingData_NOT_BREACHING,
	})
	action := awscloudwatchactions.NewSnsAction(topic)
	alarm.AddAlarmAction(action)
	alarm.AddOkAction(action)
}
