// Package lambdasqs polls an SQS queue and invokes a consumer handler the way
// Lambda's SQS event source mapping does (with ReportBatchItemFailures), so
// the queue consumers run unchanged in the embedded local stack and in tests.
//
// Emulated: the events.SQSEvent shape; successes deleted, failures left to
// reappear after the visibility timeout (so the queue's redrive policy moves
// them to the DLQ after maxReceiveCount receives); a handler error or panic
// fails the whole batch; FIFO messages of a group handed over one batch at a
// time and in order, several batches of different groups at once.
//
// local-aws-sqs, unlike SQS, does not lock a FIFO message group while its
// messages are in flight: while a batch of a group is in the handler, or
// after a message failed, the next receive returns the group's later
// messages. The poller therefore keeps those later messages itself
// (invisible, "held") until the batch is over, or until the failed messages
// have been redelivered or have left the queue (DLQ), then hands them over
// after them. Holding rather than making them visible again matters: every
// receive increments a message's receive count, and re-hidden messages would
// reach the DLQ without ever having been delivered.
//
// Up to Concurrency batches run at once (like a function's reserved
// concurrency), never two of one FIFO group: a failing or slow group never
// blocks other groups.
package lambdasqs
