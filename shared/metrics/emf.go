// Package metrics writes CloudWatch embedded metric format (EMF) records:
// JSON lines on stdout that CloudWatch Logs turns into metrics, so a Lambda
// publishes per-SP counters and latency without an API call.
package metrics

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Outcome of one SCIM delivery attempt.
type Outcome string

const (
	Delivered    Outcome = "Delivered"
	Retried      Outcome = "Retried"
	Throttled    Outcome = "Throttled" // a retry because the SP answered 429
	DeadLettered Outcome = "DeadLettered"
)

// EMF writes one record per delivery attempt.
type EMF struct {
	Namespace string
	w         io.Writer
	now       func() time.Time
	mu        sync.Mutex
}

// NewEMF writes to w (os.Stdout in a Lambda) under the namespace.
func NewEMF(w io.Writer, namespace string) *EMF {
	return &EMF{Namespace: namespace, w: w, now: time.Now}
}

type metricDef struct {
	Name string `json:"Name"`
	Unit string `json:"Unit"`
}

type directive struct {
	Namespace  string      `json:"Namespace"`
	Dimensions [][]string  `json:"Dimensions"`
	Metrics    []metricDef `json:"Metrics"`
}

// Delivery records one attempt at an SP: a count of its outcome (a
// throttled attempt counts as retried too) and its latency.
func (e *EMF) Delivery(sp string, outcome Outcome, latency time.Duration) {
	if e == nil {
		return
	}
	record := map[string]any{"SP": sp, string(outcome): 1, "LatencyMs": float64(latency.Microseconds()) / 1000}
	defs := []metricDef{{Name: string(outcome), Unit: "Count"}, {Name: "LatencyMs", Unit: "Milliseconds"}}
	if outcome == Throttled {
		record[string(Retried)] = 1
		defs = append(defs, metricDef{Name: string(Retried), Unit: "Count"})
	}
	record["_aws"] = map[string]any{
		"Timestamp":         e.now().UnixMilli(),
		"CloudWatchMetrics": []directive{{Namespace: e.Namespace, Dimensions: [][]string{{"SP"}}, Metrics: defs}},
	}
	line, err := json.Marshal(record)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, _ = e.w.Write(append(line, '\n'))
}
