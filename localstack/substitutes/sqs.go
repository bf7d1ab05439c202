package substitutes

import "context"

// SQS is npm local-aws-sqs (JSON protocol, FIFO queues, DLQ redrive) run by
// node through localstack/sqs-server.js. Known gaps: system attributes come
// back only when the legacy AttributeNames ["All"] is requested too, and a FIFO
// message group is NOT locked while its messages are in flight (the
// lambdasqs poller makes up for that).
type SQS struct {
	// URL is the endpoint for the SDK, e.g. http://127.0.0.1:41234.
	URL string

	proc *nodeProcess
}

// StartSQS starts local-aws-sqs on addr ("" = a free port on 127.0.0.1) and
// returns once it answers HTTP. ctx bounds the start only.
func StartSQS(ctx context.Context, addr string) (*SQS, error) {
	p, err := startNode(ctx, "sqs", "sqs-server.js", addr, "/")
	if err != nil {
		return nil, err
	}
	return &SQS{URL: p.url, proc: p}, nil
}

// Close stops the node process; every queue and message is lost.
func (s *SQS) Close() error { return s.proc.Close() }
