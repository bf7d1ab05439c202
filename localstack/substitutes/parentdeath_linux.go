package substitutes

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel SIGKILL the child when this process dies, so
// a JVM never outlives a killed test binary or `make run`. Call it after
// ownProcessGroup (which sets SysProcAttr).
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
