package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/edu-invite/invite/shared/testkit"
)

// RIEVersion is the pinned Runtime Interface Emulator (the Makefile
// installs it when missing).
const RIEVersion = "github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@v0.0.0-20261030222936-bef5c4ba774d"

// FindRIE finds aws-lambda-rie on PATH or in GOBIN/GOPATH/bin.
func FindRIE() (string, error) {
	if p, err := exec.LookPath("aws-lambda-rie"); err == nil {
		return p, nil
	}
	var dirs []string
	if out, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output(); err == nil {
		lines := strings.Split(string(out), "\n")
		if len(lines) > 1 {
			if gobin := strings.TrimSpace(lines[0]); gobin != "" {
				dirs = append(dirs, gobin)
			}
			for _, d := range filepath.SplitList(strings.TrimSpace(lines[1])) {
				dirs = append(dirs, filepath.Join(d, "bin"))
			}
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "aws-lambda-rie")
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("aws-lambda-rie not found: go install %s (make test-parity does)", RIEVersion)
}

// Runtime is one function's bootstrap running under the emulator, with
// exactly its template environment plus what Lambda itself sets.
type Runtime struct {
	Def  FunctionDef
	addr string
	cmd  *exec.Cmd
	logs *testkit.LogBuffer

	mu sync.Mutex // the emulator serves one invocation at a time, as one Lambda instance
}

// StartRuntime starts rie with the bootstrap; AWS calls go to endpoint.
func StartRuntime(rie, bootstrap string, def FunctionDef, endpoint, region string) (*Runtime, error) {
	invokeAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	apiAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	rt := &Runtime{Def: def, addr: invokeAddr, logs: &testkit.LogBuffer{}}
	cmd := exec.Command(rie, "--runtime-interface-emulator-address", invokeAddr, "--runtime-api-address", apiAddr, bootstrap)
	cmd.Dir = filepath.Dir(bootstrap)
	// What Lambda sets for a provided.al2023 function, the role's
	// credentials (any: the proxy checks the policy, not the signature),
	// and the one local difference: the AWS endpoint.
	env := []string{
		"PATH=/usr/local/bin:/usr/bin/:/bin", "LANG=en_US.UTF-8", "TZ=:UTC",
		"AWS_REGION=" + region, "AWS_DEFAULT_REGION=" + region,
		"AWS_ACCESS_KEY_ID=parity", "AWS_SECRET_ACCESS_KEY=parity", "AWS_SESSION_TOKEN=parity-" + def.Name,
		"AWS_LAMBDA_FUNCTION_NAME=" + def.LogicalID,
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=" + strconv.Itoa(def.MemoryMB),
		"AWS_LAMBDA_FUNCTION_TIMEOUT=" + strconv.Itoa(def.Timeout),
		"AWS_ENDPOINT_URL=" + endpoint,
		"AWS_EC2_METADATA_DISABLED=true",
	}
	for k, v := range def.Env {
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = rt.logs, rt.logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	rt.cmd = cmd
	// Wait for the emulator's listener.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", invokeAddr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
			return rt, nil
		}
		if time.Now().After(deadline) {
			rt.Close()
			return nil, fmt.Errorf("%s: the emulator did not listen: %s", def.Name, rt.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// FunctionError is a function's failed invocation (Lambda's error shape).
type FunctionError struct {
	Function string
	Message  string `json:"errorMessage"`
	Type     string `json:"errorType"`
}

func (e *FunctionError) Error() string {
	return fmt.Sprintf("%s failed: %s: %s", e.Function, e.Type, e.Message)
}

// Invoke runs one invocation and returns the function's response.
func (rt *Runtime) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost,
		"http://"+rt.addr+"/2015-03-31/functions/function/invocations", bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &FunctionError{Function: rt.Def.Name, Type: resp.Status, Message: string(out)}
	}
	var fe FunctionError
	if json.Unmarshal(out, &fe) == nil && fe.Type != "" && fe.Message != "" {
		fe.Function = rt.Def.Name
		return nil, &fe
	}
	return out, nil
}

// Logs is everything the emulator and the function wrote.
func (rt *Runtime) Logs() string { return rt.logs.String() }

// Close ends the emulator and its bootstrap.
func (rt *Runtime) Close() {
	if rt.cmd != nil && rt.cmd.Process != nil {
		_ = syscall.Kill(-rt.cmd.Process.Pid, syscall.SIGKILL)
		_ = rt.cmd.Wait()
	}
}
