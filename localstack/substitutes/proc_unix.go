//go:build unix

package substitutes

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ownProcessGroup puts the child in a new process group so Close can signal
// node and anything it spawned at once.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the child's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	return syscall.Kill(-cmd.Process.Pid, sig)
}

func terminateGroup(cmd *exec.Cmd) error { return signalGroup(cmd, syscall.SIGTERM) }
func killGroup(cmd *exec.Cmd) error      { return signalGroup(cmd, syscall.SIGKILL) }

// lockInstall takes an exclusive flock on a file in the temp directory named
// after dir, so the repository stays clean. The lock dies with the process.
func lockInstall(dir string) (unlock func(), err error) {
	sum := sha256.Sum256([]byte(dir))
	path := filepath.Join(os.TempDir(), "invite-localstack-npm-"+hex.EncodeToString(sum[:8])+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
