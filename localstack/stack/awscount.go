package stack

import (
	"bytes"
	"io"
	"maps"
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
	return maps.Clone(c.counts)
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

func (c *AWSCalls) add(op string) { c.addN(op, 1) }

func (c *AWSCalls) addN(op string, n int) {
	c.mu.Lock()
	if c.counts == nil {
		c.counts = map[string]int{}
	}
	c.counts[op] += n
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
	if strings.HasSuffix(op, ".BatchWriteItem") || strings.HasSuffix(op, ".BatchGetItem") {
		// A batch costs a capacity unit per item: count them too
		// ("items:" + op), so that the cost figures stay true.
		if r.Body != nil {
			body, err := io.ReadAll(r.Body)
			_ = r.Body.Close()
			r.Body = io.NopCloser(bytes.NewReader(body))
			if err == nil {
				items := bytes.Count(body, []byte(`"PutRequest"`)) + bytes.Count(body, []byte(`"DeleteRequest"`))
				if strings.HasSuffix(op, ".BatchGetItem") {
					items = bytes.Count(body, []byte(`"pk":`))
				}
				c.calls.addN(itemsPrefix+op, items)
			}
		}
	}
	return c.inner.Do(r)
}

// itemsPrefix names the item counts of batch requests in AWSCalls.
const itemsPrefix = "items:"
