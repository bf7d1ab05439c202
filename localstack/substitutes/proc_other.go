//go:build !unix

package substitutes

import "os/exec"

// Without process groups only node itself is stopped; the launchers spawn no
// children, so nothing is left behind.
func ownProcessGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
func killGroup(cmd *exec.Cmd) error      { return cmd.Process.Kill() }

// lockInstall does not serialise concurrent installs on these systems.
func lockInstall(string) (func(), error) { return func() {}, nil }
