package stack

import (
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edu-invite/invite/localstack/scimsp"
)

// deliveryBenchSPLatency is the SCIM SP's answer time in the benchmarks.
const deliveryBenchSPLatency = 5 * time.Millisecond

// deliveryBenchSPRate is the SP's rate limit in the benchmarks: far above
// what one consumer reaches, so that it measures the delivery path, not the
// limiter (the tests keep lifecycleSPARate).
const deliveryBenchSPRate = 10000

// deliveryBenchSP answers PATCH with 204 (see scimsp.Options.PatchNoContent).
var deliveryBenchSP = scimsp.Options{PatchNoContent: true}

// benchSPClock slows the SP down to deliveryBenchSPLatency per request and
// remembers when it last answered, so that a benchmark measures up to the
// last answer rather than up to when its polling noticed it.
type benchSPClock struct{ lastAnswer atomic.Int64 }

func (c *benchSPClock) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(deliveryBenchSPLatency)
		h.ServeHTTP(w, r)
		c.lastAnswer.Store(time.Now().UnixNano())
	})
}

// since is the time from start to the SP's last answer.
func (c *benchSPClock) since(start time.Time) time.Duration {
	return time.Unix(0, c.lastAnswer.Load()).Sub(start)
}

// BenchmarkDeliveryPathThroughput queues the deliveries of b.N acceptances to
// an SP that answers in 5 ms while the consumer is paused, then measures how
// fast one consumer (the local poller with its default concurrency: up to 10
// batches of up to 10 messages, of distinct FIFO groups, in the handler at
// once, as Lambda's event source mapping runs a function) brings them all
// in: SCIM requests and deliveries per second.
//
//	go test -run '^$' -bench DeliveryPathThroughput -benchtime 200x ./localstack/stack/
func BenchmarkDeliveryPathThroughput(b *testing.B) {
	calls, sp := &AWSCalls{}, &benchSPClock{}
	f := newLifecycleFixtureOf(b, deliveryBenchSP, sp.wrap, calls, deliveryBenchSPRate)
	role := f.createRole("Bench", "app-a", 30)
	eventually(b, "the group at the SP", func() bool { return len(f.spA.Groups()) == 1 })
	f.s.PauseConsumer()
	for i := 0; i < b.N; i++ {
		f.inviteAndAccept(fmt.Sprintf("bench%d@example.org", i), "en", "", role)
	}
	before := len(f.spA.Requests())
	awsBefore := calls.Snapshot()
	b.ResetTimer()
	start := time.Now()
	f.s.ResumeConsumer()
	eventually(b, "every membership at the SP", func() bool { return members(f.spA) == b.N })
	elapsed := sp.since(start)
	b.StopTimer()
	requests := len(f.spA.Requests()) - before
	deliveries := float64(2 * b.N) // user.create + member.add each
	b.ReportMetric(float64(requests)/elapsed.Seconds(), "scim-requests/s")
	b.ReportMetric(deliveries/elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(float64(requests)/float64(b.N), "requests/acceptance")
	reportAWSCost(b, awsBefore, calls.Snapshot(), deliveries)
}

// reportAWSCost reports the DynamoDB and SQS requests per delivery made
// by the consumer while the deliveries were brought in (the sends happened
// before, with the acceptances), the capacity units they consumed (a
// batch request costs one per item; strongly consistent reads of items
// under 4 KB one read unit each), and what a million deliveries cost at
// on-demand prices (eu-west-1, since the 50 % reduction of November 2024:
// DynamoDB $0.70625 per million write units and $0.14125 per million read
// units; SQS FIFO $0.50 per million requests). Index writes are not in the
// units: DynamoDB bills one more write unit per index an item enters or
// leaves (the README's cost table adds them). An empty receive of the idle
// poller counts too.
func reportAWSCost(b *testing.B, before, after map[string]int, deliveries float64) {
	delta := map[string]int{}
	for k, v := range after {
		delta[k] = v - before[k]
	}
	reads := Sum(delta, "DynamoDB_20120810.GetItem") + Sum(delta, "DynamoDB_20120810.Query") + Sum(delta, "DynamoDB_20120810.BatchGet")
	writes := Sum(delta, "DynamoDB_20120810.") - reads
	// Capacity units: a batch request costs one per item.
	batchGets, batchWrites := Sum(delta, "DynamoDB_20120810.BatchGetItem"), Sum(delta, "DynamoDB_20120810.BatchWriteItem")
	readUnits := reads - batchGets + Sum(delta, itemsPrefix+"DynamoDB_20120810.BatchGetItem")
	writeUnits := writes - batchWrites + Sum(delta, itemsPrefix+"DynamoDB_20120810.BatchWriteItem")
	// The local poller's GetQueueAttributes stand in for the long poll the
	// SQS substitute lacks (lambdasqs.Poller.receiveLimit); Lambda's poller
	// makes none.
	sqsCalls := Sum(delta, "AmazonSQS.") - Sum(delta, "AmazonSQS.GetQueueAttributes")
	b.ReportMetric(float64(reads)/deliveries, "ddb-reads/delivery")
	b.ReportMetric(float64(writes)/deliveries, "ddb-writes/delivery")
	b.ReportMetric(float64(readUnits)/deliveries, "ddb-read-units/delivery")
	b.ReportMetric(float64(writeUnits)/deliveries, "ddb-write-units/delivery")
	b.ReportMetric(float64(sqsCalls)/deliveries, "sqs-requests/delivery")
	perMillion := (float64(writeUnits)*0.70625 + float64(readUnits)*0.14125 + float64(sqsCalls)*0.50) / deliveries
	b.ReportMetric(perMillion, "USD/1M-deliveries")
	if testing.Verbose() {
		b.Logf("AWS requests during delivery: %v", delta)
	}
}

// BenchmarkAcceptedToMemberAtSP measures, one acceptance at a time, how
// long after the accept call returns the member is in the group at the SP.
//
//	go test -run '^$' -bench AcceptedToMemberAtSP -benchtime 50x ./localstack/stack/
func BenchmarkAcceptedToMemberAtSP(b *testing.B) {
	sp := &benchSPClock{}
	f := newLifecycleFixtureOf(b, deliveryBenchSP, sp.wrap, nil, deliveryBenchSPRate)
	role := f.createRole("Bench", "app-a", 30)
	latencies := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.inviteAndAccept(fmt.Sprintf("lat%d@example.org", i), "en", "", role)
		accepted := time.Now()
		deadline := accepted.Add(30 * time.Second)
		for members(f.spA) < i+1 {
			if time.Now().After(deadline) {
				b.Fatalf("membership %d not visible after 30 s", i)
			}
			time.Sleep(2 * time.Millisecond)
		}
		latencies = append(latencies, sp.since(accepted))
	}
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(deliveryBenchMillis(latencies[len(latencies)/2]), "p50-ms")
	b.ReportMetric(deliveryBenchMillis(latencies[(len(latencies)*95)/100]), "p95-ms")
}

func deliveryBenchMillis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
