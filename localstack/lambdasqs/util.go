package lambdasqs

import (
	"iter"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// sqsBatchLimit is the most entries an SQS batch call takes.
const sqsBatchLimit = 10

// chunks splits msgs into runs of at most sqsBatchLimit.
func chunks(msgs []types.Message) iter.Seq[[]types.Message] {
	return slices.Chunk(msgs, sqsBatchLimit)
}

// ids are the message ids, for logs (never the bodies).
func ids(msgs []types.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = aws.ToString(m.MessageId)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}

// latestReceipts drops earlier copies of a message received more than once
// in one receive, keeping the last (its receipt handle is the valid one). SQS
// never does this; local-aws-sqs can, when a message's visibility runs out
// while the receive is still open.
func latestReceipts(msgs []types.Message) []types.Message {
	last := map[string]int{}
	for i, m := range msgs {
		last[aws.ToString(m.MessageId)] = i
	}
	if len(last) == len(msgs) {
		return msgs
	}
	out := make([]types.Message, 0, len(last))
	for i, m := range msgs {
		if last[aws.ToString(m.MessageId)] == i {
			out = append(out, m)
		}
	}
	return out
}
