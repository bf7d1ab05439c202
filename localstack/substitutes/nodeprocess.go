package substitutes

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// startupTimeout bounds a launcher's start when ctx carries no deadline. Node
// normally listens within half a second; the margin is for loaded CI machines.
const startupTimeout = 20 * time.Second

// stopTimeout is how long Close waits after SIGTERM before SIGKILL.
const stopTimeout = 3 * time.Second

// nodeProcess is one launcher script (localstack/*-server.js) run by node.
type nodeProcess struct {
	name   string // for messages: "sqs", "ses"
	url    string // reported by the launcher on its READY line
	cmd    *exec.Cmd
	stdin  io.Closer // closing it tells the launcher to exit
	output *boundedBuffer
	exited chan struct{} // closed once the process has been waited for
	err    error         // the Wait result, valid after exited is closed
	once   sync.Once
}

// startNode runs `node <script> --host H --port P` in the localstack/
// directory and returns once the launcher has printed "READY <url>" and the
// server answers HTTP at healthPath. It installs node_modules first if needed.
// env adds KEY=value entries to the launcher's environment.
func startNode(ctx context.Context, name, script, addr, healthPath string, env ...string) (*nodeProcess, error) {
	hostPort, err := loopbackAddr(addr)
	if err != nil {
		return nil, fmt.Errorf("substitutes: %s: %w", name, err)
	}
	host, port, _ := net.SplitHostPort(hostPort)
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	if err := EnsureNodeModules(dir); err != nil {
		return nil, err
	}
	node, err := nodeBinary()
	if err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, startupTimeout)
		defer cancel()
	}

	cmd := exec.Command(node, filepath.Join(dir, script), "--host", host, "--port", port)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	ownProcessGroup(cmd)
	p := &nodeProcess{name: name, cmd: cmd, output: &boundedBuffer{max: 16 << 10}, exited: make(chan struct{})}
	cmd.Stderr = p.output
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("substitutes: start %s: %w", name, err)
	}

	ready := make(chan string, 1)
	go p.readStdout(stdout, ready)

	select {
	case p.url = <-ready:
	case <-p.exited:
		return nil, p.startError("exited before listening")
	case <-ctx.Done():
		p.Close()
		return nil, p.startError(fmt.Sprintf("not listening in time: %v", ctx.Err()))
	}
	if err := waitHTTP(ctx, p.url+healthPath, p.exited); err != nil {
		p.Close()
		return nil, p.startError(err.Error())
	}
	return p, nil
}

// readStdout hands the READY line's URL to ready, keeps later output for
// error messages and finally reaps the process (Wait must follow the reads).
func (p *nodeProcess) readStdout(stdout io.Reader, ready chan<- string) {
	sc := bufio.NewScanner(stdout)
	reported := false
	for sc.Scan() {
		line := sc.Text()
		if url, ok := strings.CutPrefix(line, "READY "); ok && !reported {
			reported = true
			ready <- strings.TrimSpace(url)
			continue
		}
		fmt.Fprintln(p.output, line)
	}
	p.err = p.cmd.Wait()
	close(p.exited)
}

func (p *nodeProcess) startError(why string) error {
	if p.isExited() {
		why = fmt.Sprintf("%s (%v)", why, p.err)
	}
	return fmt.Errorf("substitutes: %s (%s) %s; output:\n%s", p.name, strings.Join(p.cmd.Args, " "), why, p.output.String())
}

func (p *nodeProcess) isExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// Close stops the launcher's process group: SIGTERM, then SIGKILL after
// stopTimeout. It is safe to call more than once.
func (p *nodeProcess) Close() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		_ = terminateGroup(p.cmd)
		select {
		case <-p.exited:
		case <-time.After(stopTimeout):
			_ = killGroup(p.cmd)
			<-p.exited
		}
	})
	return nil
}

// waitHTTP polls url until the server answers with any status below 500; a
// 4xx still proves the server handles requests.
func waitHTTP(ctx context.Context, url string, exited <-chan struct{}) error {
	client := &http.Client{Timeout: time.Second}
	var lastErr error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
			err = fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		lastErr = err
		select {
		case <-exited:
			return errors.New("exited while waiting for HTTP")
		case <-ctx.Done():
			return fmt.Errorf("no HTTP answer in time: %w", errors.Join(ctx.Err(), lastErr))
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// boundedBuffer keeps the last max bytes written to it; node's stderr can be
// long and only its end explains a failure.
type boundedBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *boundedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if over := len(w.b) - w.max; over > 0 {
		w.b = append(w.b[:0], w.b[over:]...)
	}
	return len(p), nil
}

func (w *boundedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.b))
}
