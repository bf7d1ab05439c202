// Package lambdasqs polls an SQS queue and invokes a consumer handler the way
// Lambda's SQS event source mapping does (with ReportBatchItemFailures), so
// the queue consumers run unchanged in the embedded local stack and in tests.
//
// Emulated: the events.SQSEvent shape; successes deleted, failures left to
// reappear after the visibility timeout (so the queue's redrive policy moves
// them to the DLQ after maxReceiveCount receives); a handler error or panic
// fails the whole batch; FIFO messages of a group handed over one batch at a
// time and in order.
//
// local-aws-sqs, unlike SQS, does not lock a FIFO message group while its
// messages are in flight: after a message failed, the next receive returns the
// group's later messages. The poller therefore keeps those later messages
// itself (invisible, "held") until the failed message has been redelivered or
// has left the queue (DLQ), then hands them over after it. Holding rather than
// making them visible again matters: every receive increments a message's
// receive count, and re-hidden messages would reach the DLQ without ever
// having been delivered.
//
// Batches run one at a time, like a function with reserved concurrency 1:
// a failing group never blocks other groups, but a slow handler delays all.
package lambdasqs
