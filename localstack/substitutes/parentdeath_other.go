//go:build !linux

package substitutes

import "os/exec"

// dieWithParent does nothing here: only Linux has a parent-death signal, so
// a JVM may outlive a process killed with SIGKILL on these systems.
func dieWithParent(*exec.Cmd) {}
