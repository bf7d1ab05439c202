package browsertest

import (
	"os"
	"strings"
	"testing"
)

// TestNoSecretInLogs reads the service's log of the whole run (every test
// before this one) for the invitation hashes, session ids, codes and tokens
// the tests saw. It runs last: go test runs the files in name order.
func TestNoSecretInLogs(t *testing.T) {
	secrets.Lock()
	values := append([]string(nil), secrets.values...)
	secrets.Unlock()
	if len(values) < 10 {
		t.Skip("run with the other browser tests: too few secrets seen to check the log")
	}
	log, err := os.ReadFile(logPath)
	must(t, err)
	if len(log) == 0 {
		t.Fatal("the service log is empty: the check would prove nothing")
	}
	for _, v := range values {
		if strings.Contains(string(log), v) {
			t.Errorf("a secret (%s…) is in the service log", v[:6])
		}
	}
}
