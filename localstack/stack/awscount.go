package stack

import (
	"net/http"
	"strings"
	"sync"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// AWSCalls counts the requests the stack's SDK clients send, by service
// and operation ("DynamoDB_20120810.PutItem", "AmazonSQS.ReceiveMessage"),
// so that a benchmark can report the cost of a delivery. It is safe for
// concurrent use.
type AWSCalls struct {
	mu     sync.Mutex
	counts map[string]int
}

// Snapshot returns the counts so far.
func (c *AWSCalls) Snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.counts))
	for k, v := range c.counts {
		out[k] = v
	}
	return out
}

// Sum adds the counts whose operation starts with prefix.
func Sum(counts map[string]int, prefix string) int {
	n := 0
	for k, v := range counts {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}

func (c *AWSCalls) add(op string) {
	c.mu.Lock()
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[op]++
	c.mu.Unlock()
}

// countingClient is the SDK's HTTP client with each request counted.
type countingClient struct {
	inner *awshttp.BuildableClient
	calls *AWSCalls
}

func (c countingClient) Do(r *http.Request) (*http.Response, error) {
	op := r.Header.Get("X-Amz-Target")
	if op == "" {
		op = r.Host + " " + r.Method // query or REST protocols (SES v2)
	}
	c.calls.add(op)
	return c.inner.Do(r)
}
