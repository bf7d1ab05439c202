package stack

import (
	"encoding/json"
	"net/http"
	"time"
)

// runJob starts an on-demand job (202 with the job) and polls its
// statusUrl until it is done; it answers the start's status and the
// finished job's result decoded into out.
func (c client) runJob(method, path string, headers map[string]string, out any) int {
	c.t.Helper()
	var job struct {
		Status    string          `json:"status"`
		StatusURL string          `json:"statusUrl"`
		Result    json.RawMessage `json:"result"`
		Error     string          `json:"error"`
	}
	if got := c.do(method, path, headers, nil, &job); got != http.StatusAccepted || job.StatusURL == "" {
		return got
	}
	deadline := time.Now().Add(30 * time.Second)
	for job.Status != "succeeded" && job.Status != "failed" {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s %s: the job is still %s", method, path, job.Status)
		}
		time.Sleep(50 * time.Millisecond)
		if got := c.do("GET", job.StatusURL, headers, nil, &job); got != http.StatusOK {
			c.t.Fatalf("poll %s: %d", job.StatusURL, got)
		}
	}
	if job.Status != "succeeded" {
		c.t.Fatalf("%s %s: job failed: %s", method, path, job.Error)
	}
	if out != nil {
		if err := json.Unmarshal(job.Result, out); err != nil {
			c.t.Fatalf("%s %s: result %s: %v", method, path, job.Result, err)
		}
	}
	return http.StatusAccepted
}
