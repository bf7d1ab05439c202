package testkit

import (
	"bytes"
	"sync"
)

// LogBuffer is a log destination that several goroutines write to while a
// test reads what was written so far: a service's slog handler, a child
// process's stdout and stderr. Its zero value is ready to use.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p; it never fails.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
